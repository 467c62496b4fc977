package trust

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// Will is whether a trusted plan workflow will run for a pull request.
type Will int

// What a workflow's on: says about a pull request.
const (
	// CannotTell: planwarden cannot read the filters (an expression, a
	// filter GitHub rejects, too many files for GitHub's path filters);
	// the check waits as if the workflow will run, and never passes.
	CannotTell Will = iota
	// WillRun: a run of the workflow is coming.
	WillRun
	// WillNotRun: the workflow's filters exclude the pull request: no
	// trusted plan will come unless someone asks with /plan.
	WillNotRun
)

// Forecast is what a plan workflow's on: says about a pull request, and
// why, in a sentence the check can show beside what to do.
type Forecast struct {
	Workflow string
	Will     Will
	Why      string
}

// maxFilterFiles is how many changed files GitHub's paths filters read:
// past it, GitHub may not run a workflow whose paths match only later
// files.
const maxFilterFiles = 300

// defaultPRTypes are the pull_request activity types a workflow runs on
// when its on: names none.
var defaultPRTypes = []string{"opened", "synchronize", "reopened"}

// PlanWorkflowForecast reads the on: of a plan workflow (data, the base
// branch's version of the file at path) and says whether a run that
// counts (PlanEvents) will come for a pull request into base that changes
// ch, on the activity action (opened, synchronize, reopened; "" is
// synchronize, a push). In artifact mode the run that counts is the
// pull_request run: its branches or branches-ignore (against base), its
// paths or paths-ignore (against ch, with GitHub's pattern syntax: *,
// **, ?, +, [..], leading ! in order) and its types decide. A
// pull_request_target trigger does not count (its runs are not trusted,
// see PlanRun). In dispatch mode (cfg.Dispatches) planwarden starts the
// run itself: it will run when the workflow declares workflow_dispatch.
// A pull request that changes the workflow file itself runs its own
// version: CannotTell (WorkflowChanges reports it). So does anything
// planwarden cannot read: it never turns into WillNotRun.
func PlanWorkflowForecast(cfg *rules.Config, path string, data []byte, base string, ch Changes, action string) Forecast {
	fc := Forecast{Workflow: path}
	tell := func(w Will, format string, args ...any) Forecast {
		fc.Will, fc.Why = w, fmt.Sprintf(format, args...)
		return fc
	}
	if slices.Contains(ch.Files, path) {
		return tell(CannotTell, "this pull request changes %s, and GitHub runs its version of it", path)
	}
	doc, err := parseYAML(data)
	if err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return tell(CannotTell, "%s cannot be read as YAML", path)
	}
	on := valueAt(doc.Content[0], "on")
	if on == nil {
		// YAML 1.1 reads a bare on as true; yaml.v3 keeps the key "on".
		return tell(CannotTell, "%s has no on: planwarden can read", path)
	}
	events, ok := triggers(on)
	if !ok {
		return tell(CannotTell, "the on: of %s is not an event, a list of events or a mapping of them", path)
	}
	if cfg.Dispatches() {
		if _, ok := events["workflow_dispatch"]; !ok {
			return tell(WillNotRun, "%s has no workflow_dispatch trigger, so planwarden cannot start it (plan_source: dispatch)", path)
		}
		return tell(WillRun, "planwarden dispatches %s for every push", path)
	}
	pr, ok := events["pull_request"]
	if !ok {
		return tell(WillNotRun, "%s does not run on pull_request, so no trusted plan comes unless someone comments /plan", path)
	}
	if action == "" {
		action = "synchronize"
	}
	if pr == nil || pr.Kind == yaml.ScalarNode && (pr.Value == "" || pr.Tag == "!!null") {
		if slices.Contains(defaultPRTypes, action) {
			return tell(WillRun, "%s runs on every pull request", path)
		}
		return tell(WillNotRun, "%s runs on pull requests that are opened, pushed to or reopened, not %s", path, action)
	}
	if pr.Kind != yaml.MappingNode {
		return tell(CannotTell, "the pull_request trigger of %s is not a mapping of filters", path)
	}
	filters := map[string][]string{}
	for i := 0; i+1 < len(pr.Content); i += 2 {
		k, v := pr.Content[i].Value, pr.Content[i+1]
		list, ok := stringList(v)
		if !ok {
			return tell(CannotTell, "the pull_request filter %s of %s is not a list of patterns", k, path)
		}
		filters[k] = list
	}
	types := defaultPRTypes
	if t, ok := filters["types"]; ok {
		types = t
	}
	if !slices.Contains(types, action) {
		return tell(WillNotRun, "%s runs on pull request activity %s, not %s", path, strings.Join(types, ", "), action)
	}
	for _, pair := range [][2]string{{"branches", "branches-ignore"}, {"paths", "paths-ignore"}} {
		if _, a := filters[pair[0]]; a {
			if _, b := filters[pair[1]]; b {
				return tell(CannotTell, "%s sets both %s and %s on pull_request, which GitHub refuses", path, pair[0], pair[1])
			}
		}
	}
	if pats, ok := filters["branches"]; ok {
		in, err := filterMatch(pats, base)
		if err != nil {
			return tell(CannotTell, "%s: branches: %v", path, err)
		}
		if !in {
			return tell(WillNotRun, "%s runs on pull requests into %s; this one is into %s", path, strings.Join(pats, ", "), base)
		}
	}
	if pats, ok := filters["branches-ignore"]; ok {
		out, err := filterMatch(pats, base)
		if err != nil {
			return tell(CannotTell, "%s: branches-ignore: %v", path, err)
		}
		if out {
			return tell(WillNotRun, "%s ignores pull requests into %s (branches-ignore: %s)", path, base, strings.Join(pats, ", "))
		}
	}
	paths, hasPaths := filters["paths"]
	ignore, hasIgnore := filters["paths-ignore"]
	if !hasPaths && !hasIgnore {
		return tell(WillRun, "%s runs on pull requests into %s", path, base)
	}
	if !ch.Complete || len(ch.Files) > maxFilterFiles {
		return tell(CannotTell, "GitHub's path filters of %s read at most %d changed files, and this pull request changes more", path, maxFilterFiles)
	}
	for _, f := range ch.Files {
		var runs bool
		var err error
		if hasPaths {
			runs, err = filterMatch(paths, f)
		} else {
			var ignored bool
			ignored, err = filterMatch(ignore, f)
			runs = !ignored
		}
		if err != nil {
			return tell(CannotTell, "%s: paths: %v", path, err)
		}
		if runs {
			return tell(WillRun, "%s runs for %s", path, f)
		}
	}
	if hasPaths {
		return tell(WillNotRun, "the paths filter of %s (%s) matches none of the %d file(s) this pull request changes", path, strings.Join(paths, ", "), len(ch.Files))
	}
	return tell(WillNotRun, "the paths-ignore filter of %s (%s) ignores every file this pull request changes", path, strings.Join(ignore, ", "))
}

