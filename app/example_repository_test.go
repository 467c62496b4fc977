package app_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheExampleRepositoryGetsItsDocumentedVerdicts runs the App on the
// example repository as a team that copies it would have it: the base
// branch holds examples/planwarden.yml as .github/planwarden.yml and the
// workflows of examples/workflows under .github/workflows; a pull request
// changes one stack, and the workflow that plans it uploads what its steps
// write (the plan, or the what-if, and metadata naming the project). Each
// story gets the verdict the README and examples' TestStories document, in
// the environment the config declares, and never unknown-project or
// missing-plan.
func TestTheExampleRepositoryGetsItsDocumentedVerdicts(t *testing.T) {
	t.Parallel()
	cfg, err := os.ReadFile("../examples/planwarden.yml")
	if err != nil {
		t.Fatal(err)
	}
	workflows, err := filepath.Glob("../examples/workflows/*.yml")
	if err != nil || len(workflows) == 0 {
		t.Fatalf("no example workflows: %v", err)
	}
	const (
		plan   = ".github/workflows/planwarden-plan.yml"
		whatif = ".github/workflows/planwarden-whatif.yml"
	)
	tests := map[string]struct {
		project, changed, workflow, file, example string
		env, conclusion                           string
		rules                                     []string
	}{
		"the GPU pool typo blocks in prod": {"aks-gpu", "examples/aks-gpu/main.tf", plan, "plan.json", "aks-gpu-typo.json",
			"prod", "failure", []string{"gpu-pool-sku", "gpu-sku-loss"}},
		"the endpoint rename blocks in prod": {"sagemaker-endpoint", "examples/sagemaker-endpoint/main.tf", plan, "plan.json", "sagemaker-rename.json",
			"prod", "failure", []string{"endpoint-replacement"}},
		"the endpoint rename warns in staging": {"sagemaker-staging", "examples/sagemaker-staging/main.tf", plan, "plan.json", "sagemaker-rename.json",
			"staging", "neutral", []string{"endpoint-replacement"}},
		"the bucket lifecycle change passes": {"artifact-bucket", "examples/artifact-bucket/main.tf", plan, "plan.json", "bucket-lifecycle.json",
			"prod", "success", nil},
		"the Bicep GPU typo blocks": {"bicep-gpu-vm", "examples/bicep-gpu-vm/main.bicep", whatif, "whatif.json", "../bicep-gpu-vm/whatif-typo.json",
			"prod", "failure", []string{"gpu-pool-sku", "gpu-sku-loss"}},
		"the Bicep A100 VM without cost-center blocks": {"bicep-gpu-vm", "examples/bicep-gpu-vm/main.bicep", whatif, "whatif.json", "../bicep-gpu-vm/whatif-vm-no-tags.json",
			"prod", "failure", []string{"required-tags"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", string(cfg))
			for _, w := range workflows {
				data, err := os.ReadFile(w)
				if err != nil {
					t.Fatal(err)
				}
				h.gh.SetFile(owner, repo, "main", ".github/workflows/"+filepath.Base(w), data)
			}
			h.open(7, sha1, "", tc.changed)
			meta := entry{"planwarden-metadata.json", fmt.Appendf(nil, "{\"project\":%q}\n", tc.project)}
			h.run(runSpec{id: 501, sha: sha1, path: tc.workflow, artifacts: []artifact{
				{"planwarden-" + tc.project, zipOf(t, entry{tc.file, examplePlan(t, tc.example)}, meta)}}})
			c := h.wantCheck(sha1, tc.conclusion, name)
			body := h.reviewOf(7)
			if head := fmt.Sprintf("### Changes in `%s` (`%s`)", tc.project, tc.env); !strings.Contains(body, head) {
				t.Errorf("the comment has no %q:\n%s", head, body)
			}
			for _, r := range tc.rules {
				if !strings.Contains(body, "`"+r+"`") {
					t.Errorf("the comment does not name %s:\n%s", r, body)
				}
			}
			for _, unwanted := range []string{"unknown-project", "missing-plan", "plan-workflow-changed", "No `.github/planwarden.yml` was found"} {
				if strings.Contains(body, unwanted) || strings.Contains(c.Summary, unwanted) {
					t.Errorf("the review says %s: the example repository does not hold together:\n%s", unwanted, body)
				}
			}
		})
	}
}
