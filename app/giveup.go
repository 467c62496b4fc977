package app

import (
	"context"
	"fmt"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

// GiveUp is told that job failed for the last time (a dead job of the
// serve queue, or the last SQS receive before the dead-letter queue). When
// the PR's head has a planwarden check that is not completed, it completes
// it as a failure that says to press Re-run, so no check stays in
// progress and a required check never passes by being forgotten. The
// job's error is logged, never put on the check. The job's delivery id
// and body digest are forgotten, so GitHub's Redeliver queues it again.
func (a *App) GiveUp(ctx context.Context, j job.Job, cause error) error {
	ctx = worklog.With(ctx, a.log.With(j.LogAttrs()...))
	worklog.From(ctx).Error("job given up", "err", cause)
	// GitHub's Redeliver of it must be queued again, not deduped.
	if f, ok := a.store.(port.DeliveryForgetter); ok {
		for _, k := range []string{j.DeliveryID, j.BodyDigest} {
			if k == "" {
				continue
			}
			if err := f.ForgetDelivery(ctx, k); err != nil {
				worklog.From(ctx).Warn("forget delivery", "err", err)
			}
		}
	}
	gh, err := a.github(j.InstallationID)
	if err != nil {
		return fmt.Errorf("give up %s %s: github client: %w", j.Event, j.DeliveryID, err)
	}
	repo := repoOf(j)
	sha := j.HeadSHA
	if sha == "" && j.PR > 0 {
		st, ok, err := a.state.PR(ctx, j.GroupKey())
		if err == nil && ok {
			sha = st.HeadSHA
		}
		if sha == "" {
			pr, err := gh.GetPullRequest(ctx, repo, j.PR)
			if err != nil {
				return fmt.Errorf("give up %s %s: find the pull request's head: %w", j.Event, j.DeliveryID, err)
			}
			sha = pr.HeadSHA
		}
	}
	if sha == "" {
		return nil // no commit, so no check of ours
	}
	runs, err := gh.ListCheckRunsForRef(ctx, repo, sha, port.CheckName)
	if err != nil {
		return fmt.Errorf("give up %s %s: list check runs: %w", j.Event, j.DeliveryID, err)
	}
	for _, r := range runs {
		if r.Name != port.CheckName || r.Status == "completed" {
			continue
		}
		var runID int64
		if j.WorkflowRun != nil {
			runID = j.WorkflowRun.RunID
		}
		if err := a.writer(gh, repo).Complete(ctx, r, comment.GaveUp(), runID); err != nil {
			return fmt.Errorf("give up %s %s: complete check run %d: %w", j.Event, j.DeliveryID, r.ID, err)
		}
		worklog.From(ctx).Info("check completed as failed: press Re-run", "check_run", r.ID, "sha", prose.ShortSHA(sha))
	}
	return nil
}
