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
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// What the check believes comes from GitHub's facts and the base branch's
// config, and package trust decides what they are worth. Here the review
// finds the pull request the run is for (pullrequest.go) and asks trust
// whether the run counts (trust.PlanRun; and for a plan planwarden
// dispatched, trust.DispatchedRun: dispatch.go); collect asks which runs the check concludes from
// (trust.Record), evaluate which plan is each project's and what the pull
// request changes that a plan cannot speak for (trust.Assign,
// WorkflowChanges, Missing), publish which runs stay (trust.Keep). A pull
// request that needs no plan, and one retargeted at another base, are
// decided here too.

// provenance finds the run's open pull request and its base branch's
// config, says whether the run may be reviewed for it (ok), and, when it
// may, locks the pull request (until unlock), reads its state and finds
// the check of the run's commit. A config that cannot be used is the
// review's outcome; a run the config does not trust is ignored; a run of
// a commit that is no longer the pull request's head is reported stale on
// its own commit.
func (r *Review) provenance(ctx context.Context) (unlock func(), ok bool, err error) {
	unlock = func() {}
	// A plan planwarden dispatched (plan_source: dispatch) ran on the
	// default branch's commit; its title names the pull request and the
	// head it planned. It is read as a run of that head only once trust
	// says planwarden dispatched it (dispatchedRun).
	claim := r.run
	if n, head, ok := trust.PlanDispatchOfTitle(r.run.DisplayTitle); ok && r.run.Event == "workflow_dispatch" {
		r.run.PullRequests, r.run.HeadSHA = []int{n}, head
	}
	r.tr = trustRun(r.run)
	pr, found, err := findPR(ctx, r.gh, r.repo, r.run)
	r.w = r.x.writer(r.gh, r.repo)
	log := worklog.From(ctx).With("run", r.run.ID)
	if err != nil || !found {
		if err == nil {
			log.Info("no open pull request for the run's head", "sha", prose.ShortSHA(r.run.HeadSHA))
		}
		return unlock, false, err
	}
	r.pr, r.key, r.log = pr, publish.KeyOf(r.repo, pr.Number), worklog.From(ctx)
	if len(r.run.PullRequests) == 0 {
		r.log = log.With("pr", pr.Number)
	}
	// A config that cannot be used (or that GitHub refuses for good) is
	// the review's outcome, on the check; one not read yet is retried.
	r.cfg, r.cfgErr = repoconfig.Base(ctx, r.gh, r.repo, pr.BaseRef)
	if r.cfgErr != nil && publish.FinalOf(r.cfgErr) == nil {
		return unlock, false, r.cfgErr
	}
	if r.cfgErr == nil && (r.cfg.Dispatches() || claim.HeadSHA != r.run.HeadSHA) {
		tpr := trust.PullRequest{Number: pr.Number, Repo: r.repo.String(), HeadSHA: r.run.HeadSHA, Author: pr.Author}
		if ok, why, err := dispatchedRun(ctx, r.gh, r.repo, r.cfg, tpr, claim); err != nil || !ok {
			if err == nil {
				log.Info("run ignored: not a plan planwarden dispatched", "why", why, "workflow", r.run.Path, "event", r.run.Event)
			}
			return unlock, false, err
		}
		r.tr.Dispatched = true
	}
	if r.cfgErr == nil {
		// A run of an older head is reported stale below, on its own
		// commit; every other fact must hold.
		tpr := trust.PullRequest{Number: pr.Number, Repo: r.repo.String(), HeadSHA: r.run.HeadSHA, Author: pr.Author}
		if trusted, why := trust.PlanRun(r.cfg, tpr, r.tr); !trusted {
			log.Info("run ignored: its artifacts are not trusted", "why", why, "workflow", r.run.Path, "event", r.run.Event)
			return unlock, false, nil
		}
	}
	if r.cfgErr == nil {
		if r.cfgSHA, err = repoconfig.SHA(ctx, r.gh, r.repo, pr.BaseRef); err != nil {
			return unlock, false, err
		}
	}
	unlock = r.x.state.Lock(r.key)
	if r.st, _, err = r.x.state.PR(ctx, r.key); err != nil {
		return unlock, false, err
	}
	if pr.HeadSHA != r.run.HeadSHA {
		r.log.Info("stale plan: the pull request has moved on", "plan_sha", prose.ShortSHA(r.run.HeadSHA), "head_sha", prose.ShortSHA(pr.HeadSHA))
		if other, err := r.stricterOnCommit(ctx); err != nil || other > 0 {
			if other > 0 {
				r.log.Info("the commit still heads another open pull request with a stricter result; its check stays", "pr", other)
			}
			return unlock, false, err
		}
		return unlock, false, r.w.Stale(ctx, r.run.ID, r.run.HeadSHA, pr.Number, pr.HeadSHA)
	}
	r.checkRun, err = r.w.EnsureCheck(ctx, r.run.HeadSHA, comment.ReviewingTitle)
	return unlock, err == nil, err
}

