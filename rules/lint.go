package rules

import (
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// LintOptions says what Lint may look at besides the config.
type LintOptions struct {
	// Catalog is the SKU catalog allowed_skus entries are checked
	// against; nil means infra.DefaultCatalog().
	Catalog *infra.Catalog
	// Dir, when set, is asked about each project's directory (slash
	// separated, relative to the repository root): whether it exists,
	// and the names of the directories beside it (for a did-you-mean).
	Dir func(dir string) (exists bool, siblings []string)
}

// Lint reports what a valid config says that planwarden accepts but that
// will not work as written, the breaks of a first day. Errors: a custom
// rule whose when expression does not type-check against what a change
// holds (it would warn on every change), a project directory that does not
// exist. Warnings: an allowed_skus entry no catalog knows, with a
// did-you-mean. data is the file c was parsed from, for the lines; each
// problem's Message starts with its key path, like ParseConfig's.
func Lint(c *Config, data []byte, opt LintOptions) (errs, warns []ConfigProblem) {
	ps := &problems{file: c.file, lines: map[string]int{}}
	if root, err := parseYAML(data); err == nil && root != nil {
		ps.walk(root, reflect.TypeOf(Config{}), "", "")
	}
	ps.list = nil
	for i, r := range c.CustomRules {
		if err := typeCheckCustom(r.When); err != nil {
			ps.at(fmt.Sprintf("custom_rules[%d].when", i), "custom rule %q does not type-check: %v; fix the expression (docs/config.md, \"What the expression sees\", lists the keys of change and project and their types), else it warns on every change", r.ID, err)
		}
	}
	if opt.Dir != nil {
		for i, p := range c.Projects {
			d := strings.Trim(path.Clean("/"+p.Directory), "/")
			if p.Directory == "" || d == "" {
				continue
			}
			if ok, siblings := opt.Dir(d); !ok {
				msg := fmt.Sprintf("directory %q does not exist in the repository", p.Directory)
				parent := path.Dir(d)
				if parent == "." {
					parent = ""
				}
				if s := nearDir(path.Base(d), siblings); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", path.Join(parent, s))
				}
				ps.at(fmt.Sprintf("projects[%d].directory", i), "%s", msg)
			}
		}
	}
	errs, ps.list = ps.list, nil
	cat := opt.Catalog
	if cat == nil {
		cat = infra.DefaultCatalog()
	}
	var names []string // curated SKU names, for did-you-mean and patterns
	for _, s := range cat.SKUs() {
		names = append(names, s.Name)
	}
	check := func(p string, list []string) {
		for i, e := range list {
			q := fmt.Sprintf("%s[%d]", p, i)
			if strings.ContainsAny(e, "*?[") {
				if !patternKnown(e, names) {
					ps.at(q, "pattern %q matches no SKU planwarden's catalog knows; check its spelling (patterns match case-insensitively)", e)
				}
				continue
			}
			if skuKnown(cat, e) {
				continue
			}
			msg := fmt.Sprintf("SKU %q is not in planwarden's catalog, so nothing will match it exactly as written", e)
			if s := suggest(e, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			ps.at(q, "%s", msg)
		}
	}
	for _, name := range sortedKeys(c.Environments) {
		check(joinPath("environments", name)+".allowed_skus", c.Environments[name].AllowedSKUs)
	}
	check("rules.allowed-skus.skus", c.Rules.AllowedSKUs.SKUs)
	warns = ps.list
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	sort.SliceStable(warns, func(i, j int) bool { return warns[i].Line < warns[j].Line })
	return errs, warns
}

// lintClouds are the catalog's clouds, in the order a name is looked up.
var lintClouds = []string{infra.CloudAzure, infra.CloudAWS, infra.CloudSageMaker, infra.CloudGCP}

// skuKnown reports whether any cloud's catalog (curated rows, bulk layer or
// family rules) knows the SKU.
func skuKnown(cat *infra.Catalog, name string) bool {
	for _, cloud := range lintClouds {
		if cat.Lookup(cloud, name).Known {
			return true
		}
	}
	return false
}

// patternKnown reports whether a shell pattern matches a curated SKU.
func patternKnown(p string, names []string) bool {
	for _, n := range names {
		if skuAllowed([]string{p}, n) {
			return true
		}
	}
	return false
}

// nearDir is the sibling a mistyped or shortened directory name meant: a
// close spelling, else the one sibling that starts with it.
func nearDir(base string, siblings []string) string {
	if s := suggest(base, siblings); s != "" {
		return s
	}
	found := ""
	for _, s := range siblings {
		if strings.HasPrefix(strings.ToLower(s), strings.ToLower(base)) {
			if found != "" {
				return ""
			}
			found = s
		}
	}
	return found
}
