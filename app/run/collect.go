package run

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// The collect stage: everything the review reads from GitHub, for the
// pull request's base and for the bases of the other open pull requests
// of the head commit.

// base is one base branch the head commit is decided under: the pull
// request into it, its config and state, the runs that config trusts, and
// what GitHub says of the rest (the files the pull request changes, what
// the plan workflows use, who is in which team, who added the labels).
type base struct {
	pr      port.PullRequest
	cfg     *rules.Config
	st      port.PRState
	runs    []record.Run
	changes trust.Changes
	// prCode are the changed files that can make terraform plan run the
	// pull request's code, read through GitHub (plan_source: dispatch).
	prCode  []trust.FileVersions
	reading trust.Reading
	people  trust.People
	adders  map[string]record.LabelMark
	// botLabels are the labels a bot added that may not approve, with
	// why, by name in lower case.
	botLabels map[string]string
	upgrades  map[string][]review.ProviderUpgrade // by project directory (upgrades.go)
	plans     collected
	// out, when set, is the base's outcome decided while collecting: no
	// run its config trusts; fin a final error of its own (a bad config, a
	// plan it cannot skip).
	out *comment.Check
	fin *publish.Final
	// evaluate's: the base's result.
	res result
}

// collected is what the review of a commit under one base reads: the plans
// with what their artifacts claim, and the notes (evaluate assigns them to
// projects).
type collected struct {
	claims   []trust.Plan               // what each read plan's artifact claims
	parsed   map[string]*planparse.Plan // by run id/artifact/path
	notes    []string
	planTime time.Time // newest plan timestamp: shown, decides nothing
	// planBytes is the size of each plan read, for Observe.
	planBytes []int64
}

// collect reads what the review needs. ok is false when the run brings no
// newer plan (trust.Record): there is nothing to review. The plans hold
// worker memory until r.release. What the pull request's author must fix
// is a *publish.Final.
func (r *Review) collect(ctx context.Context) (ok bool, err error) {
	adm := &admission{gate: r.x.memory}
	r.release, r.fetched, r.bases = adm.release, nil, nil
	// Which plan is newest is GitHub's run id and attempt, project by
	// project, across runs and plan workflows: a run that brings no
	// project a newer plan is ignored, whatever its plan's timestamp says;
	// a recorded run is reviewed again (a re-run, an override, a second
	// attempt after a conflict).
	r.runs = nil
	if r.st.HeadSHA == r.run.HeadSHA {
		r.runs = r.st.Runs
	}
	r.held = slices.Contains(r.runs, r.tr)
	if !r.held {
		recorded, ok := trust.Record(r.runs, r.tr)
		if !ok {
			r.log.Info("run ignored: a later attempt of it was reviewed, or it did not succeed and a newer run of its workflow was reviewed",
				"workflow", r.run.Path, "attempt", r.tr.Attempt, "conclusion", cmp.Or(r.run.Conclusion, "unknown"))
			return false, nil
		}
		r.runs = recorded
	}
	if r.cfgErr != nil {
		return true, r.cfgErr
	}
	r.bases = []*base{{pr: r.pr, cfg: r.cfg, st: r.st, runs: r.runs}}
	if err := r.otherBases(ctx); err != nil {
		return true, err
	}
	if err := r.fetch(ctx, adm); err != nil {
		return true, err
	}
	return true, r.facts(ctx)
}
