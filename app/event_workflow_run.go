package app

import (
	"context"
)

// workflow_run completed: review the run's plan artifacts.

// processWorkflowRun reviews the run as GitHub describes it now (its
// workflow path, event, attempt and head repository decide whether it is
// trusted), with the PR the delivery named.
func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	repo := repoOf(job)
	run, err := gh.GetWorkflowRun(ctx, repo, job.WorkflowRun.RunID)
	if err != nil {
		return err
	}
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, repo, run)
}
