package port

import "context"

// Issues writes the drift review's issues: one per project, found again by
// its hidden marker among the issues the bot itself opened.
type Issues interface {
	// ListIssues returns the repository's issues (open and closed, pull
	// requests left out) that creator opened, newest first; at most the
	// first pages GitHub lists.
	ListIssues(ctx context.Context, r Repo, creator string) ([]Issue, error)
	CreateIssue(ctx context.Context, r Repo, title, body string) (Issue, error)
	// EditIssue sets an issue's title and body, and its state (open or
	// closed; "" leaves it).
	EditIssue(ctx context.Context, r Repo, number int, title, body, state string) error
}

// Issue is a GitHub issue as the bot reads it.
type Issue struct {
	Number int
	Title  string
	Body   string
	State  string // open, closed
	Author string
}
