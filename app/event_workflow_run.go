package app

import (
	"context"
	"errors"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/trust"
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
//	    (a run of one of the default branch's drift_workflows on the
//	    default branch, trust.DriftRun, is a drift review instead:
//	    run.Runner.Drift keeps each project's drift issue)
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
	if _, _, command := job.ThreadOfTitle(wr.DisplayTitle); !command && t.pr == 0 && trust.MayBeDrift(wr.Event, len(wr.PullRequests)) {
		if drifted, err := a.drift(ctx, gh, repo, wr); drifted || err != nil {
			return err
		}
	}
	if t.pr > 0 {
		wr.PullRequests = []int{t.pr}
	}
	if err := a.run.Review(ctx, gh, repo, wr); err != nil {
		return err
	}
	return a.commands.FollowRun(ctx, gh, repo, wr)
}

// drift reviews wr as a drift run when the default branch's config lists
// its workflow under drift_workflows and it ran there (trust.DriftRun);
// drifted says it was one. A default branch's config that cannot be used
// decides nothing: the run goes on as any other.
func (a *App) drift(ctx context.Context, gh port.GitHub, repo port.Repo, wr port.WorkflowRun) (drifted bool, err error) {
	cfg, branch, err := repoconfig.Command(ctx, gh, repo)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		worklog.From(ctx).Info("drift not decided: the default branch's config cannot be used", "err", err)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ok, why := trust.DriftRun(cfg, repo.String(), branch, wr.HeadBranch, record.Run{ID: wr.ID, Path: wr.Path, Event: wr.Event, HeadRepo: wr.HeadRepo})
	if !ok {
		if cfg.IsDriftWorkflow(wr.Path) {
			worklog.From(ctx).Info("drift run ignored", "why", why)
		}
		return false, nil
	}
	issues, ok := gh.(port.Issues)
	if !ok {
		return true, errors.New("drift review: the GitHub client writes no issues")
	}
	return true, a.run.Drift(ctx, struct {
		port.GitHub
		port.Issues
	}{gh, issues}, repo, wr, cfg)
}
