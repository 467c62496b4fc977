package app

import (
	"context"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// workflow_run: a plan workflow's run, and the runs slash commands
// dispatched.
//
//	completed -> review the run's plan artifacts (run.Runner.Review): the
//	    run is read as GitHub describes it now (its workflow path, event,
//	    attempt and head repository decide whether it is trusted), for the
//	    pull request the delivery named, else the open pull request whose
//	    head it is; then the command thread the run belongs to, if any,
//	    follows it
//	requested, in_progress -> only the command thread follows the run
//	    (its reply says queued, running)
//
// A command thread's run carries the thread's id in its title (its
// run-name); the decoder queues a requested or in_progress delivery only
// for such a run.

// runTrigger is what a workflow_run delivery asks: the run, whether it
// finished (and so is reviewed), and the pull request the delivery named
// (0: found from the run's head).
type runTrigger struct {
	runID    int64
	finished bool
	pr       int
}

func (a *App) processWorkflowRun(ctx context.Context, gh port.GitHub, j job.Job) error {
	t := runTrigger{runID: j.WorkflowRun.RunID, finished: j.Action() == "completed", pr: j.PR}
	repo := repoOf(j)
	wr, err := gh.GetWorkflowRun(ctx, repo, t.runID)
	if err != nil {
		return err
	}
	if !t.finished {
		return a.commands.FollowRun(ctx, gh, repo, wr)
	}
	if t.pr > 0 {
		wr.PullRequests = []int{t.pr}
	}
	if err := a.run.Review(ctx, gh, repo, wr); err != nil {
		return err
	}
	return a.commands.FollowRun(ctx, gh, repo, wr)
}
