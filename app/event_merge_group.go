package app

import (
	"context"
)

// merge_group checks_requested: a merge queue wants `planwarden` on its
// merge commit. The plan was reviewed on the PR; carry that result over
// so the queue does not stall.

func (a *App) processMergeGroup(ctx context.Context, gh Publisher, job Job) error {
	return a.carryOver(ctx, gh, job, job.MergeGroup.HeadRef)
}

// carryOver completes the check of a merge group's commit with the last
// result of job.PR; ref is the merge group's ref, when known.
func (a *App) carryOver(ctx context.Context, gh Publisher, job Job, ref string) error {
	return a.writer(gh, repoOf(job)).CarryOver(ctx, a.state, job.PR, job.HeadSHA, ref)
}
