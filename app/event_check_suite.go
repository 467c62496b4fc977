package app

import (
	"context"

	jobs "github.com/planwarden/planwarden/app/job"
)

// check_suite rerequested: "Re-run all checks" on planwarden's suite. GitHub
// sends it to the App that owns the suite; review the commit's last plan
// run again, as for a re-run of the check itself.

func (a *App) processCheckSuite(ctx context.Context, gh reviewer, job Job) error {
	check, err := a.writer(gh, repoOf(job)).EnsureCheck(ctx, job.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	rerun := job
	rerun.CheckSuite, rerun.CheckRun = nil, &jobs.CheckRun{CheckRunID: check.ID, Sender: job.CheckSuite.Sender}
	return a.processCheckRun(ctx, gh, rerun)
}
