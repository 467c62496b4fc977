// Package publish is what every job of the worker writes: the `planwarden`
// check run (and the per-project ones), the one PR comment, the command
// replies it hides, and the pull request's stored state, with the locks
// and the versioned read-modify-write that keep concurrent jobs from
// losing each other's writes. It also holds the worker's one error model
// (Final, FinalOf): what is retried and what ends a job on its check.
package publish

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

// GitHub's limits on a check run, besides its output's text
// (comment.MaxCheckBytes) and a comment's body (comment.MaxCommentBytes).
const (
	MaxCheckTitle       = 255 // a check run's name, and its output's title
	maxAnnotationsBatch = 50
	maxAnnotations      = 1000
)

// Writer writes what one job says on one repository: its check runs, the
// one PR comment and the command replies it hides.
type Writer struct {
	GitHub port.Publisher
	Repo   port.Repo
	Now    func() time.Time
}

// EnsureCheck returns the planwarden check run of sha: the latest by name
// (GitHub's answer, with its URL for the comment), else a new one in
// progress.
func (w Writer) EnsureCheck(ctx context.Context, sha, title string) (port.CheckRun, error) {
	runs, err := w.GitHub.ListCheckRunsForRef(ctx, w.Repo, sha, port.CheckName)
	if err != nil {
		return port.CheckRun{}, err
	}
	for _, r := range runs {
		if r.Name == port.CheckName {
			return r, nil
		}
	}
	return w.GitHub.CreateCheckRun(ctx, w.Repo, port.CheckRun{
		Name: port.CheckName, HeadSHA: sha, Status: "in_progress", Title: title,
		Summary: comment.ReadingSummary,
	})
}

// Complete sets the check run's conclusion and output (no conclusion keeps
// it in progress), for the workflow run runID (0: none). Annotations go 50
// per request, as GitHub requires.
func (w Writer) Complete(ctx context.Context, check port.CheckRun, out comment.Check, runID int64) error {
	ann := out.Annotations
	if len(ann) > maxAnnotations {
		ann = ann[:maxAnnotations]
	}
	first := ann[:min(len(ann), maxAnnotationsBatch)]
	name := check.Name
	if name == "" {
		name = port.CheckName
	}
	cr := port.CheckRun{
		ID: check.ID, Name: name, HeadSHA: check.HeadSHA, Status: "completed", Conclusion: out.Conclusion,
		Title: prose.Clamp(out.Title, MaxCheckTitle), Summary: prose.Clamp(out.Summary, comment.MaxCheckBytes), Text: prose.Clamp(out.Text, comment.MaxCheckBytes),
		Annotations: first, CompletedAt: w.Now(),
	}
	if out.Conclusion == "" {
		// No conclusion yet (a plan still to come): the check stays in
		// progress, so a required check keeps blocking the merge.
		cr.Status, cr.CompletedAt = "in_progress", time.Time{}
	}
	if runID != 0 {
		cr.ExternalID = strconv.FormatInt(runID, 10)
	}
	if err := w.GitHub.UpdateCheckRun(ctx, w.Repo, cr); err != nil {
		return err
	}
	for i := len(first); i < len(ann); i += maxAnnotationsBatch {
		more := cr
		more.Annotations = ann[i:min(len(ann), i+maxAnnotationsBatch)]
		if err := w.GitHub.UpdateCheckRun(ctx, w.Repo, more); err != nil {
			return err
		}
	}
	return nil
}

// ProjectCheckName is the check run of one project.
func ProjectCheckName(project string) string {
	return prose.Clamp(port.CheckName+"/"+project, MaxCheckTitle)
}

// ProjectCheck returns the project's latest check run on sha, else a new
// one in progress; created says which.
func (w Writer) ProjectCheck(ctx context.Context, sha, project, title, summary string) (check port.CheckRun, created bool, err error) {
	name := ProjectCheckName(project)
	runs, err := w.GitHub.ListCheckRunsForRef(ctx, w.Repo, sha, name)
	if err != nil {
		return port.CheckRun{}, false, err
	}
	for _, r := range runs {
		if r.Name == name {
			return r, false, nil
		}
	}
	cr, err := w.GitHub.CreateCheckRun(ctx, w.Repo, port.CheckRun{Name: name, HeadSHA: sha, Status: "in_progress", Title: title, Summary: summary})
	return cr, true, err
}

// UpsertComment edits planwarden's one comment on pull request pr (found
// by the id st remembers, else by its hidden marker) or creates it, and
// returns its id. Which review is newest is the caller's to decide (by
// run, from the PR's state); a marker's plan time decides nothing, since
// the plan wrote it.
func (w Writer) UpsertComment(ctx context.Context, pr int, st port.PRState, body string) (int64, error) {
	body = prose.Clamp(body, comment.MaxCommentBytes)
	if st.CommentID != 0 {
		err := w.GitHub.EditComment(ctx, w.Repo, st.CommentID, body)
		if err == nil {
			return st.CommentID, nil
		}
		if !errors.Is(err, port.ErrNotFound) {
			return 0, err
		}
		worklog.From(ctx).Info("remembered comment is gone; looking for the marker", "comment", st.CommentID)
	}
	id, _, err := UpsertMarkedComment(ctx, w.GitHub, w.Repo, pr, body)
	return id, err
}

// UpsertMarkedComment edits the comment on pull request pr that starts with
// planwarden's hidden marker and was written by the publisher's own account
// (BotLogin), or creates one; edited says which. Anyone can write a marker:
// only the bot's own comment counts. The worker uses it when it does not
// remember its comment's id; `planwarden comment` (the GitHub Action) always.
func UpsertMarkedComment(ctx context.Context, gh port.Publisher, repo port.Repo, pr int, body string) (id int64, edited bool, err error) {
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

// Stale completes the check of planSHA, a commit pull request pr has moved
// on from (to headSHA), as a stale plan of the workflow run runID, and
// leaves the pull request's head (and the comment) alone.
func (w Writer) Stale(ctx context.Context, runID int64, planSHA string, pr int, headSHA string) error {
	check, err := w.EnsureCheck(ctx, planSHA, comment.ReviewingTitle)
	if err != nil {
		return err
	}
	return w.Complete(ctx, check, comment.Stale(planSHA, pr, headSHA), runID)
}
