package app

import (
	"context"

	"github.com/google/go-github/v66/github"
)

// workflow_run completed: review the run's plan artifacts. Any workflow_run
// (requested, in_progress, completed) whose title carries a command
// thread's id also updates that thread's reply.

func decodeWorkflowRun(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.WorkflowRunEvent)
	if !ok || e.GetWorkflowRun().GetID() == 0 {
		return Job{}, false
	}
	run := e.GetWorkflowRun()
	// A run that is not completed yet matters only to the command thread
	// whose id its title carries (threads.go).
	_, threadPR, isThread := threadOfRun(run.GetDisplayTitle())
	switch e.GetAction() {
	case "completed":
	case "requested", "in_progress":
		if !isThread {
			return Job{}, false
		}
	default:
		return Job{}, false
	}
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
			"run_title":     clamp(run.GetDisplayTitle(), 256),
			"run_event":     run.GetEvent(),
			"run_status":    run.GetStatus(),
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
	if job.PR == 0 && isThread && e.GetAction() != "completed" {
		job.PR = threadPR // group with the PR's other work
	}
	return job, true
}

func (a *App) processWorkflowRun(ctx context.Context, gh GitHub, job Job) error {
	run := WorkflowRun{
		ID: job.RunID, Name: job.Extra["workflow_name"], Path: job.Extra["workflow_path"], HTMLURL: job.Extra["run_url"],
		HeadSHA: job.HeadSHA, HeadBranch: job.HeadRef, Status: "completed", Conclusion: job.RunConclusion,
		RunStartedAt: parseTime(job.Extra["run_started"]),
	}
	run.DisplayTitle, run.Event, run.Status = job.Extra["run_title"], job.Extra["run_event"], orDefault(job.Extra["run_status"], "completed")
	repo := Repo{job.Owner, job.Repo}
	if job.Action != "completed" {
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
