package app

import (
	"context"

	"github.com/planwarden/planwarden/app/run"
)

// check_run rerequested: someone pressed "Re-run" on a planwarden check.
//
//	the `planwarden` check of a pull request's head -> review again from
//	    the run the check last concluded from (its external id, else the
//	    run the pull request's state names); before any plan, the check
//	    keeps waiting (run.Runner.Rerun)
//	the check of a merge group's commit -> carry the pull request's last
//	    result over again (publish.Writer.CarryOver), as merge_group does
//
// The decoder (app/github) reads the external id: the workflow run a
// check concluded from, or the merge group's pull request.

// rerunTrigger is what a "Re-run" asks: a merge group's check to carry a
// result over, or a pull request's check to be reviewed again.
type rerunTrigger struct {
	mergeGroup bool
	checkRunID int64
	runID      int64 // 0: the run the state names
}

func (a *App) processCheckRun(ctx context.Context, gh run.GitHub, j Job) error {
	e := j.CheckRun
	t := rerunTrigger{mergeGroup: e.MergeGroup, checkRunID: e.CheckRunID, runID: e.RunID}
	return a.rerun(ctx, gh, j, t)
}

// rerun is the shared stage of check_run and check_suite.
func (a *App) rerun(ctx context.Context, gh run.GitHub, j Job, t rerunTrigger) error {
	if t.mergeGroup {
		return a.writer(gh, repoOf(j)).CarryOver(ctx, a.state, j.PR, j.HeadSHA, "")
	}
	return a.run.Rerun(ctx, gh, repoOf(j), j.PR, j.HeadSHA, t.checkRunID, t.runID)
}
