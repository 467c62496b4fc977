package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type cliProject struct {
	Name     string `json:"name"`
	PlanFile string `json:"plan_file"`
	Tool     string `json:"tool"`
	Findings []struct {
		Rule    string `json:"rule"`
		Address string `json:"address"`
	} `json:"findings"`
}

func reviewProjects(t *testing.T, stdin string, args ...string) (int, []cliProject, string) {
	t.Helper()
	code, out, stderr := runCLI(t, stdin, append([]string{"review", "--format", "json"}, args...)...)
	if code == exitUsage {
		return code, nil, stderr
	}
	var r struct {
		Projects []cliProject `json:"projects"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return code, r.Projects, stderr
}

func projectLines(ps []cliProject) []string {
	var out []string
	for _, p := range ps {
		l := p.Name + " (" + p.PlanFile + "):"
		for _, f := range p.Findings {
			l += " " + f.Rule
		}
		out = append(out, l)
	}
	return out
}

// Terragrunt's outputs: a run-all file is a project per unit, named by its
// directory when the output carries it, else by its order; a
// --json-out-dir tree is a project per plan file, named by its path.
func TestReviewTerragrunt(t *testing.T) {
	t.Parallel()
	aks, err := os.ReadFile("../../examples/terragrunt-gpu/json-out-dir/aks-gpu/tfplan.json")
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := os.ReadFile("../../examples/terragrunt-gpu/json-out-dir/artifacts/tfplan.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		stdin string
		args  []string
		want  []string
	}{
		"run --all with --log-format json": {args: []string{"../../examples/terragrunt-gpu/run-all-show.json"}, want: []string{
			"aks-gpu (../../examples/terragrunt-gpu/run-all-show.json#aks-gpu): gpu-pool-sku gpu-sku-loss",
			"artifacts (../../examples/terragrunt-gpu/run-all-show.json#artifacts):"}},
		"the --json-out-dir tree": {args: []string{"../../examples/terragrunt-gpu/json-out-dir"}, want: []string{
			"aks-gpu (../../examples/terragrunt-gpu/json-out-dir/aks-gpu/tfplan.json): gpu-pool-sku gpu-sku-loss",
			"artifacts (../../examples/terragrunt-gpu/json-out-dir/artifacts/tfplan.json):"}},
		"plans one per line on standard input, named by order": {stdin: string(aks) + string(bucket), args: []string{"-"}, want: []string{
			"stdin#1 (<stdin>#1): gpu-pool-sku gpu-sku-loss", "stdin#2 (<stdin>#2):"}},
		"--project names the units of a file by order": {stdin: string(aks) + string(bucket), args: []string{"--project", "live", "-"}, want: []string{
			"live#1 (<stdin>#1): gpu-pool-sku gpu-sku-loss", "live#2 (<stdin>#2):"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, ps, stderr := reviewProjects(t, tc.stdin, tc.args...)
			if code != exitFail {
				t.Fatalf("exit %d, want %d: %s", code, exitFail, stderr)
			}
			if got := projectLines(ps); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("projects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A config's projects[] may name a unit by its directory: its environment
// applies to that unit.
func TestReviewTerragruntUnitByDirectory(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "planwarden.yml")
	if err := os.WriteFile(cfg, []byte("version: 1\nprojects:\n  - name: gpu-cluster\n    directory: examples/terragrunt-gpu/live/prod/aks-gpu\n    environment: staging\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, stderr := runCLI(t, "", "review", "--format", "json", "--config", cfg, "../../examples/terragrunt-gpu/run-all-show.json")
	var r struct {
		Projects []struct {
			Name        string `json:"name"`
			Environment string `json:"environment"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s %s", err, out, stderr)
	}
	if len(r.Projects) != 2 || r.Projects[0].Name != "aks-gpu" || r.Projects[0].Environment != "staging" {
		t.Errorf("projects = %+v, want aks-gpu in staging (the config's project of its directory)", r.Projects)
	}
}

// A directory without plans, a unit that is no plan: refused, saying which.
func TestReviewTerragruntRefused(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	if code, _, stderr := reviewProjects(t, "", empty); code != exitUsage || !strings.Contains(stderr, "no *.json plan file under it") {
		t.Errorf("an empty directory: exit %d, %s", code, stderr)
	}
	bad := `{"format_version":"1.2","resource_changes":[]}` + "\n" + `{"format_version":"9.0","resource_changes":[]}` + "\n"
	if code, _, stderr := reviewProjects(t, bad, "-"); code != exitUsage || !strings.Contains(stderr, "<stdin>#2") || !strings.Contains(stderr, "unit 2 of 2") {
		t.Errorf("a bad second unit: exit %d, %s", code, stderr)
	}
	// The honest twin: both units readable, both reviewed.
	good := `{"format_version":"1.2","resource_changes":[]}` + "\n" + `{"format_version":"1.2","resource_changes":[]}` + "\n"
	if code, ps, stderr := reviewProjects(t, good, "-"); code != exitOK || len(ps) != 2 {
		t.Errorf("two empty units: exit %d, %d projects, %s", code, len(ps), stderr)
	}
}
