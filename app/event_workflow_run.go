package app

import (
	"context"

	"github.com/google/go-github/v66/github"
)

// workflow_run completed: review the run's plan artifacts.

func decodeWorkflowRun(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.WorkflowRunEvent)
	if !ok || e.GetAction() != "completed" || e.GetWorkflowRun().GetID() == 0 {
		return Job{}, false
	}
	run := e.GetWorkflowRun()
	job := Job{
		Action:         e.GetAction(),
		InstallationID: e.GetInstallation().GetID(),
		Owner:          e.GetRepo().GetOwner().GetLogin(),
		Repo:           e.GetRepo().GetName(),
		HeadSHA:        run.GetHeadSHA(),
		HeadRef:        run.GetHeadBranch(),
		RunID:          run.GetID(),
		RunConclusion:  run.GetConclusion(),
		Extra: map[string]string{
			"workflow_name": run.GetName(),
			"workflow_path": run.GetPath(),
			"run_url":       run.GetHTMLURL(),
			"run_started":   run.GetRunStartedAt().Format(timeFormat),
		},
	}
	// A run may list several PRs (one branch, several bases): prefer the
	// one whose head is the run's head.
	for _, pr := range run.PullRequests {
		if job.PR == 0 || pr.GetHead().GetSHA() == run.GetHeadSHA() {
			job.PR = pr.GetNumber()
		}
		if pr.GetHead().GetSHA() == run.GetHeadSHA() {
			break
		}
	}
	return job, true
}

func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	run := WorkflowRun{
		ID: job.RunID, Name: job.Extra["workflow_name"], Path: job.Extra["workflow_path"], HTMLURL: job.Extra["run_url"],
		HeadSHA: job.HeadSHA, HeadBranch: job.HeadRef, Status: "completed", Conclusion: job.RunConclusion,
		RunStartedAt: parseTime(job.Extra["run_started"]),
	}
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, Repo{job.Owner, job.Repo}, run)
}
