package app

import (
	"context"

	"github.com/planwarden/planwarden/app/port"
)

// merge_group checks_requested: a merge queue wants `planwarden` on its
// merge commit. The plan was reviewed on the pull request the merge group
// is made of; that result is carried over onto the merge commit, so the
// queue does not stall, and a pull request without a completed review
// fails the merge group's check (publish.Writer.CarryOver).
//
//	checks_requested -> the pull request's last result on the merge
//	    commit (job.PR, read by the decoder from the merge group's ref
//	    refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha>)
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
}

func (a *App) processMergeGroup(ctx context.Context, gh port.Publisher, j Job) error {
	t := carryTrigger{pr: j.PR, head: j.HeadSHA, ref: j.MergeGroup.HeadRef}
	return a.writer(gh, repoOf(j)).CarryOver(ctx, a.state, t.pr, t.head, t.ref)
}
