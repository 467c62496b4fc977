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

// processWorkflowRun reviews the run as GitHub describes it now (its
// workflow path, event, attempt and head repository decide whether it is
// trusted), with the PR the delivery named.
func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	repo := Repo{job.Owner, job.Repo}
	run, err := gh.GetWorkflowRun(ctx, repo, job.RunID)
	if err != nil {
		return err
	}
	if job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, repo, run)
}
