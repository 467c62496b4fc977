package app

import (
	"context"
)

// workflow_run completed: review the run's plan artifacts.

func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	e := job.WorkflowRun
	run := WorkflowRun{
		ID: e.RunID, Name: e.Name, Path: e.Path, HTMLURL: e.HTMLURL,
		HeadSHA: job.HeadSHA, HeadBranch: e.HeadBranch, Status: "completed", Conclusion: e.Conclusion,
		RunStartedAt: e.StartedAt,
	}
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, repoOf(job), run)
}
