package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/review/reviewtest"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	if code != exitUsage && len(args) > 0 && args[0] == "review" && strings.Contains(strings.Join(args, " "), "--format json") {
		reviewtest.ValidateReport(t, strings.Join(args, " "), out.Bytes())
	}
	return code, out.String(), errb.String()
}

const example = "../../examples/plans/aks-gpu-typo.json"

func TestReviewJSONContract(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "", "review", "--format", "json", "--project", "gpu", "--environment", "prod", example)
	if code == exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"verdict", "totals", "projects"} {
		if _, ok := r[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	totals := r["totals"].(map[string]any)
	for _, k := range []string{"hourly_before", "hourly_after", "hourly_delta", "max_hourly_after"} {
		if _, ok := totals[k]; !ok {
			t.Errorf("totals lacks %q", k)
		}
	}
	p := r["projects"].([]any)[0].(map[string]any)
	if p["name"] != "gpu" || p["environment"] != "prod" || p["plan_file"] != example {
		t.Errorf("project = %v/%v/%v", p["name"], p["environment"], p["plan_file"])
	}
	for _, k := range []string{"summary", "changes", "cost", "findings"} {
		if p[k] == nil {
			t.Errorf("project %q is missing or null", k)
		}
	}
	summary := p["summary"].(map[string]any)
	for _, k := range []string{"create", "update", "delete", "replace", "move", "import", "read", "forget"} {
		if _, ok := summary[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	if summary["replace"] != 1.0 {
		t.Errorf("summary.replace = %v, want 1", summary["replace"])
	}
	cost := p["cost"].(map[string]any)
	if cost["currency"] != "USD" || cost["unpriced"] == nil {
		t.Errorf("cost = %v", cost)
	}
	var pool map[string]any
	for _, c := range p["changes"].([]any) {
		if c.(map[string]any)["address"] == "azurerm_kubernetes_cluster_node_pool.gpu" {
			pool = c.(map[string]any)
		}
	}
	if pool == nil {
		t.Fatal("node pool change missing")
	}
	for _, k := range []string{"address", "type", "action", "previous_address", "importing", "replace_paths", "reason", "sku_before", "sku_after", "hourly_before", "hourly_after"} {
		if _, ok := pool[k]; !ok {
			t.Errorf("change lacks %q", k)
		}
	}
	if pool["action"] != "replace" || pool["replace_paths"].([]any)[0] != "vm_size" {
		t.Errorf("pool change = %v", pool)
	}
}

func TestReviewUsageAndInputErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "plan.json")
	os.WriteFile(notJSON, []byte("{\n  oops"), 0o644)
	badConfig := filepath.Join(dir, "planwarden.yml")
	os.WriteFile(badConfig, []byte("version: 1\nrules:\n  gpu-sku-los: {severity: warn}\n"), 0o644)
	state := filepath.Join(dir, "state.json")
	os.WriteFile(state, []byte(`{"version":4,"serial":1,"lineage":"x","resources":[]}`), 0o644)
	tests := map[string]struct {
		args  []string
		stdin string
		says  []string
	}{
		"no plan":           {args: []string{"review"}, says: []string{"no plan file"}},
		"bad format":        {args: []string{"review", "--format", "yaml", example}, says: []string{"--format", "yaml"}},
		"unknown flag":      {args: []string{"review", "--nope", example}, says: []string{"nope"}},
		"missing file":      {args: []string{"review", filepath.Join(dir, "absent.json")}, says: []string{"absent.json", "no such file"}},
		"not JSON":          {args: []string{"review", notJSON}, says: []string{notJSON + ":2:3", "not JSON"}},
		"state not plan":    {args: []string{"review", state}, says: []string{state, "state file"}},
		"stdin not JSON":    {args: []string{"review", "-"}, stdin: "hello", says: []string{"<stdin>", "not JSON"}},
		"same name twice":   {args: []string{"review", example, example}, says: []string{"--project"}},
		"too many names":    {args: []string{"review", "--project", "a", "--project", "b", example}, says: []string{"2 --project"}},
		"unknown command":   {args: []string{"reveiw"}, says: []string{"unknown command"}},
		"environment count": {args: []string{"review", "--environment", "a", "--environment", "b", "--project", "x", "--project", "y", "--project", "z", example, example, example}, says: []string{"one --environment"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if out != "" {
				t.Errorf("stdout should be empty on error, got %q", out)
			}
			for _, s := range tc.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q does not say %q", stderr, s)
				}
			}
		})
	}
}

