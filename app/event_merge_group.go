package app

import (
	"context"
	"fmt"
	"strconv"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
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
	repo := repoOf(job)
	out := failed("No planwarden result", "This merge group check names no pull request, so there is no review to carry over.")
	if ref != "" {
		out = failed("No planwarden result", fmt.Sprintf("The merge group ref %s names no pull request, so there is no review to carry over.", ref))
	}
	if job.PR > 0 {
		st, ok, err := a.store.PR(ctx, job.GroupKey())
		if err != nil {
			return err
		}
		switch {
		case !ok || st.Conclusion == "":
			out = failed("No planwarden result", fmt.Sprintf("#%d has no completed planwarden review, so the merge group cannot pass this check. Run the plan workflow on the pull request.", job.PR))
		default:
			out = outcome{
				Conclusion: st.Conclusion,
				Title:      st.Title,
				Summary:    fmt.Sprintf("Carried over from the review of #%d at %s.\n\n%s", job.PR, short(st.HeadSHA), st.Summary),
			}
		}
	}
	logger(ctx).Info("merge group check", "conclusion", out.Conclusion)
	_, err := gh.CreateCheckRun(ctx, repo, CheckRun{
		Name: CheckName, HeadSHA: job.HeadSHA, Status: "completed", Conclusion: out.Conclusion,
		ExternalID: port.MergeGroupExternalID + strconv.Itoa(job.PR),
		Title:      clamp(out.Title, maxCheckTitle), Summary: clamp(out.Summary, comment.MaxCheckBytes), CompletedAt: a.now(),
	})
	return err
}
