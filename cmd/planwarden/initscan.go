package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// A repository's projects as planwarden init finds them.

// Tools a found project is planned with.
const (
	toolTerraform = "terraform"
	toolBicep     = "bicep"
)

// foundProject is a root module (or Bicep entry point) and what it uses.
type foundProject struct {
	name, dir, tool string // dir is slash-separated, relative to the repository ("" for its root)
	// modules are the local modules it calls, directly or through others
	// (Terraform: directories; Bicep: files), relative to the repository.
	modules []string
	env     string
	// envGuessed is true when the path named no environment (env is "").
	envGuessed bool
}

// paths are the globs of the files that belong to the project.
func (p foundProject) paths() []string {
	out := []string{dirGlob(p.dir)}
	for _, m := range p.modules {
		if p.tool == toolBicep && strings.HasSuffix(m, ".bicep") {
			out = append(out, m)
			continue
		}
		out = append(out, dirGlob(m))
	}
	return out
}

func dirGlob(dir string) string {
	if dir == "" {
		return "**"
	}
	return dir + "/**"
}

// scanLimit bounds the files a scan reads.
const scanLimit = 20000

// skippedDirs are never projects and never walked.
var skippedDirs = map[string]bool{".git": true, ".terraform": true, "node_modules": true, "vendor": true, ".terragrunt-cache": true}

// tfModule is what one directory's Terraform files say.
type tfModule struct {
	root    bool     // a backend, cloud or provider block
	sources []string // local module sources, as written
}

var tfSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"}, {Type: "provider", LabelNames: []string{"name"}}, {Type: "module", LabelNames: []string{"name"}},
}}

var tfBlockSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "backend", LabelNames: []string{"type"}}, {Type: "cloud"}}}

var moduleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}}}

// scanRepo finds the projects under root: directories whose Terraform
// files (.tf, .tf.json) hold a backend, cloud or provider block and that no
// other such directory calls as a module, and directories with a
// main.bicep. A file HCL cannot parse is an error naming it.
func scanRepo(root string) ([]foundProject, error) {
	parser := hclparse.NewParser()
	tf := map[string]*tfModule{} // by slash dir
	var bicep []string
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skippedDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") && d.Name() != ".github") {
				return filepath.SkipDir
			}
			return nil
		}
		if files++; files > scanLimit {
			return fmt.Errorf("more than %d files under %s: run planwarden init in the repository's root, or write the config by hand", scanLimit, root)
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		dir := filepath.ToSlash(rel)
		if dir == "." {
			dir = ""
		}
		name := d.Name()
		switch {
		case name == "main.bicep":
			bicep = append(bicep, dir)
		case strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json"):
			var f *hcl.File
			var diags hcl.Diagnostics
			if strings.HasSuffix(name, ".tf") {
				f, diags = parser.ParseHCLFile(p)
			} else {
				f, diags = parser.ParseJSONFile(p)
			}
			if diags.HasErrors() {
				return fmt.Errorf("read %s: %s", p, diags.Errs()[0])
			}
			m := tf[dir]
			if m == nil {
				m = &tfModule{}
				tf[dir] = m
			}
			readTF(f.Body, m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	called := map[string]bool{}
	for dir, m := range tf {
		for _, s := range m.sources {
			if t, ok := localSource(dir, s); ok {
				called[t] = true
			}
		}
	}
	var out []foundProject
	for dir, m := range tf {
		if !m.root || called[dir] {
			continue
		}
		out = append(out, foundProject{dir: dir, tool: toolTerraform, modules: tfModules(tf, dir)})
	}
	for _, dir := range bicep {
		mods, err := bicepModules(root, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, foundProject{dir: dir, tool: toolBicep, modules: mods})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].dir < out[j].dir || out[i].dir == out[j].dir && out[i].tool < out[j].tool
	})
	nameProjects(out)
	for i := range out {
		out[i].env, out[i].envGuessed = guessEnvironment(out[i].dir)
	}
	return out, nil
}

// readTF notes a body's root blocks and local module sources.
func readTF(body hcl.Body, m *tfModule) {
	content, _, _ := body.PartialContent(tfSchema)
	for _, b := range content.Blocks {
		switch b.Type {
		case "provider":
			m.root = true
		case "terraform":
			inner, _, _ := b.Body.PartialContent(tfBlockSchema)
			if len(inner.Blocks) > 0 {
				m.root = true
			}
		case "module":
			attrs, _, _ := b.Body.PartialContent(moduleSchema)
			if a, ok := attrs.Attributes["source"]; ok {
				if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.Type().FriendlyName() == "string" && v.IsKnown() && !v.IsNull() {
					m.sources = append(m.sources, v.AsString())
				}
			}
		}
	}
}

