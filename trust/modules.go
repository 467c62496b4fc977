package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// A root module reads files outside its directory: the local modules it
// calls (source = "../../modules/gpu-pool"). They belong to its project.

// ModuleDirs returns the repository directories of the local modules that
// the root module in dir calls, directly or through other local modules,
// as a plan's configuration lists the calls (planparse.Plan.ModuleCalls):
// each local source resolved against its caller's directory. A call with
// a registry or remote source is left out, and so is every call inside
// one (its code is not in the repository); so is a directory that leaves
// the repository. Sorted, without duplicates.
func ModuleDirs(dir string, calls []planparse.ModuleCall) []string {
	root := cleanDir(dir)
	dirs := map[string]string{"": root} // by module address
	var out []string
	for _, c := range calls { // each call comes before the calls inside it
		caller, ok := dirs[c.Caller]
		if !ok || c.Source == "" {
			continue
		}
		d := path.Join(caller, c.Source)
		if d == ".." || strings.HasPrefix(d, "../") {
			continue
		}
		if d == "." {
			d = ""
		}
		dirs[c.Address] = d
		if d != root && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

func cleanDir(dir string) string { return strings.Trim(path.Clean("/"+dir), "/") }

// WidenPaths returns a project's path globs (rules.ProjectConfig
// ProjectPaths) with every file of each module directory added (dir/**),
// where the globs do not cover it already; the app keeps the directories a
// trusted plan showed with the pull request's state, so a later push that
// changes only a called module still needs that project's plan.
func WidenPaths(globs, moduleDirs []string) []string {
	out := slices.Clone(globs)
	for _, d := range moduleDirs {
		g := d + "/**"
		if d == "" {
			g = "**"
		}
		if !coversDir(out, d) {
			out = append(out, g)
		}
	}
	return out
}

// coversDir reports whether globs match every file under dir, as far as a
// probe can tell: a file and a nested file with names no one uses.
func coversDir(globs []string, dir string) bool {
	probe := path.Join(dir, "planwarden-probe", "planwarden-probe.tf")
	probe2 := path.Join(dir, "planwarden-probe.tf")
	return matchAny(globs, probe) && matchAny(globs, probe2)
}

// LocalModule is a module block of a directory's Terraform code whose
// source is a local path.
type LocalModule struct {
	// File is the .tf or .tf.json file of the call, Name its label.
	File, Name string
	// Source is as written; Dir is it resolved from the repository root.
	Source, Dir string
}

// maxModuleDirs bounds how many directories LocalModuleCalls reads.
const maxModuleDirs = 100

// LocalModuleCalls lists the local module calls of the Terraform code in
// dir of fsys (the repository), and of the local modules they call in
// turn: module blocks in *.tf and *.tf.json (and OpenTofu's *.tofu)
// files whose source is a literal ./ or ../ path, ordered by directory
// read, file and name. Directories leaving the repository are listed
// (Dir starts with ..) but not read, and so are called directories fsys
// lacks. A missing dir, or a file that does not parse, is an error naming
// it.
func LocalModuleCalls(fsys fs.FS, dir string) ([]LocalModule, error) {
	var out []LocalModule
	queueRoot := cleanDir(dir)
	queue, seen := []string{queueRoot}, map[string]bool{}
	for len(queue) > 0 && len(seen) < maxModuleDirs {
		d := queue[0]
		queue = queue[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		calls, err := dirModuleCalls(fsys, d)
		if err != nil && d != queueRoot && errors.Is(err, fs.ErrNotExist) {
			continue // a module directory the repository lacks: terraform init fails on it
		}
		if err != nil {
			return out, err
		}
		for _, c := range calls {
			out = append(out, c)
			if !strings.HasPrefix(c.Dir, "..") {
				queue = append(queue, c.Dir)
			}
		}
	}
	return out, nil
}

// dirModuleCalls reads one directory's local module calls.
func dirModuleCalls(fsys fs.FS, dir string) ([]LocalModule, error) {
	fsDir := dir
	if fsDir == "" {
		fsDir = "."
	}
	entries, err := fs.ReadDir(fsys, fsDir)
	if err != nil {
		return nil, fmt.Errorf("read directory %s: %w", fsDir, err)
	}
	var out []LocalModule
	for _, e := range entries {
		name := e.Name()
		json := strings.HasSuffix(name, ".tf.json") || strings.HasSuffix(name, ".tofu.json")
		if e.IsDir() || !json && !strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".tofu") {
			continue
		}
		file := path.Join(dir, name)
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return out, fmt.Errorf("read %s: %w", file, err)
		}
		body, diags := parseTerraform(file, src, json)
		if diags.HasErrors() {
			return out, fmt.Errorf("parse %s: %w", file, diagError(diags))
		}
		content, _ := body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "module", LabelNames: []string{"name"}}}})
		if content == nil {
			continue
		}
		for _, b := range content.Blocks {
			bc, _, _ := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}}})
			a, ok := bc.Attributes["source"]
			if bc == nil || !ok {
				continue
			}
			v, d := a.Expr.Value(nil)
			if d.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
				continue
			}
			s := v.AsString()
			if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
				continue
			}
			md := path.Join(dir, s)
			if md == "." {
				md = ""
			}
			out = append(out, LocalModule{File: file, Name: b.Labels[0], Source: s, Dir: md})
		}
	}
	return out, nil
}

// parseTerraform parses a Terraform file, native syntax or JSON.
func parseTerraform(file string, src []byte, json bool) (hcl.Body, hcl.Diagnostics) {
	var f *hcl.File
	var diags hcl.Diagnostics
	if json {
		f, diags = hcljson.Parse(src, file)
	} else {
		f, diags = hclsyntax.ParseConfig(src, file, hcl.InitialPos)
	}
	if f == nil {
		return hcl.EmptyBody(), diags
	}
	return f.Body, diags
}

// ModulesOutsidePaths returns, for each declared project with a
// directory, the local modules its Terraform code calls (LocalModuleCalls
// of fsys, the repository) whose directory its paths do not cover, for
// `planwarden validate` to warn about: a pull request that changes only
// such a module does not count as changing the project until a plan
// shows the call (WidenPaths). A project whose directory fsys lacks is
// skipped.
func ModulesOutsidePaths(cfg *rules.Config, fsys fs.FS) (map[string][]LocalModule, error) {
	out := map[string][]LocalModule{}
	for _, p := range cfg.Projects {
		if p.Directory == "" {
			continue
		}
		calls, err := LocalModuleCalls(fsys, p.Directory)
		if errors.Is(err, fs.ErrNotExist) && len(calls) == 0 {
			continue // not in this checkout (validate run outside the repository)
		}
		if err != nil {
			return out, fmt.Errorf("project %s: %w", p.Name, err)
		}
		for _, c := range calls {
			if !strings.HasPrefix(c.Dir, "..") && !coversDir(p.ProjectPaths(), c.Dir) {
				out[p.Name] = append(out[p.Name], c)
			}
		}
	}
	return out, nil
}
