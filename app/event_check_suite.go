package app

import (
	"context"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/comment"
)

// check_suite rerequested: "Re-run all checks" on planwarden's suite.
// GitHub sends it to the App that owns the suite, with the suite's head
// commit and no check run: the commit's `planwarden` check (found, else
// created in progress) is reviewed again from the last plan run of the
// pull request, as for "Re-run" on the check itself (check_run).
//
//	rerequested -> the head's check, then the rerun stage of check_run
//
// What the job carries (app/github decodes it): the suite's head commit
// and branch, the first pull request the suite names, who asked. A suite
// that names no pull request is no job: there is no review to make again.
// A suite names no merge group either: a merge queue's check is re-run on
// its own (check_run), which carries the result over.

// suiteTrigger is what "Re-run all checks" asks: the review of the pull
// request's head made again, on the check of that commit.
type suiteTrigger struct {
	head string // the suite's head commit
	pr   int    // the pull request whose last plan run is reviewed
}

// suiteOf maps a check_suite job onto its trigger.
func suiteOf(j job.Job) suiteTrigger { return suiteTrigger{head: j.HeadSHA, pr: j.PR} }

// rerun is the check_run trigger of the suite's `planwarden` check: no
// run id, since the check's own external id is not read here (the pull
// request's state names the run the check last concluded from), and never
// a merge group's check.
func (t suiteTrigger) rerun(check port.CheckRun) rerunTrigger {
	return rerunTrigger{checkRunID: check.ID}
}

func (a *App) processCheckSuite(ctx context.Context, gh run.GitHub, j job.Job) error {
	t := suiteOf(j)
	// The suite's check is the latest `planwarden` check run of its head
	// (found by name), or one made in progress now, so that the review
	// concludes it.
	check, err := a.writer(gh, repoOf(j)).EnsureCheck(ctx, t.head, comment.ReviewingTitle)
	if err != nil {
		return err
	}
	return a.rerun(ctx, gh, j, t.rerun(check))
}
