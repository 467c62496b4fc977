package app

import (
	"context"
)

// workflow_run completed: review the run's plan artifacts. Any workflow_run
// (requested, in_progress, completed) whose title carries a command
// thread's id also updates that thread's reply (threads.go).

// processWorkflowRun reviews the run as GitHub describes it now (its
// workflow path, event, attempt and head repository decide whether it is
// trusted), with the PR the delivery named, and then lets the command
// thread the run belongs to, if any, follow it.
func (a *App) processWorkflowRun(ctx context.Context, gh reviewer, job Job) error {
	repo := repoOf(job)
	run, err := gh.GetWorkflowRun(ctx, repo, job.WorkflowRun.RunID)
	if err != nil {
		return err
	}
	if job.Action() != "completed" {
		return a.trackRun(ctx, gh, repo, run)
	}
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	if err := a.reviewRun(ctx, gh, repo, run); err != nil {
		return err
	}
	return a.trackRun(ctx, gh, repo, run)
}
