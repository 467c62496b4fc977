package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/planwarden/planwarden/rules"
)

// With plan_source: dispatch the plan workflow and its scripts come from
// the default branch, but terraform plan still runs code the pull request
// can bring: an external data source's program, a provider binary, a
// module from outside the repository. They are read from the pull
// request's files (fetched through GitHub, never from the artifact).

// FileVersions is a changed file's content at the pull request's base and
// at its head.
type FileVersions struct {
	Path string
	// Base and Head are nil where the file does not exist.
	Base, Head []byte
	// HeadSHA is the file's blob SHA at the head (Changes.SHAs).
	HeadSHA string
}

// lockFile is the name of Terraform's dependency lock file.
const lockFile = ".terraform.lock.hcl"

// PRCodeFiles returns the changed files PlanRunsPRCode reads, in ch's
// order: Terraform and OpenTofu code (.tf, .tf.json, .tofu, .tofu.json),
// dependency lock files, and anything in a directory terraform init
// takes provider binaries from (terraform.d, .terraform).
func PRCodeFiles(ch Changes) []string {
	var out []string
	for _, f := range ch.Files {
		if _, plugin := pluginDir(f); plugin || isTerraformFile(f) || path.Base(f) == lockFile {
			out = append(out, f)
		}
	}
	return out
}

// pluginDir reports whether f is in a directory terraform init takes
// provider binaries from: terraform.d (the implied local mirror) or
// .terraform (its own cache), and which.
func pluginDir(f string) (string, bool) {
	parts := strings.Split(f, "/")
	for i, p := range parts[:len(parts)-1] {
		if p == "terraform.d" || p == ".terraform" {
			return strings.Join(parts[:i+1], "/"), true
		}
	}
	return "", false
}

func isTerraformFile(f string) bool {
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(f, ext) {
			return true
		}
	}
	return false
}

// codeItem is one thing in a module directory that makes terraform plan
// run code, with its normalized text.
type codeItem struct {
	dir, key, file, text string
}

// PlanRunsPRCode returns a plan-runs-pr-code finding, filed under
// project, for each thing the pull request adds or changes that makes
// terraform plan run code other than the base branch's: a data "external"
// block (its program runs while planning), a provider's source or
// version in required_providers (a different binary), a module whose
// source is not local or whose version changes (code from outside the
// repository, which may hold its own external data sources), a changed,
// added or removed .terraform.lock.hcl, and any file in a terraform.d or
// .terraform directory (provider binaries terraform init may take). Blocks are compared by
// module directory across the given files, so a block moved between two
// changed files of a directory is not new. A head file that does not
// parse is a finding too (planwarden cannot show it runs nothing). Each
// finding carries the file's head blob SHA, so an override covers that
// content only. Findings come in file order.
func PlanRunsPRCode(files []FileVersions, project string) []rules.Finding {
	var out []rules.Finding
	add := func(fv FileVersions, addr, msg string) {
		sha := fv.HeadSHA
		if fv.Head == nil || sha == "" {
			sha = removedBlob
		}
		out = append(out, rules.Finding{
			Rule: rules.RulePlanRunsPRCode, Severity: rules.SeverityBlock, Project: project, Address: addr, Message: msg,
			Remedy:   "Review the code it runs, then have someone the config allows override this finding (the pull request's author cannot); or merge the change on its own first.",
			BlobSHAs: []string{sha},
		})
	}
	base, head := map[string]string{}, map[string]codeItem{}
	var order []codeItem
	byPath := map[string]FileVersions{}
	for _, fv := range files {
		byPath[fv.Path] = fv
		if dir, ok := pluginDir(fv.Path); ok {
			add(fv, fv.Path, fmt.Sprintf("this pull request changes %s, in %s, where terraform init finds provider binaries, which run while planning.", fv.Path, dir))
			continue
		}
		if path.Base(fv.Path) == lockFile {
			if !bytes.Equal(fv.Base, fv.Head) {
				what := "changes"
				switch {
				case fv.Base == nil:
					what = "adds"
				case fv.Head == nil:
					what = "removes"
				}
				add(fv, fv.Path, fmt.Sprintf("this pull request %s the dependency lock file %s, so terraform init may install other provider binaries, which run while planning.", what, fv.Path))
			}
			continue
		}
		if !isTerraformFile(fv.Path) {
			continue
		}
		if items, err := codeItems(fv.Path, fv.Base); err == nil {
			for _, it := range items {
				base[it.dir+"\x00"+it.key] = it.text
			}
		}
		if fv.Head == nil {
			continue
		}
		items, err := codeItems(fv.Path, fv.Head)
		if err != nil {
			add(fv, fv.Path, fmt.Sprintf("planwarden cannot read %s (%v), so it cannot show that terraform plan runs no code this pull request brings.", fv.Path, err))
			continue
		}
		for _, it := range items {
			k := it.dir + "\x00" + it.key
			if _, dup := head[k]; !dup {
				order = append(order, it)
			}
			head[k] = it
		}
	}
	for _, it := range order {
		was, ok := base[it.dir+"\x00"+it.key]
		if ok && was == it.text {
			continue
		}
		fv := byPath[it.file]
		verb := "changes"
		if !ok {
			verb = "adds"
		}
		add(fv, it.file+": "+it.key, describeItem(it, verb))
	}
	return out
}

