package app

import (
	"context"

	"github.com/planwarden/planwarden/app/run"
)

// check_suite rerequested: "Re-run all checks" on planwarden's suite.
// GitHub sends it to the App that owns the suite, with the suite's head
// commit and no check run: the commit's `planwarden` check (found, else
// created in progress) is reviewed again from the last plan run of the
// pull request, as for "Re-run" on the check itself (check_run).
//
//	rerequested -> the head's check, then the rerun stage of check_run
//
// A suite names no merge group: a merge queue's suite is re-run through
// its check (check_run), which carries the result over.

func (a *App) processCheckSuite(ctx context.Context, gh run.GitHub, j Job) error {
	check, err := a.writer(gh, repoOf(j)).EnsureCheck(ctx, j.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	// The check's own external id is not read here: the pull request's
	// state names the run the check last concluded from.
	return a.rerun(ctx, gh, j, rerunTrigger{checkRunID: check.ID})
}
