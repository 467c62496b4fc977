// Package drift keeps the drift review's issues: for each project of the
// review of a scheduled plan of the default branch, one GitHub issue, found
// again by its hidden marker among the issues the bot opened, opened on the
// first drift, edited in place while it lasts, closed when a plan finds
// none, reopened when it comes back (comment.DecideDrift decides; this
// package only does what it says).
package drift

import (
	"context"
	"fmt"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/review"
)

// Result is what Keep did with one project's issue.
type Result struct {
	Project string
	Action  comment.DriftAction
	// Number is the issue's number (0 when there is none).
	Number int
}

// Keep brings every project's drift issue up to date with the report: bot
// is the login the issues are opened as (only its issues are read, so
// nobody else's issue can stand for a project's). It returns what it did,
// per project in the report's order; the first GitHub error stops it (the
// job runs again and carries on: each step is decided from GitHub's state).
func Keep(ctx context.Context, gh port.Issues, repo port.Repo, bot string, r *review.Report, opt comment.DriftOptions) ([]Result, error) {
	issues, err := gh.ListIssues(ctx, repo, bot)
	if err != nil {
		return nil, err
	}
	known := byProject(issues)
	out := make([]Result, 0, len(r.Projects))
	for _, p := range r.Projects {
		prev := known[p.Name]
		state := comment.IssueState{Number: prev.Number, Open: prev.State == "open", Body: prev.Body}
		body := comment.DriftIssue(r, p.Name, opt)
		title := comment.DriftTitle(p)
		res := Result{Project: p.Name, Action: comment.DecideDrift(state, comment.DriftOf(p), body), Number: prev.Number}
		switch res.Action {
		case comment.DriftOpen:
			is, err := gh.CreateIssue(ctx, repo, title, body)
			if err != nil {
				return out, fmt.Errorf("open the drift issue of %s: %w", p.Name, err)
			}
			res.Number = is.Number
		case comment.DriftReopen, comment.DriftEdit, comment.DriftClose:
			if err := gh.EditIssue(ctx, repo, prev.Number, title, body, stateOf(res.Action)); err != nil {
				return out, fmt.Errorf("%s the drift issue of %s: %w", res.Action, p.Name, err)
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// stateOf is the issue state an action sets ("" leaves it).
func stateOf(a comment.DriftAction) string {
	switch a {
	case comment.DriftReopen:
		return "open"
	case comment.DriftClose:
		return "closed"
	}
	return ""
}

// byProject is each project's drift issue: the newest open one with its
// marker, else the newest closed one (issues come newest first).
func byProject(issues []port.Issue) map[string]port.Issue {
	out := map[string]port.Issue{}
	for _, is := range issues {
		project, ok := comment.ParseDriftMarker(is.Body)
		if !ok {
			continue
		}
		if cur, seen := out[project]; !seen || cur.State != "open" && is.State == "open" {
			out[project] = is
		}
	}
	return out
}
