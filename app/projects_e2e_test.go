package app_test

import (
	"strings"
	"testing"
)

// One verdict per commit over all projects and plan workflows: the check
// concludes from the newest plan of every project (by run id, then
// attempt, among trusted runs), whichever run and plan workflow it comes
// from; a project's clean plan never hides another's findings. Each story
// against the fake GitHub: the base config, the PR's files, the runs and
// their artifacts.

const twoProjects = `version: 1
projects:
  - {name: gpu, directory: gpu, environment: prod}
  - {name: ml, directory: ml, environment: prod}
`

// wantNotInReview fails the test when the review comment says unwanted.
func (h *harness) wantNotInReview(unwanted, why string) {
	h.t.Helper()
	if body := h.reviewOf(7); strings.Contains(body, unwanted) {
		h.t.Errorf("%s (do not want %q):\n%s", why, unwanted, body)
	}
}

// wantProjectRow fails the test when the check's project table and the
// comment do not show the project's verdict and the run its plan is from.
func (h *harness) wantProjectRow(c string, project, verdict, run string) {
	h.t.Helper()
	row := "| `" + project + "` | `prod` | " + verdict + " | [run " + run + "]("
	for what, text := range map[string]string{"check summary": c, "comment": h.reviewOf(7)} {
		if !strings.Contains(text, row) {
			h.t.Errorf("the %s has no row %q:\n%s", what, row, text)
		}
	}
}

func TestPlanOfOneProjectKeepsTheOthersFindings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", twoProjects)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", ""), plan(t, "ml", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "failure", "ml's GPU typo")

	// `/plan gpu`: a workflow_dispatch run that plans gpu alone.
	h.run(runSpec{id: 502, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	c := h.wantCheck(sha1, "failure", "after /plan gpu, ml's typo still blocks")
	h.wantInReview("gpu-sku-loss", "ml's findings vanished when gpu alone was planned again")
	h.wantNotInReview("missing-plan", "ml's plan from run 501 still counts")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "502")
	h.wantProjectRow(c.Summary, "ml", "❌ fail", "501")
}

func TestANewerRunReplacesOnlyItsProjectsPlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", twoProjects)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "gpu", "aks-gpu-typo.json", ""), plan(t, "ml", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "failure", "gpu's GPU typo")

	// The typo is fixed and gpu alone is planned again.
	h.run(runSpec{id: 502, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	c := h.wantCheck(sha1, "success", "gpu's newer plan is clean and ml's plan of run 501 stays")
	h.wantNotInReview("gpu-sku-loss", "gpu's older plan was replaced")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "502")
	h.wantProjectRow(c.Summary, "ml", "✅ pass", "501")

	// ml planned again, now dangerous: only ml's plan changes.
	h.run(runSpec{id: 503, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "ml", "aks-gpu-typo.json", "")}})
	c = h.wantCheck(sha1, "failure", "ml's newer plan has a GPU typo")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "502")
	h.wantProjectRow(c.Summary, "ml", "❌ fail", "503")

	// A push starts over: the new head's plans alone count.
	h.push(sha2, "gpu/main.tf", "ml/main.tf")
	h.run(runSpec{id: 504, sha: sha2, artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha2, "failure", "the new head plans gpu only")
	h.wantInReview("missing-plan", "ml has no plan for the new head")
}