// Base changes.

// Retarget is a pull request retargeted at another base branch: its check
// is decided again under the new base's config. Runs that config does not
// trust are dropped; with none left the check waits for a plan again (or
// is decided without one under the new base: decideWithoutPlan).
func (x *Runner) Retarget(ctx context.Context, gh GitHub, repo port.Repo, number int) error {
	pr, err := gh.GetPullRequest(ctx, repo, number)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return nil
	}
	cfg, cfgErr := repoconfig.Base(ctx, gh, repo, pr.BaseRef)
	var bad *publish.Final
	if cfgErr != nil && !errors.As(cfgErr, &bad) {
		return cfgErr
	}
	cfgOK := cfgErr == nil
	key := publish.KeyOf(repo, number)
	unlock := x.state.Lock(key)
	var keep []record.Run
	_, err = x.state.Update(ctx, key, func(st *port.PRState) (bool, error) {
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
		return x.Again(ctx, gh, repo, pr.Number, newest.ID)
	}
	w := x.writer(gh, repo)
	check, err := w.EnsureCheck(ctx, pr.HeadSHA, comment.WaitingTitle)
	if err != nil {
		return err
	}
	if !cfgOK {
		return publish.AboutCheck(check, 0, cfgErr)
	}
	waiting := port.CheckRun{ID: check.ID, Name: port.CheckName, HeadSHA: pr.HeadSHA, Status: "in_progress", Title: comment.WaitingTitle,
		Summary: comment.RetargetedSummary(pr.BaseRef)}
	if check.Status == "completed" {
		// A completed check run is not reopened: a new one in progress
		// is the commit's planwarden check from now on.
		if waiting, err = gh.CreateCheckRun(ctx, repo, waiting); err != nil {
			return err
		}
	} else if err := gh.UpdateCheckRun(ctx, repo, waiting); err != nil {
		return err
	}
	return x.decideWithoutPlan(ctx, gh, repo, pr.Number, pr.HeadSHA, waiting)
}

// configFile is where cfg came from, else where a config would be.
func configFile(cfg *rules.Config) string {
	if cfg.File() != "" {
		return cfg.File()
	}
	return rules.ConfigPath
}

// stricterOnCommit is the other open pull request whose head the run's
// commit still is and whose current result is stricter than this pull
// request's "stale" (neutral), or 0: a commit heading several open pull
// requests gets the strictest of their current results
// (trust.Strictest), so one pull request's staleness never loosens
// another's verdict.
func (r *Review) stricterOnCommit(ctx context.Context) (int, error) {
	prs, err := r.gh.ListPRsForCommit(ctx, r.repo, r.run.HeadSHA)
	if err != nil {
		return 0, err
	}
	results := []trust.PRResult{{Number: r.pr.Number, Base: r.pr.BaseRef, Conclusion: "neutral"}}
	for _, other := range prs {
		if other.Number == r.pr.Number || other.State != "open" || other.HeadSHA != r.run.HeadSHA {
			continue
		}
		st, _, err := r.x.state.PR(ctx, publish.KeyOf(r.repo, other.Number))
		if err != nil {
			return 0, err
		}
		res := trust.PRResult{Number: other.Number, Base: other.BaseRef}
		if st.HeadSHA == r.run.HeadSHA {
			res.Conclusion = st.Conclusion
		}
		results = append(results, res)
	}
	if s, _ := trust.Strictest(results); s.Number != r.pr.Number {
		return s.Number, nil
	}
	return 0, nil
}
