package trust

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// GitHub expressions (${{ ... }}) in a step: GitHub replaces them before
// the shell runs. matrix.x is expanded from the job's strategy.matrix,
// github.workspace and github.action_path to what they name; every other
// expression becomes a marker that makes the word holding it unknown.

// wsRoot stands for the repository's checkout (github.workspace,
// $GITHUB_WORKSPACE): absolute paths under it are repository paths. It is
// also where a container job mounts the workspace.
const wsRoot = "/github/workspace"

// exprMark starts the marker an expression planwarden cannot expand
// becomes; marks[n] is the expression of marker n.
const exprMark = "__planwarden_expr_"

func sync1[T any](f func() T) func() T { return sync.OnceValue(f) }

var (
	expression = sync1(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`) })
	matrixRef  = sync1(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}`) })
	markerRef  = sync1(func() *regexp.Regexp { return regexp.MustCompile(exprMark + `(\d+)__`) })
)

// expander expands the expressions of one step in one matrix combination.
type expander struct {
	matrix map[string]string
	// actionDir is a composite action's directory in the repository, root
	// where the job checks the repository out in the workspace.
	actionDir, root string
	// env is the step's env: (workflow's, job's and its own), whose
	// values ${{ env.X }} reads when they hold no expression.
	env map[string]string
}

// script expands the expressions of a run: block (or a script's text):
// the expanded text and the expressions its markers stand for.
func (x expander) script(s string) (string, []string) {
	var marks []string
	out := expression().ReplaceAllStringFunc(s, func(m string) string {
		e := strings.TrimSpace(expression().FindStringSubmatch(m)[1])
		if v, ok := x.known(e); ok {
			return v
		}
		marks = append(marks, m)
		return exprMark + strconv.Itoa(len(marks)-1) + "__"
	})
	return out, marks
}

// known is the value of an expression planwarden can expand.
func (x expander) known(e string) (string, bool) {
	switch {
	case e == "github.workspace":
		return wsRoot, true
	case e == "github.action_path" && x.actionDir != "":
		return path.Join(wsRoot, x.root, x.actionDir), true
	case strings.HasPrefix(e, "matrix."):
		v, ok := x.matrix[strings.TrimPrefix(e, "matrix.")]
		return v, ok
	case strings.HasPrefix(e, "env."):
		v, ok := x.env[strings.TrimPrefix(e, "env.")]
		return v, ok && !strings.Contains(v, "${{")
	}
	return "", false
}

// value expands an env: value; false when an expression is left.
func (x expander) value(s string) (string, bool) {
	out, marks := x.script(s)
	return out, len(marks) == 0
}

// path expands a working-directory into a repository directory ("" for
// the root; an absolute path for one outside the repository); false when
// an expression is left.
func (x expander) path(dir string) (string, bool) {
	v, ok := x.value(dir)
	if !ok || strings.ContainsAny(v, "$`") {
		return "", false
	}
	if strings.HasPrefix(v, wsRoot) {
		v = "." + strings.TrimPrefix(v, wsRoot)
	}
	if path.IsAbs(v) {
		return path.Clean(v), true
	}
	p := path.Clean(v)
	switch {
	case p == ".":
		return "", true
	case p == ".." || strings.HasPrefix(p, "../"):
		return "/" + p, true // outside the checkout
	}
	return p, true
}

// unmark puts the expressions back into a text holding markers.
func unmark(s string, marks []string) string {
	return markerRef().ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(markerRef().FindStringSubmatch(m)[1])
		if n < len(marks) {
			return marks[n]
		}
		return m
	})
}

// matrixValues are the values a job's strategy.matrix gives each key.
type matrixValues struct {
	values map[string][]string
	// opaque is set when the matrix is an expression (fromJSON of a job's
	// output): no key has values planwarden can read.
	opaque bool
}

// matrixOf reads a job's strategy.matrix: each key's values, from its
// list and from include entries (an over-approximation: every
// combination of the keys' values is read, exclude is ignored).
func matrixOf(job *yaml.Node) matrixValues {
	m := valueAt(valueAt(job, "strategy"), "matrix")
	if m == nil {
		return matrixValues{}
	}
	if m.Kind == yaml.ScalarNode {
		return matrixValues{opaque: true}
	}
	mv := matrixValues{values: map[string][]string{}}
	if m.Kind != yaml.MappingNode {
		return matrixValues{opaque: true}
	}
	add := func(k string, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "${{") {
			mv.values[k] = append(mv.values[k], exprMark+"matrix__")
			return
		}
		for _, have := range mv.values[k] {
			if have == v.Value {
				return
			}
		}
		mv.values[k] = append(mv.values[k], v.Value)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i].Value, m.Content[i+1]
		switch {
		case k == "exclude":
		case k == "include":
			if v.Kind != yaml.SequenceNode {
				return matrixValues{opaque: true}
			}
			for _, inc := range v.Content {
				if inc.Kind != yaml.MappingNode {
					return matrixValues{opaque: true}
				}
				for j := 0; j+1 < len(inc.Content); j += 2 {
					add(inc.Content[j].Value, inc.Content[j+1])
				}
			}
		case v.Kind == yaml.SequenceNode:
			for _, it := range v.Content {
				add(k, it)
			}
		default:
			add(k, v) // an expression, or a value GitHub refuses
		}
	}
	return mv
}

// matrixKeys lists the matrix keys a step's text and env refer to.
func matrixKeys(text string, env map[string]string) []string {
	seen := map[string]bool{}
	for _, t := range append([]string{text}, mapValues(env)...) {
		for _, m := range matrixRef().FindAllStringSubmatch(t, -1) {
			seen[m[1]] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// combos returns every combination of the keys' values (one empty
// combination without keys), or why they cannot be read.
func (mv matrixValues) combos(keys []string) ([]map[string]string, string) {
	out := []map[string]string{{}}
	for _, k := range keys {
		vals := mv.values[k]
		switch {
		case mv.opaque:
			return nil, "the job's strategy.matrix is an expression planwarden cannot read"
		case len(vals) == 0:
			return nil, fmt.Sprintf("the job's strategy.matrix gives matrix.%s no value", k)
		}
		for _, v := range vals {
			if strings.HasPrefix(v, exprMark) {
				return nil, fmt.Sprintf("the job's strategy.matrix gives matrix.%s a value planwarden cannot read", k)
			}
		}
		var next []map[string]string
		for _, c := range out {
			for _, v := range vals {
				n := make(map[string]string, len(c)+1)
				for ck, cv := range c {
					n[ck] = cv
				}
				n[k] = v
				next = append(next, n)
			}
		}
		if len(next) > maxMatrixRuns {
			return nil, fmt.Sprintf("the job's strategy.matrix has more than %d combinations", maxMatrixRuns)
		}
		out = next
	}
	return out, ""
}
