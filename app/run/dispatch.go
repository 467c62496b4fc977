package run

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// plan_source: dispatch. planwarden dispatches a pull request's plan on
// the default branch (dispatchPlan), and a run that says it is such a plan
// is believed only once trust says planwarden dispatched it
// (dispatchedRun).

// dispatchPlan dispatches the plan of pull request number at head when
// its base branch's config sets plan_source: dispatch: the first plan
// workflow, on the default branch, with the pull request's number, its
// head SHA and the correlation id naming both (trust.PlanDispatchID) as
// inputs. A fork's pull request is planned only after an allowed person's
// /plan.
func dispatchPlan(ctx context.Context, gh GitHub, repo port.Repo, number int, head string) error {
	d, ok := gh.(port.Dispatcher)
	if !ok {
		return nil
	}
	pr, err := gh.GetPullRequest(ctx, repo, number)
	if err != nil || pr.HeadSHA != head {
		return err
	}
	cfg, err := repoconfig.Base(ctx, gh, repo, pr.BaseRef)
	if err != nil || !cfg.Dispatches() || len(cfg.PlanWorkflowPaths()) == 0 {
		return nil // a bad config is the check's already
	}
	if !strings.EqualFold(pr.HeadRepo, repo.String()) {
		worklog.From(ctx).Info("a fork's pull request: its plan waits for an allowed person's /plan", "head_repo", pr.HeadRepo)
		return nil
	}
	branch, err := gh.DefaultBranch(ctx, repo)
	if err != nil {
		return err
	}
	wf := path.Base(cfg.PlanWorkflowPaths()[0])
	inputs := map[string]string{"pr": strconv.Itoa(number), "head_sha": head, "correlation_id": trust.PlanDispatchID(number, head)}
	if err := d.DispatchWorkflow(ctx, repo, wf, branch, inputs); err != nil {
		return fmt.Errorf("dispatch the plan of #%d: %w", number, err)
	}
	worklog.From(ctx).Info("plan dispatched on the default branch (plan_source: dispatch)", "workflow", wf, "branch", branch)
	return nil
}

// dispatchedRun asks GitHub what trust.DispatchedRun needs (planwarden's
// own account, the default branch) and whether claim, a run as GitHub
// describes it, is a plan planwarden dispatched for pr.
func dispatchedRun(ctx context.Context, gh GitHub, repo port.Repo, cfg *rules.Config, pr trust.PullRequest, claim port.WorkflowRun) (bool, string, error) {
	bot, err := gh.BotLogin(ctx)
	if err != nil {
		return false, "", err
	}
	branch, err := gh.DefaultBranch(ctx, repo)
	if err != nil {
		return false, "", err
	}
	ok, why := trust.DispatchedRun(cfg, pr, trust.Dispatched{Title: claim.DisplayTitle, Actor: claim.Actor, Branch: claim.HeadBranch,
		Event: claim.Event, Path: claim.Path, HeadRepo: claim.HeadRepo}, bot, branch)
	return ok, why, nil
}