// localSource resolves a module source that is a local path ("./x",
// "../x") against the calling directory; ok is false for registry, git and
// other remote sources, and for a path that leaves the repository.
func localSource(dir, source string) (string, bool) {
	if !strings.HasPrefix(source, "./") && !strings.HasPrefix(source, "../") {
		return "", false
	}
	return within(dir, source)
}

// within joins a relative reference to dir; ok is false when it leaves the
// repository.
func within(dir, ref string) (string, bool) {
	p := path.Join(dir, ref)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(ref) {
		return "", false
	}
	if p == "." {
		p = ""
	}
	return p, true
}

// tfModules returns the local modules dir calls, transitively, sorted.
func tfModules(tf map[string]*tfModule, dir string) []string {
	seen := map[string]bool{dir: true}
	var out []string
	todo := []string{dir}
	for len(todo) > 0 && len(seen) < 1000 {
		d := todo[0]
		todo = todo[1:]
		m := tf[d]
		if m == nil {
			continue
		}
		for _, s := range m.sources {
			t, ok := localSource(d, s)
			if !ok || seen[t] {
				continue
			}
			seen[t] = true
			if !inside(t, dir) { // a module inside the project is in its glob
				out = append(out, t)
			}
			todo = append(todo, t)
		}
	}
	sort.Strings(out)
	return out
}

var bicepModule = regexp.MustCompile(`(?m)^\s*module\s+\w+\s+'([^']+)'`)

// bicepModules returns the local .bicep files main.bicep of dir uses that
// lie outside dir (registry and template-spec references are skipped).
func bicepModules(root, dir string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	todo := []string{path.Join(dir, "main.bicep")}
	for len(todo) > 0 && len(seen) < 1000 {
		f := todo[0]
		todo = todo[1:]
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		for _, m := range bicepModule.FindAllStringSubmatch(string(data), -1) {
			ref := m[1]
			if strings.Contains(ref, ":") { // br:, ts:, br/alias:
				continue
			}
			t, ok := within(path.Dir(f), ref)
			if !ok || seen[t] {
				continue
			}
			seen[t] = true
			if !inside(t, dir) {
				out = append(out, t)
			}
			todo = append(todo, t)
		}
	}
	sort.Strings(out)
	return out, nil
}

// inside reports whether the repository path p lies under dir.
func inside(p, dir string) bool { return dir == "" || strings.HasPrefix(p+"/", dir+"/") }

var nameUnsafe = regexp.MustCompile(`[^a-z0-9]+`)

// nameProjects names each project after its directory's last element, or
// its whole path where two would share a name; a Bicep entry point beside
// a Terraform root gets -bicep.
func nameProjects(ps []foundProject) {
	clean := func(s string) string { return strings.Trim(nameUnsafe.ReplaceAllString(strings.ToLower(s), "-"), "-") }
	base := func(p foundProject) string {
		n := clean(path.Base(p.dir))
		if p.dir == "" || n == "" {
			n = "root"
		}
		return n
	}
	count := map[string]int{}
	for _, p := range ps {
		count[base(p)]++
	}
	for i, p := range ps {
		n := base(p)
		if count[n] > 1 && p.dir != "" {
			n = clean(p.dir)
		}
		ps[i].name = n
	}
	used := map[string]int{}
	for i := range ps {
		used[ps[i].name]++
		if used[ps[i].name] > 1 {
			ps[i].name += "-" + ps[i].tool
		}
	}
}

// envWords are the path words that name an environment.
var envWords = map[string]string{
	"prod": "prod", "production": "prod", "prd": "prod", "live": "prod",
	"staging": "staging", "stage": "staging", "stg": "staging",
	"dev": "dev", "development": "dev", "sandbox": "dev",
}

var wordSep = regexp.MustCompile(`[-_.]`)

// guessEnvironment reads the environment from the directory's words
// (environments/prod, gpu-staging); guessed is true when none names one,
// and the environment is then "": the config names none, and the project
// is judged as strictly as prod until someone sets it (a guess of dev
// would make init's config weaker than having no config at all).
func guessEnvironment(dir string) (env string, guessed bool) {
	segs := strings.Split(strings.ToLower(dir), "/")
	for i := len(segs) - 1; i >= 0; i-- { // the nearest word wins
		for _, w := range wordSep.Split(segs[i], -1) {
			if e, ok := envWords[w]; ok {
				return e, false
			}
		}
	}
	return "", true
}
