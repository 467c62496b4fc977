package app_test

import (
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// plan_source: dispatch: the plans that count run the default branch's
// plan workflow (planwarden dispatches it on the default branch, and
// trusts only its own dispatches there), so a pull request that changes
// the plan workflow file cannot change what made its plans: that change
// is no plan-workflow-changed finding, and the check concludes from the
// plan. What the workflow runs from a checkout (plan_workflow_inputs)
// still is one. The honest twin: the same change in the default mode,
// where the pull request's own version of the workflow made the plan,
// still blocks.
func TestGateDispatchModeRunsTheDefaultBranchsWorkflow(t *testing.T) {
	t.Parallel()
	const inputs = "plan_workflow_inputs: [ci/**]\n"
	for name, tc := range map[string]struct {
		dispatch bool
		files    []string
		plan     string
		want     string
		says     string // a rule the review names
		blocked  bool   // plan-workflow-changed is in the review
	}{
		"dispatch: the workflow changes, a clean plan passes": {dispatch: true,
			files: []string{"infra/main.tf", planWorkflow}, plan: "bucket-lifecycle.json", want: "success"},
		"dispatch: the workflow changes, a GPU typo fails on the plan": {dispatch: true,
			files: []string{"infra/main.tf", planWorkflow}, plan: "aks-gpu-typo.json", want: "failure", says: "gpu-sku-loss"},
		"dispatch: a plan_workflow_inputs file changes, it still blocks": {dispatch: true,
			files: []string{"infra/main.tf", "ci/plan.sh"}, plan: "bucket-lifecycle.json", want: "failure", blocked: true},
		"twin: push mode, the workflow changes, it still blocks": {
			files: []string{"infra/main.tf", planWorkflow}, plan: "bucket-lifecycle.json", want: "failure", blocked: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var h *harness
			arts := []artifact{plan(t, "stack", tc.plan, "")}
			if tc.dispatch {
				h = dispatchMode(t)
				h.config("main", dispatchConfig+inputs)
				h.open(7, sha1, "", tc.files...)
				if n := len(h.gh.Dispatches()); n != 1 {
					t.Fatalf("%d plan dispatches for the push, want 1", n)
				}
				h.dispatchedRun(504, sha1, githubtest.BotLogin, "main", arts)
			} else {
				h = newHarness(t)
				h.config("main", stackConfig("prod")+inputs)
				h.open(7, sha1, "", tc.files...)
				h.run(runSpec{id: 501, sha: sha1, artifacts: arts})
			}
			h.wantCheck(sha1, tc.want, name)
			if tc.says != "" {
				h.wantInReview(tc.says, "the review does not name the plan's finding")
			}
			if tc.blocked {
				h.wantInReview("plan-workflow-changed", "the review does not name the rule")
			} else {
				h.wantNotInReview("plan-workflow-changed", "the default branch's workflow made the plan")
			}
		})
	}
}
