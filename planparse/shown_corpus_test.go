package planparse

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// corpusKind sorts an attribute value for the figures of docs/secrets.md:
// the facts a reviewer reads (SKU, count, region, tag, name, id), values
// under command and environment names, documents, text of several lines,
// other strings, and the rest (numbers, booleans, lists, maps).
func corpusKind(path string, x any) string {
	steps := pathSteps(path)
	for i, s := range steps {
		if dataMaps[s] && i < len(steps)-1 || s == "tags" || s == "labels" {
			return "tag"
		}
	}
	last := ""
	for i := len(steps) - 1; i >= 0 && last == ""; i-- {
		if steps[i] != indexStep {
			last = secret.SnakeName(steps[i])
		}
	}
	switch {
	case strings.Contains(last, "instance_type") || strings.HasSuffix(last, "vm_size") || last == "machine_type" ||
		last == "sku_name" || last == "node_type" || last == "instance_class" || (last == "sku" || last == "size") && len(steps) == 1:
		return "sku"
	case last == "count" || strings.HasSuffix(last, "_count") || strings.HasSuffix(last, "_size") && !strings.Contains(last, "vm") ||
		strings.HasSuffix(last, "_capacity") || last == "capacity" || last == "replicas":
		return "count"
	case last == "region" || last == "location" || strings.Contains(last, "zone"):
		return "region"
	case last == "name" || strings.HasSuffix(last, "_name"):
		return "name"
	case last == "id" || strings.HasSuffix(last, "_id") || strings.HasSuffix(last, "_ids") || last == "arn" || strings.HasSuffix(last, "_arn"):
		return "id"
	case textPlace(steps):
		return "command or environment"
	}
	s, ok := x.(string)
	switch {
	case !ok:
		return "number, bool, list, map"
	case func() bool { _, doc := parseDocument(s, 0); return doc }():
		return "JSON document"
	case strings.Contains(s, "\n"):
		return "text of several lines"
	}
	return "other string"
}

// TestShownCorpusFigures counts, over every change of the plan corpus,
// the attribute values the comment's diffs show and hide: hidden before
// (marked or found secret) and hidden after the allow-list (also text,
// summarized), by kind; `go test ./planparse -run TestShownCorpusFigures
// -v` prints the table docs/secrets.md quotes. No SKU, count or region of
// the corpus is hidden by the allow-list.
func TestShownCorpusFigures(t *testing.T) {
	t.Parallel()
	type tally struct{ values, before, after, docs int }
	by := map[string]*tally{}
	w := NewViewer([]byte("figures"), nil)
	plans := 0
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(filepath.Base(f), data)
		if err != nil {
			continue
		}
		plans++
		for _, c := range p.Changes {
			if c.Action == ActionNoop {
				continue
			}
			for _, d := range c.Diff() {
				for _, side := range []Value{d.Before, d.After} {
					x := side.tree()
					if x == nil {
						continue
					}
					if _, ok := x.(unknown); ok {
						continue
					}
					k := corpusKind(d.Path, x)
					tl := by[k]
					if tl == nil {
						tl = &tally{}
						by[k] = tl
					}
					tl.values++
					shown := w.shown(pathSteps(d.Path), x)
					old := side.Display()
					if strings.Contains(old, SensitiveText) {
						tl.before++
					}
					if strings.Contains(shown.Text, SensitiveText) || strings.Contains(shown.Text, "(text, ") {
						tl.after++
					}
					if s, ok := x.(string); ok && !shown.Whole && shown.Text != s && !strings.Contains(shown.Text, "(text, ") {
						tl.docs++
					}
					if (k == "sku" || k == "count" || k == "region") && strings.Contains(shown.Text, "(text, ") {
						t.Errorf("%s %s: the %s %q is summarized", filepath.Base(f), c.Address, k, old)
					}
				}
			}
		}
	}
	kinds := make([]string, 0, len(by))
	for k := range by {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "%d corpus plans; attribute values of the comment's diffs (each side of each change):\n", plans)
	fmt.Fprintf(&b, "| kind | values | hidden before | hidden after | newly hidden | documents shown as structure |\n|---|---:|---:|---:|---:|---:|\n")
	var sum tally
	for _, k := range kinds {
		tl := by[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", k, tl.values, tl.before, tl.after, tl.after-tl.before, tl.docs)
		sum.values, sum.before, sum.after, sum.docs = sum.values+tl.values, sum.before+tl.before, sum.after+tl.after, sum.docs+tl.docs
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d |\n", sum.values, sum.before, sum.after, sum.after-sum.before, sum.docs)
	t.Log("\n" + b.String())
}