func TestReviewStdinAndSeveralPlans(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, string(data), "review", "--format", "json", "-", "../../examples/plans/bucket-lifecycle.json", "--project", "from-stdin")
	if code == exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Projects []struct {
			Name     string `json:"name"`
			PlanFile string `json:"plan_file"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Projects) != 2 || r.Projects[0].Name != "from-stdin" || r.Projects[1].Name != "bucket-lifecycle" {
		t.Errorf("projects = %+v", r.Projects)
	}
}

// TestRedactionEndToEnd reviews every corpus plan that carries sensitive
// marks and checks that no marked value reaches the JSON report or the
// markdown comment.
func TestRedactionEndToEnd(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../../shared/corpus/plans/*/*.json")
	files = append(files, "../../planparse/testdata/terraform-real.json")
	if len(files) < 2 {
		t.Skip("plan corpus not found at ../shared/corpus/plans; skipping the corpus redaction sweep")
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(data, []byte("true")) {
			continue
		}
		secrets := markedValues(data)
		if len(secrets) == 0 {
			continue
		}
		checked++
		for _, format := range []string{"json", "markdown"} {
			code, out, stderr := runCLI(t, "", "review", "--format", format, f)
			if code == exitUsage {
				continue // the broken files are covered elsewhere
			}
			_ = stderr
			for s := range secrets {
				if shows(out, s) {
					t.Errorf("%s (%s) shows a sensitive value %q", f, format, s)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no plan with sensitive marks found")
	}
	t.Logf("checked %d plans with sensitive values", checked)
}

// markedValues returns the string leaves (4+ chars) that any
// before_sensitive / after_sensitive / sensitive_values tree marks, in
// resource changes, drift, outputs, prior state and planned values.
func markedValues(data []byte) map[string]bool {
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := map[string]bool{}
	var visit func(n any)
	visit = func(n any) {
		switch t := n.(type) {
		case map[string]any:
			pairs := [][2]string{{"before", "before_sensitive"}, {"after", "after_sensitive"}, {"values", "sensitive_values"}}
			for _, p := range pairs {
				if v, ok := t[p[0]]; ok {
					collectMarked(v, t[p[1]], out)
				}
			}
			if s, ok := t["sensitive"].(bool); ok && s {
				collectMarked(t["value"], true, out)
			}
			for _, v := range t {
				visit(v)
			}
		case []any:
			for _, v := range t {
				visit(v)
			}
		}
	}
	visit(doc)
	return out
}

func collectMarked(v, mark any, out map[string]bool) {
	if b, ok := mark.(bool); ok && b {
		var all func(any)
		all = func(x any) {
			switch t := x.(type) {
			case string:
				if len(t) >= 4 {
					out[t] = true
				}
			case map[string]any:
				for _, e := range t {
					all(e)
				}
			case []any:
				for _, e := range t {
					all(e)
				}
			}
		}
		all(v)
		return
	}
	switch t := v.(type) {
	case map[string]any:
		m, _ := mark.(map[string]any)
		for k, e := range t {
			collectMarked(e, m[k], out)
		}
	case []any:
		l, _ := mark.([]any)
		for i, e := range t {
			if i < len(l) {
				collectMarked(e, l[i], out)
			}
		}
	}
}

// shows reports whether s appears in out as a whole value, not as part of
// a longer name (a sensitive computer_name "cycloid" inside the VM name
// "cycloid-sandbox-vm" is not that value).
func shows(out, s string) bool {
	word := func(b byte) bool {
		return b == '_' || b == '-' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(out[i:], s)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(s)
		if (start == 0 || !word(out[start-1])) && (end == len(out) || !word(out[end])) {
			return true
		}
		i = start + 1
	}
}