// AnyWillRun combines the forecasts of the plan workflows: WillRun when
// one will run, else CannotTell when one cannot be told, else WillNotRun
// (also for none), with the forecasts that decided.
func AnyWillRun(fcs []Forecast) (Will, []Forecast) {
	for _, w := range []Will{WillRun, CannotTell} {
		var out []Forecast
		for _, f := range fcs {
			if f.Will == w {
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			return w, out
		}
	}
	return WillNotRun, fcs
}

// valueAt is the value of key in the mapping n, or nil.
func valueAt(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// triggers reads on: (an event, a list of events, or a mapping of events
// to their filters) into the events and their filter nodes.
func triggers(on *yaml.Node) (map[string]*yaml.Node, bool) {
	out := map[string]*yaml.Node{}
	switch on.Kind {
	case yaml.ScalarNode:
		out[on.Value] = nil
	case yaml.SequenceNode:
		for _, e := range on.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, false
			}
			out[e.Value] = nil
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(on.Content); i += 2 {
			out[on.Content[i].Value] = on.Content[i+1]
		}
	default:
		return nil, false
	}
	return out, true
}

// stringList reads a list of strings, or one string, as GitHub accepts
// them in filters; a value holding an expression is not one.
func stringList(n *yaml.Node) ([]string, bool) {
	var out []string
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, it := range items {
		if it.Kind != yaml.ScalarNode || strings.Contains(it.Value, "${{") {
			return nil, false
		}
		out = append(out, it.Value)
	}
	return out, true
}

// filterMatch applies a list of GitHub filter patterns to s: the last
// pattern that matches decides, a pattern starting with ! excluding.
func filterMatch(patterns []string, s string) (bool, error) {
	in := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		re, err := filterPattern(strings.TrimPrefix(p, "!"))
		if err != nil {
			return false, err
		}
		if re.MatchString(s) {
			in = !neg
		}
	}
	return in, nil
}

// filterPattern compiles one of GitHub's filter patterns: * any run of
// characters but /, ** any run, ? and + make the character before them
// optional or repeated, [..] a character class, \ escapes.
func filterPattern(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?' || c == '+':
			if i == 0 {
				return nil, fmt.Errorf("pattern %q starts with %c, which applies to the character before it", p, c)
			}
			b.WriteByte(c)
		case c == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("pattern %q has an unclosed [", p)
			}
			b.WriteString(p[i : i+j+1])
			i += j
		case c == '\\' && i+1 < len(p):
			b.WriteString(regexp.QuoteMeta(p[i+1 : i+2]))
			i++
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %v", p, err)
	}
	return re, nil
}
