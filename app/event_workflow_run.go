package app

import (
	"context"
)

// workflow_run completed: review the run's plan artifacts. Any workflow_run
// (requested, in_progress, completed) whose title carries a command
// thread's id also updates that thread's reply (threads.go).

func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	e := job.WorkflowRun
	run := WorkflowRun{
		ID: e.RunID, Name: e.Name, Path: e.Path, HTMLURL: e.HTMLURL, DisplayTitle: e.DisplayTitle, Event: e.Event,
		HeadSHA: job.HeadSHA, HeadBranch: e.HeadBranch, Status: orDefault(e.Status, "completed"), Conclusion: e.Conclusion,
		RunStartedAt: e.StartedAt,
	}
	repo := repoOf(job)
	if job.Action() != "completed" {
		return a.trackRun(ctx, gh, repo, run)
	}
	run.Status = "completed"
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	if err := a.reviewRun(ctx, gh, repo, run); err != nil {
		return err
	}
	return a.trackRun(ctx, gh, repo, run)
}
