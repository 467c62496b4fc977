package publish

import (
	"context"
	"strconv"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

// CarryOver completes the check of a merge group's commit head with the
// last result of pull request pr (0: the merge group names none); ref is
// the merge group's ref, when known, and base the branch it merges into
// (the pull request's current base). The plan was reviewed on the pull
// request: its result is carried over, so the queue does not stall; a
// result decided under another base is not (the reconciler decides the
// pull request again).
func (w Writer) CarryOver(ctx context.Context, s *State, pr int, head, ref, base string) error {
	out := comment.NoResult(ref)
	if pr > 0 {
		st, ok, err := s.PR(ctx, KeyOf(w.Repo, pr))
		if err != nil {
			return err
		}
		switch {
		case !ok || st.Conclusion == "":
			out = comment.NoReview(pr)
		case base != "" && st.BaseRef != "" && st.BaseRef != base:
			out = comment.DecidedUnderAnotherBase(pr, st.BaseRef, base)
		default:
			out = comment.CarriedOver(pr, st.HeadSHA, st.Conclusion, st.Title, st.Summary)
		}
	}
	worklog.From(ctx).Info("merge group check", "conclusion", out.Conclusion)
	_, err := w.GitHub.CreateCheckRun(ctx, w.Repo, port.CheckRun{
		Name: port.CheckName, HeadSHA: head, Status: "completed", Conclusion: out.Conclusion,
		ExternalID: port.MergeGroupExternalID + strconv.Itoa(pr),
		Title:      prose.Clamp(out.Title, MaxCheckTitle), Summary: prose.Clamp(out.Summary, comment.MaxCheckBytes), CompletedAt: w.Now(),
	})
	return err
}
