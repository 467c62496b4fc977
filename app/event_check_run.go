package app

import (
	"context"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/run"
)

// check_run rerequested: someone pressed "Re-run" on a planwarden check.
//
//	the `planwarden` check (or planwarden/<project>) of a pull request's
//	    head -> review again from the run the check last concluded from
//	    (its external id, else the run the pull request's state names);
//	    before any plan, the check keeps waiting (run.Runner.Rerun)
//	the check of a merge group's commit -> carry the pull request's last
//	    result over again (publish.Writer.CarryOver), as merge_group does
//
// What the job carries (app/github decodes it): the check run's id and
// head commit; the workflow run the check concluded from (the check's
// external id, when it is a run id); the pull request the check names,
// else, for a merge group's check, the one its external id names
// (port.MergeGroupExternalID); who pressed Re-run. A check of another
// App, or any other action, is no job.

// rerunTrigger is what a "Re-run" asks: a merge group's check to carry a
// result over, or a pull request's check to be reviewed again.
type rerunTrigger struct {
	// mergeGroup: the check is a merge group's, whose result is the pull
	// request's.
	mergeGroup bool
	// checkRunID is the check that was re-run, runID the workflow run it
	// concluded from (0: the run the pull request's state names).
	checkRunID int64
	runID      int64
}

// rerunOf maps a check_run job onto its trigger.
func rerunOf(j job.Job) rerunTrigger {
	e := j.CheckRun
	return rerunTrigger{mergeGroup: e.MergeGroup, checkRunID: e.CheckRunID, runID: e.RunID}
}

func (a *App) processCheckRun(ctx context.Context, gh run.GitHub, j job.Job) error {
	return a.rerun(ctx, gh, j, rerunOf(j))
}

// rerun is the shared stage of check_run and check_suite: the result
// carried over again, or the review made again, on the job's head commit
// for its pull request.
func (a *App) rerun(ctx context.Context, gh run.GitHub, j job.Job, t rerunTrigger) error {
	if t.mergeGroup {
		// The pull request's current base: a result decided under
		// another is not carried over.
		base := ""
		if j.PR > 0 {
			pr, err := gh.GetPullRequest(ctx, repoOf(j), j.PR)
			if err != nil {
				return err
			}
			base = pr.BaseRef
		}
		return a.writer(gh, repoOf(j)).CarryOver(ctx, a.state, j.PR, j.HeadSHA, "", base)
	}
	return a.run.Rerun(ctx, gh, repoOf(j), j.PR, j.HeadSHA, t.checkRunID, t.runID)
}
