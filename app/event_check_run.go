package app

import (
	"context"

	"github.com/planwarden/planwarden/app/worklog"
)

// check_run rerequested: someone pressed "Re-run" on the planwarden check;
// review again from the same run's artifacts.

func (a *App) processCheckRun(ctx context.Context, gh reviewer, job Job) error {
	repo := repoOf(job)
	if job.CheckRun.MergeGroup {
		return a.carryOver(ctx, gh, job, "")
	}
	runID := job.CheckRun.RunID
	if runID == 0 && job.PR > 0 {
		st, ok, err := a.state.Read(ctx, job.GroupKey())
		if err != nil {
			return err
		}
		if ok && st.HeadSHA == job.HeadSHA {
			runID = st.RunID
		}
	}
	if runID == 0 && job.PR == 0 {
		worklog.From(ctx).Info("re-run requested on a check planwarden cannot place; left as it is")
		return nil
	}
	if runID == 0 {
		// No plan yet: the check keeps waiting.
		worklog.From(ctx).Info("re-run requested before any plan; still waiting")
		return gh.UpdateCheckRun(ctx, repo, CheckRun{
			ID: job.CheckRun.CheckRunID, Name: CheckName, HeadSHA: job.HeadSHA, Status: "in_progress",
			Title: "Waiting for plan", Summary: waitingSummary,
		})
	}
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	if len(run.PullRequests) == 0 && job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, repo, run)
}
