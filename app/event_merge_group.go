package app

import (
	"context"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// merge_group checks_requested: a merge queue wants `planwarden` on its
// merge commit. The plan was reviewed on the pull request the merge group
// is made of; that result is carried over onto the merge commit, so the
// queue does not stall, and a pull request without a completed review
// fails the merge group's check (publish.Writer.CarryOver).
//
//	checks_requested -> the pull request's last result on the merge
//	    commit
//
// What the job carries (app/github decodes it): the merge commit, the
// merge group's head and base refs, and the pull request read from the
// head ref, refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha> (0 when the
// ref names none: the check fails saying so, and names the ref). The
// check's external id names the pull request (port.MergeGroupExternalID),
// so "Re-run" on it carries the result over again (check_run).
//
// The job is queued with the pull request's other work (job.GroupKey:
// owner/repo#<pr>), so the result carried over is the one the pull
// request's latest review left, not one a review still running will
// replace. Every carry-over creates a check run on the merge commit,
// completed at once: a merge commit has no plan of its own to wait for.
//
// A plan is never reviewed on the merge commit itself: the merge group's
// tree is the pull request's, rebased, and its plan would be the CI's
// claim about a commit nobody reviewed.

// carryTrigger is what a merge group asks: the result of pull request pr
// on the commit head, where ref is the merge group's ref (named when the
// pull request is not known).
type carryTrigger struct {
	pr   int
	head string
	ref  string
	// base is the branch the merge group merges into.
	base string
}

// carryOf maps a merge_group job onto its trigger.
func carryOf(j job.Job) carryTrigger {
	return carryTrigger{pr: j.PR, head: j.HeadSHA, ref: j.MergeGroup.HeadRef, base: strings.TrimPrefix(j.MergeGroup.BaseRef, "refs/heads/")}
}

func (a *App) processMergeGroup(ctx context.Context, gh port.Publisher, j job.Job) error {
	t := carryOf(j)
	return a.writer(gh, repoOf(j)).CarryOver(ctx, a.state, t.pr, t.head, t.ref, t.base)
}
