package trust

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// Changes are the files a pull request changes, as GitHub lists them (a
// renamed file under both names).
type Changes struct {
	Files []string
	// Complete is false when GitHub listed fewer files than the pull
	// request changes (it lists at most 3,000): nothing may then be
	// concluded from a file's absence.
	Complete bool
}

// Touched returns the declared projects whose paths (ProjectPaths) match a
// changed file, in config order. With no projects declared, or with an
// incomplete list, every project counts as touched and any reports true.
func Touched(cfg *rules.Config, ch Changes) (projects []string, any bool) {
	if len(cfg.Projects) == 0 || !ch.Complete {
		for _, p := range cfg.Projects {
			projects = append(projects, p.Name)
		}
		return projects, true
	}
	for _, p := range cfg.Projects {
		if slices.ContainsFunc(ch.Files, func(f string) bool { return matchAny(p.ProjectPaths(), f) }) {
			projects = append(projects, p.Name)
		}
	}
	return projects, len(projects) > 0
}

func matchAny(globs []string, file string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, file); ok {
			return true
		}
	}
	return false
}

// Used is a repository file a plan workflow runs, and how it is used.
type Used struct {
	// Path is a file, or a local action's directory (its action.yml and
	// everything under it count).
	Path string
	// Via says how the plan workflow reaches it, as "used by X".
	Via string
}

// LocalUses returns the repository paths a workflow or composite action
// file uses (`uses: ./path`, in jobs and in steps), cleaned and relative to
// the repository root, without duplicates, in file order. Remote actions
// (owner/repo@ref) and docker:// images are not returned: the pull request
// cannot change them.
func LocalUses(data []byte) ([]string, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("not YAML: %v", err)
	}
	var out []string
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > 50 {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "uses" && v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "./") {
					p := strings.TrimPrefix(path.Clean(v.Value), "./")
					if p, _, _ = strings.Cut(p, "@"); !slices.Contains(out, p) && p != "." {
						out = append(out, p)
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(&doc, 0)
	return out, nil
}

// WorkflowChanges returns a plan-workflow-changed finding for each file of
// the pull request that is a plan workflow of cfg or something one of them
// uses (a local action's directory, a reusable workflow). project is the
// project the findings are filed under. An incomplete list of changes
// gives one finding: it cannot be shown that no plan workflow changed.
func WorkflowChanges(cfg *rules.Config, ch Changes, used []Used, project string) []rules.Finding {
	var out []rules.Finding
	add := func(addr, msg string) {
		out = append(out, rules.Finding{
			Rule: rules.RulePlanWorkflowChanged, Severity: rules.SeverityBlock, Project: project, Address: addr, Message: msg,
			Remedy: "Review the workflow change itself; merge it on its own first (the next pull requests then run it from the base branch), or have someone the config allows override this finding. The pull request's author cannot.",
		})
	}
	if !ch.Complete {
		add("(changed files)", "GitHub listed only part of the files this pull request changes, so planwarden cannot show that no plan workflow changed; the plan artifact cannot be trusted.")
	}
	for _, f := range ch.Files {
		if cfg.IsPlanWorkflow(f) {
			add(f, fmt.Sprintf("this pull request changes the plan workflow %s, and its plan was made by the pull request's own version of it, so the plan artifact cannot be trusted.", f))
			continue
		}
		for _, u := range used {
			if f == u.Path || strings.HasPrefix(f, u.Path+"/") {
				add(f, fmt.Sprintf("this pull request changes %s, %s, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.", f, u.Via))
				break
			}
		}
	}
	return out
}
