package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/trust"
)

// Pull requests that need no plan, and base changes.

// noInfraTitle is the check's title for a PR that changes no project.
const noInfraTitle = "No infrastructure changes"

// decideWithoutPlan completes the check of a PR whose changed files belong
// to no declared project (projects[].paths of the base branch's config) and
// change no plan workflow: no plan will come, so none is waited for. With
// no projects declared, or when GitHub lists only part of the files, the
// check keeps waiting for the plan.
func (a *App) decideWithoutPlan(ctx context.Context, gh reviewer, repo Repo, number int, head string, check CheckRun) error {
	pass, err := a.withoutPlan(ctx, gh, repo, number, head)
	if err != nil || pass == nil {
		return publish.AboutCheck(check, 0, err)
	}
	return a.writer(gh, repo).Complete(ctx, check, *pass, 0)
}

// withoutPlan is the check's success when the PR needs no plan (no
// infrastructure changes), nil when it waits for a plan; a bad config is
// a *publish.Final.
func (a *App) withoutPlan(ctx context.Context, gh PRReader, repo Repo, number int, head string) (*publish.Outcome, error) {
	pr, err := gh.GetPullRequest(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	if pr.HeadSHA != head || pr.State != "open" {
		return nil, nil // moved on: the new head's event decides
	}
	cfg, err := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if err != nil || len(cfg.Projects) == 0 {
		return nil, err
	}
	files, complete, err := gh.ListPRFiles(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	changes := trust.Changes{Files: files, Complete: complete}
	if touched, any := trust.Touched(cfg, changes); any {
		worklog.From(ctx).Info("the pull request changes infrastructure; waiting for its plan", "projects", touched)
		return nil, nil
	}
	used, err := a.planWorkflowUses(ctx, gh, repo, cfg, pr.BaseRef)
	if err != nil {
		return nil, err
	}
	if f := trust.WorkflowChanges(cfg, changes, used, ""); len(f) > 0 {
		worklog.From(ctx).Info("the pull request changes a plan workflow; waiting for its plan", "file", f[0].Address)
		return nil, nil
	}
	worklog.From(ctx).Info("no infrastructure changes: the check passes without a plan", "files", len(files))
	return &publish.Outcome{
		Conclusion: "success", Title: noInfraTitle,
		Summary: fmt.Sprintf("None of the %d file(s) this pull request changes belongs to a project of %s on %s (projects[].paths, else the project's directory), so there is no plan to review.",
			len(files), code(configFile(cfg)), code(pr.BaseRef)),
	}, nil
}

// reopenIfStricter is a PR on a commit whose check already passed without
// a plan, decided for another PR of the commit (another base): when this
// PR's base would not pass it too, a new check run waits for the plan (or
// fails on a bad config).
func (a *App) reopenIfStricter(ctx context.Context, gh reviewer, repo Repo, number int, head string) error {
	pass, err := a.withoutPlan(ctx, gh, repo, number, head)
	var bad *publish.Final
	if err != nil && !errors.As(err, &bad) || pass != nil {
		return err
	}
	worklog.From(ctx).Info("the commit passed without a plan for another pull request; this one's base needs one")
	check, cerr := gh.CreateCheckRun(ctx, repo, CheckRun{Name: CheckName, HeadSHA: head, Status: "in_progress", Title: "Waiting for plan", Summary: waitingSummary})
	if cerr != nil {
		return cerr
	}
	return publish.AboutCheck(check, 0, err)
}

// processBaseChange is a PR retargeted at another base branch: its check
// is decided again under the new base's config. Runs that config does not
// trust are dropped; with none left the check waits for a plan again (or
// passes, when the PR changes no project of the new base).
func (a *App) processBaseChange(ctx context.Context, gh reviewer, job Job) error {
	repo := repoOf(job)
	pr, err := gh.GetPullRequest(ctx, repo, job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return nil
	}
	cfg, cfgErr := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	var bad *publish.Final
	if cfgErr != nil && !errors.As(cfgErr, &bad) {
		return cfgErr
	}
	cfgOK := cfgErr == nil
	key := job.GroupKey()
	unlock := a.state.Lock(key)
	var keep []record.Run
	_, err = a.state.Update(ctx, key, func(st *PRState) (bool, error) {
		keep = nil
		if st.HeadSHA == pr.HeadSHA && cfgOK {
			for _, r := range st.Runs {
				if ok, why := trust.PlanRun(cfg, trustPR(repo, pr), r); ok {
					keep = append(keep, r)
				} else {
					worklog.From(ctx).Info("run no longer trusted under the new base's config", "run", r.ID, "why", why)
				}
			}
		}
		if len(keep) == len(st.Runs) && st.HeadSHA == pr.HeadSHA {
			return false, nil
		}
		st.HeadSHA, st.Runs = pr.HeadSHA, keep
		if len(keep) == 0 {
			st.RunID, st.Blocking, st.Conclusion = 0, nil, ""
		}
		return true, nil
	})
	unlock()
	if err != nil {
		return err
	}
	worklog.From(ctx).Info("base branch changed: deciding the check again", "base", pr.BaseRef, "runs", len(keep))
	if len(keep) > 0 {
		newest := keep[0]
		for _, r := range keep[1:] {
			if r.After(newest) {
				newest = r
			}
		}
		return a.reviewAgain(ctx, gh, repo, pr.Number, newest.ID)
	}
	check, err := a.writer(gh, repo).EnsureCheck(ctx, pr.HeadSHA, "Waiting for plan")
	if err != nil {
		return err
	}
	if !cfgOK {
		return publish.AboutCheck(check, 0, cfgErr)
	}
	waiting := CheckRun{ID: check.ID, Name: CheckName, HeadSHA: pr.HeadSHA, Status: "in_progress", Title: "Waiting for plan",
		Summary: fmt.Sprintf("The base branch is now %s: planwarden reviews this commit's plan under its config. %s", code(pr.BaseRef), waitingSummary)}
	if check.Status == "completed" {
		// A completed check run is not reopened: a new one in progress
		// is the commit's planwarden check from now on.
		if waiting, err = gh.CreateCheckRun(ctx, repo, waiting); err != nil {
			return err
		}
	} else if err := gh.UpdateCheckRun(ctx, repo, waiting); err != nil {
		return err
	}
	return a.decideWithoutPlan(ctx, gh, repo, pr.Number, pr.HeadSHA, waiting)
}