// describeItem says what an added or changed code item makes terraform
// plan run.
func describeItem(it codeItem, verb string) string {
	kind, name, _ := strings.Cut(it.key, " ")
	switch kind {
	case "external":
		return fmt.Sprintf("this pull request %s the external data source %s in %s: terraform plan runs its program.", verb, name, it.file)
	case "provider":
		return fmt.Sprintf("this pull request %s the provider %s in required_providers of %s: terraform plan runs the provider binary it names.", verb, name, it.file)
	}
	return fmt.Sprintf("this pull request %s the module %s in %s, whose code comes from outside the repository and may run programs while planning.", verb, name, it.file)
}

// codeItems lists the code items of one Terraform file.
func codeItems(file string, src []byte) ([]codeItem, error) {
	if src == nil {
		return nil, nil
	}
	dir := path.Dir(file)
	if strings.HasSuffix(file, ".json") {
		return jsonCodeItems(dir, file, src)
	}
	f, diags := hclsyntax.ParseConfig(src, file, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, fmt.Errorf("not native syntax")
	}
	var out []codeItem
	text := func(r hcl.Range) string { return strings.Join(strings.Fields(string(r.SliceBytes(src))), " ") }
	for _, b := range body.Blocks {
		switch {
		case b.Type == "data" && len(b.Labels) == 2 && b.Labels[0] == "external":
			r := hcl.RangeBetween(b.OpenBraceRange, b.CloseBraceRange)
			out = append(out, codeItem{dir, "external " + b.Labels[1], file, text(r)})
		case b.Type == "module" && len(b.Labels) == 1:
			src, ok := b.Body.Attributes["source"]
			if !ok {
				continue
			}
			s := text(src.Expr.Range())
			if strings.HasPrefix(s, `"./`) || strings.HasPrefix(s, `"../`) {
				continue // its code is in the repository: a change to it is a changed file
			}
			if v, ok := b.Body.Attributes["version"]; ok {
				s += " version " + text(v.Expr.Range())
			}
			out = append(out, codeItem{dir, "module " + b.Labels[0], file, s})
		case b.Type == "terraform":
			for _, rp := range b.Body.Blocks {
				if rp.Type != "required_providers" {
					continue
				}
				names := make([]string, 0, len(rp.Body.Attributes))
				for n := range rp.Body.Attributes {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					out = append(out, codeItem{dir, "provider " + n, file, text(rp.Body.Attributes[n].Expr.Range())})
				}
			}
		}
	}
	return out, nil
}

// jsonCodeItems lists the code items of a Terraform JSON file.
func jsonCodeItems(dir, file string, src []byte) ([]codeItem, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	var out []codeItem
	canon := func(raw json.RawMessage) string {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return string(raw)
		}
		b, _ := json.Marshal(v) // map keys sorted
		return string(b)
	}
	for _, data := range objects(doc["data"]) {
		for _, ext := range objects(data["external"]) {
			for _, name := range sortedNames(ext) {
				out = append(out, codeItem{dir, "external " + name, file, canon(ext[name])})
			}
		}
	}
	for _, mods := range objects(doc["module"]) {
		for _, name := range sortedNames(mods) {
			var m struct {
				Source  string          `json:"source"`
				Version json.RawMessage `json:"version"`
			}
			if json.Unmarshal(mods[name], &m) != nil || strings.HasPrefix(m.Source, "./") || strings.HasPrefix(m.Source, "../") {
				continue
			}
			out = append(out, codeItem{dir, "module " + name, file, m.Source + " version " + canon(m.Version)})
		}
	}
	for _, tf := range objects(doc["terraform"]) {
		for _, rp := range objects(tf["required_providers"]) {
			for _, name := range sortedNames(rp) {
				out = append(out, codeItem{dir, "provider " + name, file, canon(rp[name])})
			}
		}
	}
	return out, nil
}

// objects reads a JSON object, or an array of objects (Terraform's JSON
// syntax allows both for blocks), as a list of objects.
func objects(raw json.RawMessage) []map[string]json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var one map[string]json.RawMessage
	if json.Unmarshal(raw, &one) == nil {
		return []map[string]json.RawMessage{one}
	}
	var many []map[string]json.RawMessage
	_ = json.Unmarshal(raw, &many)
	return many
}

func sortedNames(m map[string]json.RawMessage) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// diagError is the first error of diags, by line, in a few words: its
// detail may quote the file.
func diagError(diags hcl.Diagnostics) error {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Subject != nil {
			return fmt.Errorf("line %d: %s", d.Subject.Start.Line, d.Summary)
		}
		return fmt.Errorf("%s", d.Summary)
	}
	return fmt.Errorf("does not parse")
}
