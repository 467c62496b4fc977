package app_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/planparse"
)

func TestAPlanOverTheWorkersMemoryBudgetFailsItsCheckClearly(t *testing.T) {
	t.Parallel()
	const sha = "3333333333333333333333333333333333333333"
	const budget = 24<<20 + planparse.DecodeBound
	h := newHarness(t, func(c *app.Config) { c.MemoryBudget = budget })
	h.openPR(8, sha)
	// 3 MiB of plan: 3 × 3 MiB to review, plus the job, is over 24 MiB
	// beside what its blobs may decode.
	plan := append(examplePlan(t, "a100-scale-out.json"), bytes.Repeat([]byte(" "), 3<<20)...)
	h.planRun("d-big", 91, 8, sha, zipOf(t, entry{"plan.json", plan}), runOpt{})
	c := h.planwardenCheck(sha)
	if c.Status != "completed" || c.Conclusion != "failure" || c.Title != "Plan too large for the worker" {
		t.Fatalf("check: %s/%s %q; want completed as failure, titled that the plan is too large for the worker", c.Status, c.Conclusion, c.Title)
	}
	for _, want := range []string{fmt.Sprintf("more than this worker's budget of %d MiB", budget>>20), "Split the plan", "PLANWARDEN_MEMORY_BUDGET_MB"} {
		if !strings.Contains(c.Summary, want) {
			t.Errorf("summary %q lacks %q", c.Summary, want)
		}
	}

	// The same plan fits a worker with more memory.
	h2 := newHarness(t, func(c *app.Config) { c.MemoryBudget = 64<<20 + planparse.DecodeBound })
	h2.openPR(8, sha)
	h2.planRun("d-big", 91, 8, sha, zipOf(t, entry{"plan.json", plan}), runOpt{})
	if c := h2.planwardenCheck(sha); c.Title == "Plan too large for the worker" {
		t.Errorf("a 64 MiB worker refused the plan too: %q", c.Summary)
	}
}
