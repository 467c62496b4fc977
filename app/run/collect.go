package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
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
	pr       port.PullRequest
	cfg      *rules.Config
	st       port.PRState
	runs     []record.Run
	files    []string
	complete bool
	used     []trust.Used
	people   trust.People
	adders   map[string]port.LabelMark
	plans    collected
	// out, when set, is the base's outcome decided while collecting: no
	// run its config trusts, or a final error of its own.
	out *comment.Check
	// evaluate's: the base's result.
	res result
}

// collected is what the review of a commit under one base reads: the plans
// with what their artifacts claim, the notes, and, once evaluate has
// assigned them, the inputs of the review with their projects and
// environments, the provenance findings and the declared projects whose
// plans may still come.
type collected struct {
	claims   []trust.Plan               // what each read plan's artifact claims
	parsed   map[string]*planparse.Plan // by run id/artifact/path
	inputs   []review.Input
	findings []rules.Finding
	notes    []string
	waiting  []string
	planTime time.Time        // newest plan timestamp: shown, decides nothing
	runOf    map[string]int64 // the run each project's plan comes from
	assigned trust.Assignment // which plan of which run each project has
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
				"workflow", r.run.Path, "attempt", r.tr.Attempt, "conclusion", orNone(r.run.Conclusion))
			return false, nil
		}
		r.runs = recorded
	}
	if r.cfgErr != nil {
		return true, r.cfgErr
	}
	r.bases = []*base{{pr: r.pr, cfg: r.cfg, st: r.st, runs: r.runs}}
	if err := r.fetch(ctx, adm); err != nil {
		return true, err
	}
	return true, r.facts(ctx)
}

// otherBase collects the base of other, another open pull request whose
// head is the commit (one branch, several bases): a check belongs to the
// commit, so it concludes with the strictest review under any of their
// bases' configs. What ends that base's review for good (its bad config,
// no run it trusts, a plan it cannot skip) is that base's outcome.
func (r *Review) otherBase(ctx context.Context, other port.PullRequest) (*base, error) {
	b := &base{pr: other}
	cfg, err := repoconfig.Base(ctx, r.gh, r.repo, other.BaseRef)
	var fin *publish.Final
	if errors.As(err, &fin) {
		b.out = &fin.Check
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	b.cfg = cfg
	tpr := trust.PullRequest{Number: other.Number, Repo: r.repo.String(), HeadSHA: other.HeadSHA, Author: other.Author}
	for _, run := range r.runs {
		if ok, _ := trust.PlanRun(cfg, tpr, run); ok {
			b.runs = append(b.runs, run)
		}
	}
	if len(b.runs) == 0 {
		out := comment.NoTrustedRun(other.BaseRef, cfg.PlanWorkflowPaths())
		b.out = &out
		return b, nil
	}
	if b.st, _, err = r.x.state.Read(ctx, publish.KeyOf(r.repo, other.Number)); err != nil {
		return nil, err
	}
	for _, f := range r.fetched {
		if !slices.Contains(b.runs, f.run) {
			continue
		}
		if err := b.plans.add(r.log, f, b.runs); err != nil {
			if !errors.As(err, &fin) {
				return nil, err
			}
			b.out = &fin.Check
			return b, nil
		}
	}
	return b, r.baseFacts(ctx, b)
}

// otherBases adds the bases of the commit's other open pull requests.
func (r *Review) otherBases(ctx context.Context) error {
	prs, err := r.gh.ListPRsForCommit(ctx, r.repo, r.run.HeadSHA)
	if err != nil {
		return fmt.Errorf("list the pull requests of the commit: %w", err)
	}
	seen := map[string]bool{r.pr.BaseRef: true}
	for _, other := range prs {
		if other.Number == r.pr.Number || other.State != "open" || other.HeadSHA != r.run.HeadSHA || seen[other.BaseRef] {
			continue
		}
		seen[other.BaseRef] = true
		b, err := r.otherBase(ctx, other)
		if err != nil {
			return fmt.Errorf("review under the base of #%d: %w", other.Number, err)
		}
		r.bases = append(r.bases, b)
	}
	return nil
}
