package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/trust"
)

// otherBases adds the bases of the commit's other open pull requests (see
// otherBase).
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

// otherBase is the base of other, another open pull request whose head is
// the commit (one branch, several bases): a check belongs to the commit,
// so it concludes with the strictest review under any of their bases'
// configs. Its config, the runs that config trusts and the pull request's
// state are read here; its plans are those the review reads (the runs it
// trusts are the review's), its facts are read with the others'. What ends
// that base's review for good (its bad config, no run it trusts, a plan it
// cannot skip) is that base's outcome.
func (r *Review) otherBase(ctx context.Context, other port.PullRequest) (*base, error) {
	b := &base{pr: other}
	cfg, err := repoconfig.Base(ctx, r.gh, r.repo, other.BaseRef)
	if errors.As(err, &b.fin) {
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
	if b.st, _, err = r.x.state.PR(ctx, publish.KeyOf(r.repo, other.Number)); err != nil {
		return nil, err
	}
	return b, nil
}
