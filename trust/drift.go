package trust

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// DriftEvents are the events whose runs of a drift workflow count: its
// schedule, a run started by hand, and a push to the default branch. Each
// runs the default branch's own workflow and code.
var DriftEvents = []string{"schedule", "workflow_dispatch", "push"}

// MayBeDrift reports whether a run with no pull request, triggered by
// event, can be a drift run (the worker then reads the default branch's
// config to decide with DriftRun).
func MayBeDrift(event string, pullRequests int) bool {
	return pullRequests == 0 && slices.Contains(DriftEvents, event)
}

// DriftRun reports whether the artifacts of run are a drift review's: a
// run of one of the default branch's drift_workflows (by path, exactly),
// triggered by one of DriftEvents, on the default branch, of a commit of
// the repository itself (not a fork); when not, why, in a sentence for the
// log.
func DriftRun(cfg *rules.Config, repo, defaultBranch, headBranch string, run record.Run) (bool, string) {
	switch {
	case !cfg.IsDriftWorkflow(run.Path):
		return false, fmt.Sprintf("run %d is of %s, which is not a drift workflow (drift_workflows: %s)",
			run.ID, orUnknown(run.Path), orUnknown(strings.Join(cfg.DriftWorkflows, ", ")))
	case !slices.Contains(DriftEvents, run.Event):
		return false, fmt.Sprintf("run %d was triggered by %s; only %s runs review drift",
			run.ID, orUnknown(run.Event), strings.Join(DriftEvents, ", "))
	case headBranch != defaultBranch:
		return false, fmt.Sprintf("run %d ran on the branch %s, not on the default branch %s", run.ID, orUnknown(headBranch), defaultBranch)
	case !strings.EqualFold(run.HeadRepo, repo):
		return false, fmt.Sprintf("run %d ran on a commit of %s, not of %s", run.ID, orUnknown(run.HeadRepo), repo)
	}
	return true, ""
}
