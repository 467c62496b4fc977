package run

import (
	"context"
	"fmt"
	"slices"

	"github.com/planwarden/planwarden/app/drift"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// DriftGitHub is what a drift review uses of GitHub: it reads the run's
// artifacts and keeps the projects' issues, as the App's account.
type DriftGitHub interface {
	port.PRReader
	port.Issues
	BotLogin(ctx context.Context) (string, error)
}

// Drift reviews a finished run of one of the default branch's
// drift_workflows (trust.DriftRun: the caller decided it is one) under
// cfg, the default branch's config, and keeps one issue per project with
// the review (app/drift.Keep: opened on the first drift, edited while it
// lasts, closed when a plan finds none). Its artifacts are read as a pull
// request's are: bounded, within the worker's memory budget. A run
// planwarden cannot read (it failed, uploaded no plan, or an artifact is
// refused) changes no issue: an issue says only what a plan showed.
func (x *Runner) Drift(ctx context.Context, gh DriftGitHub, repo port.Repo, run port.WorkflowRun, cfg *rules.Config) error {
	log := worklog.From(ctx).With("run", run.ID, "workflow", run.Path)
	if run.Conclusion != "success" {
		log.Info("drift run ignored: it did not succeed", "conclusion", run.Conclusion)
		return nil
	}
	arts, err := gh.ListRunArtifacts(ctx, repo, run.ID)
	if err != nil {
		return fmt.Errorf("list the artifacts of %s (run %d): %w", run.Path, run.ID, err)
	}
	arts = planArtifacts(arts)
	if len(arts) == 0 || len(arts) > x.limits.MaxArtifacts {
		log.Warn("drift run ignored: no plan artifact, or more than the limit", "artifacts", len(arts), "limit", x.limits.MaxArtifacts)
		return nil
	}
	adm := &admission{gate: x.memory}
	defer adm.release()
	files, err := x.downloadWithin(ctx, gh, repo, arts, &budget{left: x.limits.MaxTotal}, adm)
	if fin := publish.FinalOf(err); fin != nil {
		log.Warn("drift run ignored: its artifacts cannot be read", "title", fin.Check().Title, "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	inputs := driftInputs(log, cfg, files)
	if len(inputs) == 0 {
		return nil
	}
	report := review.Build(inputs, review.Options{Config: cfg})
	// One drift review of a repository at a time in this process: two
	// would both find no issue and both open one.
	defer x.state.Lock(repo.String() + " drift")()
	bot, err := gh.BotLogin(ctx)
	if err != nil {
		return err
	}
	done, err := drift.Keep(ctx, gh, repo, bot, report, comment.DriftOptions{RunURL: run.HTMLURL, Commit: run.HeadSHA, Run: run.ID})
	for _, d := range done {
		log.Info("drift issue", "project", d.Project, "action", string(d.Action), "issue", d.Number)
	}
	return err
}

// driftInputs are the plans of a drift run as the review's inputs: each
// plan's project as its artifact names it, its environment the config's.
// When the config declares projects, a plan of another project is left
// out (nobody declared where its issue belongs); so is a plan that does
// not parse, and every plan but the first of a project.
func driftInputs(log interface{ Warn(string, ...any) }, cfg *rules.Config, files []planFile) []review.Input {
	var inputs []review.Input
	for _, f := range files {
		if _, declared := cfg.Project(f.Project); len(cfg.Projects) > 0 && !declared {
			log.Warn("drift plan left out: its project is not declared", "file", f.Name)
			continue
		}
		if slices.ContainsFunc(inputs, func(in review.Input) bool { return in.Name == f.Project }) {
			log.Warn("drift plan left out: its project has a plan already", "file", f.Name)
			continue
		}
		p, err := planparse.Parse(f.Name, f.Data)
		if err != nil {
			log.Warn("drift plan left out: it cannot be read", "file", f.Name, "err", err)
			continue
		}
		inputs = append(inputs, review.Input{Name: f.Project, Environment: cfg.EnvironmentOf(f.Project), Plan: p})
	}
	return inputs
}
