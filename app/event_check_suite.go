package app

import (
	"context"

	"github.com/google/go-github/v66/github"
)

// check_suite rerequested: "Re-run all checks" on planwarden's suite. GitHub
// sends it to the App that owns the suite; review the commit's last plan
// run again, as for a re-run of the check itself.

func decodeCheckSuite(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.CheckSuiteEvent)
	if !ok || e.GetAction() != "rerequested" || e.GetCheckSuite().GetHeadSHA() == "" {
		return Job{}, false
	}
	cs := e.GetCheckSuite()
	job := Job{
		Action:         e.GetAction(),
		InstallationID: e.GetInstallation().GetID(),
		Owner:          e.GetRepo().GetOwner().GetLogin(),
		Repo:           e.GetRepo().GetName(),
		HeadSHA:        cs.GetHeadSHA(),
		HeadRef:        cs.GetHeadBranch(),
		Sender:         e.GetSender().GetLogin(),
	}
	for _, pr := range cs.PullRequests {
		job.PR = pr.GetNumber()
		break
	}
	return job, job.PR > 0
}

func (a *App) processCheckSuite(ctx context.Context, gh GitHub, job Job) error {
	check, err := a.ensureCheck(ctx, gh, Repo{job.Owner, job.Repo}, job.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	job.CheckRunID = check.ID
	return a.processCheckRun(ctx, gh, job)
}
