package app_test

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

func terragruntFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../examples/terragrunt-gpu/" + name)
	if err != nil {
		t.Skipf("Terragrunt example %s: %v", name, err)
	}
	return data
}

// Terragrunt's outputs in one artifact: a run --all file is a project per
// unit (named by its directory), and a --json-out-dir tree a project per
// plan file (named by its directory); the unit with the GPU pool typo
// blocks as the Terraform plan does.
func TestTerragruntArtifactEndToEnd(t *testing.T) {
	t.Parallel()
	tests := map[string][]entry{
		"run --all output": {{"run-all-show.json", terragruntFile(t, "run-all-show.json")}},
		"a --json-out-dir tree": {{"plans/aks-gpu/tfplan.json", terragruntFile(t, "json-out-dir/aks-gpu/tfplan.json")},
			{"plans/artifacts/tfplan.json", terragruntFile(t, "json-out-dir/artifacts/tfplan.json")}},
	}
	for name, entries := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(7, sha1)
			if code := h.planRun("run-1", 501, 7, sha1, zipOf(t, entries...), runOpt{}); code != http.StatusAccepted {
				t.Fatalf("workflow_run delivery: status %d", code)
			}
			if check := h.planwardenCheck(sha1); check.Status != "completed" || check.Conclusion != "failure" {
				t.Fatalf("check %s/%s %q, want completed/failure (the GPU pool typo blocks)", check.Status, check.Conclusion, check.Title)
			}
			comments := h.gh.Comments(owner, repo, 7)
			if len(comments) != 1 {
				t.Fatalf("%d comments, want 1", len(comments))
			}
			body := comments[0].Body
			dir := map[string]string{"run --all output": "", "a --json-out-dir tree": "plans/"}[name]
			for _, want := range []string{
				"`gpu-pool-sku` on `azurerm_kubernetes_cluster_node_pool.gpu` in `" + dir + "aks-gpu`",
				"### Changes in `" + dir + "aks-gpu` (",
				"### Changes in `" + dir + "artifacts` (",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("the comment lacks %q:\n%s", want, body)
				}
			}
		})
	}
}
