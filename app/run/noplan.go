package run

import (
	"context"
	"errors"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// Pull requests decided before any plan: no success without a plan, except
// for a pull request whose every changed file matches no_plan_paths
// (documentation by default: trust.NoPlanNeeded); and never pending
// forever: when no trusted plan workflow will run for the pull request
// (trust.PlanWorkflowForecast), the check fails at once saying what to do.
// Whether a file belongs to a project decides nothing here: a root module
// reads files outside its directory.

// decideWithoutPlan completes the check of a PR decided before any plan
// (withoutPlan); otherwise the check keeps waiting for the plan.
func (x *Runner) decideWithoutPlan(ctx context.Context, gh GitHub, repo port.Repo, number int, head string, check port.CheckRun) error {
	out, base, err := withoutPlan(ctx, gh, repo, number, head)
	if base != "" {
		// The base (and its config) the check is decided under, with what
		// it says: the reconciler decides it again when the pull request
		// is retargeted or the config changes.
		sha, serr := repoconfig.SHA(ctx, gh, repo, base)
		if serr != nil {
			return publish.AboutCheck(check, 0, serr)
		}
		if _, serr := x.state.Update(ctx, publish.KeyOf(repo, number), func(st *port.PRState) (bool, error) {
			if st.HeadSHA != head || st.RunID != 0 {
				return false, nil
			}
			st.BaseRef, st.ConfigSHA = base, sha
			if out != nil && err == nil {
				st.Conclusion, st.Title, st.Summary = out.Conclusion, out.Title, prose.Clamp(out.Summary, 4096)
			}
			return true, nil
		}); serr != nil && err == nil {
			return serr
		}
	}
	if err == nil && out == nil && base != "" {
		err = dispatchPlan(ctx, gh, repo, number, head)
	}
	if err != nil || out == nil {
		return publish.AboutCheck(check, 0, err)
	}
	return x.writer(gh, repo).Complete(ctx, check, *out, 0)
}

// withoutPlan is the check of a PR decided before any plan: success when
// every file it changes needs no plan, failure when no trusted plan
// workflow will run for it; nil while it waits for a plan. A bad config is
// a *publish.Final. base is the base it was decided under ("" when the
// pull request moved on).
func withoutPlan(ctx context.Context, gh port.PRReader, repo port.Repo, number int, head string) (_ *comment.Check, base string, err error) {
	pr, err := gh.GetPullRequest(ctx, repo, number)
	if err != nil {
		return nil, "", err
	}
	if pr.HeadSHA != head || pr.State != "open" {
		return nil, "", nil // moved on: the new head's event decides
	}
	out, err := withoutPlanUnder(ctx, gh, repo, pr)
	return out, pr.BaseRef, err
}

// withoutPlanUnder is withoutPlan for pr as GitHub has it now.
func withoutPlanUnder(ctx context.Context, gh port.PRReader, repo port.Repo, pr port.PullRequest) (*comment.Check, error) {
	number := pr.Number
	cfg, err := repoconfig.Base(ctx, gh, repo, pr.BaseRef)
	if err != nil {
		return nil, err
	}
	got, err := gh.ListPRChanges(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	changes := changesOf(got)
	if trust.NoPlanNeeded(cfg, changes) {
		worklog.From(ctx).Info("every changed file needs no plan (no_plan_paths): the check passes", "files", len(changes.Files))
		pass := comment.NoInfra(len(changes.Files), configFile(cfg), pr.BaseRef)
		return &pass, nil
	}
	fcs, err := forecasts(ctx, gh, repo, cfg, pr.BaseRef, changes)
	if err != nil {
		return nil, err
	}
	will, decided := trust.AnyWillRun(fcs)
	if will != trust.WillNotRun {
		worklog.From(ctx).Info("waiting for the trusted plan workflow", "will", will)
		return nil, nil
	}
	whys := make([]string, 0, len(decided))
	for _, f := range decided {
		whys = append(whys, f.Why)
	}
	worklog.From(ctx).Info("no trusted plan workflow will run for the pull request: the check fails", "workflows", len(decided))
	fail := comment.NoPlanComing(len(changes.Files), whys, configFile(cfg), pr.BaseRef)
	return &fail, nil
}

// forecasts reads each plan workflow of cfg from base and says whether a
// run that counts will come for a push of changes (trust.PlanWorkflowForecast).
func forecasts(ctx context.Context, gh port.PRReader, repo port.Repo, cfg *rules.Config, base string, changes trust.Changes) ([]trust.Forecast, error) {
	var out []trust.Forecast
	for _, wf := range cfg.PlanWorkflowPaths() {
		// A workflow file the base lacks is one planwarden cannot read:
		// the check waits (CannotTell), it never passes.
		data, err := gh.GetFile(ctx, repo, wf, base)
		if errors.Is(err, port.ErrNotFound) {
			data, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, trust.PlanWorkflowForecast(cfg, wf, data, base, changes, ""))
	}
	return out, nil
}

// reopenIfStricter is a PR on a commit whose check already passed without
// a plan, decided for another PR of the commit (another base): when this
// PR's base would not pass it too, a new check run waits for the plan (or
// says why none will come, or fails on a bad config).
func (x *Runner) reopenIfStricter(ctx context.Context, gh GitHub, repo port.Repo, number int, head string) error {
	out, _, err := withoutPlan(ctx, gh, repo, number, head)
	var bad *publish.Final
	if err != nil && !errors.As(err, &bad) || out != nil && out.Conclusion == "success" {
		return err
	}
	worklog.From(ctx).Info("the commit passed without a plan for another pull request; this one's base needs one")
	check, cerr := gh.CreateCheckRun(ctx, repo, port.CheckRun{Name: port.CheckName, HeadSHA: head, Status: "in_progress", Title: comment.WaitingTitle, Summary: comment.WaitingSummary})
	if cerr != nil {
		return cerr
	}
	if out != nil && err == nil {
		return x.writer(gh, repo).Complete(ctx, check, *out, 0)
	}
	return publish.AboutCheck(check, 0, err)
}