func TestAnOlderRunFinishingLateNeverReplacesANewerPlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", twoProjects)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	// `/plan gpu` finishes first ...
	h.run(runSpec{id: 502, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "failure", "ml has no plan yet")
	// ... then the push's run, older, with gpu's typo that 502 fixed.
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "gpu", "aks-gpu-typo.json", ""), plan(t, "ml", "bucket-lifecycle.json", "")}})
	c := h.wantCheck(sha1, "success", "gpu from run 502 (newer), ml from run 501 (its only plan)")
	h.wantNotInReview("gpu-sku-loss", "the older run's plan of gpu replaced the newer one")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "502")
	h.wantProjectRow(c.Summary, "ml", "✅ pass", "501")
	if c.ExternalID != "501" {
		t.Errorf("the check reports run %s, want 501", c.ExternalID)
	}

	// An even older run, with a plan of ml only, brings nothing newer: the
	// check stays as it is.
	before := h.latestCheck(sha1)
	h.run(runSpec{id: 500, sha: sha1, artifacts: []artifact{plan(t, "ml", "aks-gpu-typo.json", "")}})
	after := h.wantCheck(sha1, "success", "run 500 is older than every plan it holds")
	if after.ExternalID != "501" || after.Updates != before.Updates {
		t.Errorf("the check is of run %s, updated %d times, want run 501, updated %d times", after.ExternalID, after.Updates, before.Updates)
	}
	// A failed older run is not the newest of its workflow: it says nothing.
	h.run(runSpec{id: 499, sha: sha1, conclusion: "failure"})
	h.wantCheck(sha1, "success", "a failed run older than the newest of its workflow")
}

func TestAProjectsPlanFromAnotherPlanWorkflowCounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", `version: 1
plan_workflows: [.github/workflows/planwarden-plan.yml, .github/workflows/plan-ml.yml]
projects:
  - {name: gpu, directory: gpu, environment: prod}
  - {name: ml, directory: ml, environment: prod}
`)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	mlWorkflow := ".github/workflows/plan-ml.yml"
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	h.run(runSpec{id: 502, sha: sha1, path: mlWorkflow, artifacts: []artifact{plan(t, "ml", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "failure", "ml's GPU typo, planned by the second workflow")

	// The second workflow's next run plans gpu only: ml's plan stays.
	h.run(runSpec{id: 503, sha: sha1, path: mlWorkflow, event: "workflow_dispatch", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	c := h.wantCheck(sha1, "failure", "ml's typo of run 502 still blocks")
	h.wantInReview("gpu-sku-loss", "ml's findings vanished when its workflow planned gpu")
	h.wantNotInReview("missing-plan", "ml's plan of run 502 still counts")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "503")
	h.wantProjectRow(c.Summary, "ml", "❌ fail", "502")

	// The first workflow plans ml, clean: the newest plan of ml wins,
	// whichever workflow made it.
	h.run(runSpec{id: 504, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "ml", "bucket-lifecycle.json", "")}})
	c = h.wantCheck(sha1, "success", "ml's newest plan (run 504, the first workflow) is clean")
	h.wantProjectRow(c.Summary, "gpu", "✅ pass", "503")
	h.wantProjectRow(c.Summary, "ml", "✅ pass", "504")
}

// Only the newest run of a workflow speaks for it: an older run that
// uploaded nothing, or a plan that cannot be read, is skipped.
func TestAnOlderRunsMissingOrUnreadablePlanIsSkipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", twoProjects)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	garbage := artifact{"planwarden-gpu", zipOf(t, entry{"plan.json", []byte("{not a plan")})}
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{garbage, plan(t, "ml", "bucket-lifecycle.json", "")}})
	if c := h.wantCheck(sha1, "failure", "the newest run's plan cannot be read"); c.Title != "Unreadable plan" {
		t.Errorf("check title %q, want \"Unreadable plan\"", c.Title)
	}

	h.run(runSpec{id: 502, sha: sha1, event: "workflow_dispatch", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	c := h.wantCheck(sha1, "success", "gpu planned again by a newer run; ml's plan of run 501 is readable")
	h.wantInReview("cannot be read; a newer run of its workflow exists, so it is skipped", "the comment says run 501's unreadable plan was skipped")
	h.wantProjectRow(c.Summary, "ml", "✅ pass", "501")

	before := h.latestCheck(sha1)
	h.run(runSpec{id: 500, sha: sha1})
	if after := h.wantCheck(sha1, "success", "an older run without artifacts"); after.Updates != before.Updates {
		t.Errorf("the check was updated by run 500, which has no plan")
	}
}
