package app

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
)

// GitHub's limits on a check run, besides its output's text
// (comment.MaxCheckBytes) and a comment's body (comment.MaxCommentBytes).
const (
	maxCheckTitle       = 255 // a check run's name, and its output's title
	maxAnnotationsBatch = 50
	maxAnnotations      = 1000
)

// ensureCheck returns the planwarden check run of sha: the latest by name
// (GitHub's answer, with its URL for the comment), else a new one in
// progress.
func (a *App) ensureCheck(ctx context.Context, gh Publisher, repo Repo, sha, title string) (CheckRun, error) {
	runs, err := gh.ListCheckRunsForRef(ctx, repo, sha, CheckName)
	if err != nil {
		return CheckRun{}, err
	}
	for _, r := range runs {
		if r.Name == CheckName {
			return r, nil
		}
	}
	return gh.CreateCheckRun(ctx, repo, CheckRun{
		Name: CheckName, HeadSHA: sha, Status: "in_progress", Title: title,
		Summary: "planwarden is reading the plan of this commit.",
	})
}

// failed is a check's outcome that says what failed.
func failed(title, summary string) outcome {
	return outcome{Conclusion: "failure", Title: title, Summary: summary}
}

// completeCheck sets the check run's conclusion and output. Annotations
// go 50 per request, as GitHub requires.
func (a *App) completeCheck(ctx context.Context, gh Publisher, repo Repo, check CheckRun, out outcome, runID int64) error {
	ann := out.Annotations
	if len(ann) > maxAnnotations {
		ann = ann[:maxAnnotations]
	}
	first := ann[:min(len(ann), maxAnnotationsBatch)]
	cr := CheckRun{
		ID: check.ID, Name: orDefault(check.Name, CheckName), HeadSHA: check.HeadSHA, Status: "completed", Conclusion: out.Conclusion,
		Title: clamp(out.Title, maxCheckTitle), Summary: clamp(out.Summary, comment.MaxCheckBytes), Text: clamp(out.Text, comment.MaxCheckBytes),
		Annotations: first, CompletedAt: a.now(),
	}
	if out.Conclusion == "" {
		// No conclusion yet (a plan still to come): the check stays in
		// progress, so a required check keeps blocking the merge.
		cr.Status, cr.CompletedAt = "in_progress", time.Time{}
	}
	if runID != 0 {
		cr.ExternalID = strconv.FormatInt(runID, 10)
	}
	if err := gh.UpdateCheckRun(ctx, repo, cr); err != nil {
		return err
	}
	for i := len(first); i < len(ann); i += maxAnnotationsBatch {
		more := cr
		more.Annotations = ann[i:min(len(ann), i+maxAnnotationsBatch)]
		if err := gh.UpdateCheckRun(ctx, repo, more); err != nil {
			return err
		}
	}
	return nil
}

// upsertComment edits planwarden's one comment on the PR (found by id,
// else by its hidden marker) or creates it. Which review is newest is the
// caller's to decide (by run, from the PR's state); a marker's plan time
// decides nothing, since the plan wrote it.
func (a *App) upsertComment(ctx context.Context, gh Publisher, repo Repo, pr int, st PRState, body string) (int64, error) {
	body = clamp(body, comment.MaxCommentBytes)
	if st.CommentID != 0 {
		err := gh.EditComment(ctx, repo, st.CommentID, body)
		if err == nil {
			return st.CommentID, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return 0, err
		}
		logger(ctx).Info("remembered comment is gone; looking for the marker", "comment", st.CommentID)
	}
	id, _, err := UpsertMarkedComment(ctx, gh, repo, pr, body)
	return id, err
}

// UpsertMarkedComment edits the comment on pull request pr that starts with
// planwarden's hidden marker and was written by the publisher's own account
// (BotLogin), or creates one; edited says which. Anyone can write a marker:
// only the bot's own comment counts. The App uses it when it does not
// remember its comment's id; `planwarden comment` (the GitHub Action) always.
func UpsertMarkedComment(ctx context.Context, gh port.Publisher, repo Repo, pr int, body string) (id int64, edited bool, err error) {
	bot, err := gh.BotLogin(ctx)
	if err != nil {
		return 0, false, err
	}
	comments, err := gh.ListIssueComments(ctx, repo, pr)
	if err != nil {
		return 0, false, err
	}
	for _, c := range comments {
		if _, ok := comment.ParseMarker(c.Body); ok && c.User == bot {
			return c.ID, true, gh.EditComment(ctx, repo, c.ID, body)
		}
	}
	id, err = gh.CreateComment(ctx, repo, pr, body)
	return id, false, err
}
