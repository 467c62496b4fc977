package app_test

import (
	"net/http"
	"strings"
	"testing"
)

// A Bicep project's what-if result in a planwarden* artifact is reviewed
// like a plan, beside a Terraform plan in the same artifact: the GPU pool
// typo blocks, and the comment shows both projects.
func TestWhatIfArtifactEndToEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	meta := entry{"planwarden-metadata.json", []byte(`{"plans":{"whatif.json":{"project":"bicep-gpu-vm"},"plan.json":{"project":"bucket"}}}`)}
	zipData := zipOf(t, entry{"whatif.json", examplePlan(t, "../bicep-gpu-vm/whatif-typo.json")},
		entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}, meta)
	if code := h.planRun("run-1", 501, 7, sha1, zipData, runOpt{}); code != http.StatusAccepted {
		t.Fatalf("workflow_run delivery: status %d", code)
	}
	check := h.planwardenCheck(sha1)
	if check.Status != "completed" || check.Conclusion != "failure" {
		t.Fatalf("check %s/%s %q, want completed/failure (the GPU pool typo blocks)", check.Status, check.Conclusion, check.Title)
	}
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 {
		t.Fatalf("%d comments, want 1", len(comments))
	}
	body := comments[0].Body
	for _, want := range []string{
		"`gpu-pool-sku` on `Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu` in `bicep-gpu-vm`",
		"### Changes in `bicep-gpu-vm` (",
		"### Changes in `bucket` (",
		"**Not evaluated by the what-if**",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
}
