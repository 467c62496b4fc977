package github

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// ListIssues implements port.Issues: the issues creator opened, open and
// closed, newest first, at most maxPages pages; pull requests left out.
func (g *ghAdapter) ListIssues(ctx context.Context, r port.Repo, creator string) ([]port.Issue, error) {
	opt := &github.IssueListByRepoOptions{State: "all", Creator: creator, Sort: "created", Direction: "desc",
		ListOptions: github.ListOptions{PerPage: 100}}
	var out []port.Issue
	for page := 0; page < maxPages; page++ {
		issues, resp, err := g.c.Issues.ListByRepo(ctx, r.Owner, r.Name, opt)
		if err != nil {
			return nil, fmt.Errorf("list issues of %s: %w", r, err)
		}
		for _, is := range issues {
			if is.IsPullRequest() {
				continue
			}
			out = append(out, fromIssue(is))
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func fromIssue(is *github.Issue) port.Issue {
	return port.Issue{Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), State: is.GetState(), Author: is.GetUser().GetLogin()}
}

// CreateIssue implements port.Issues.
func (g *ghAdapter) CreateIssue(ctx context.Context, r port.Repo, title, body string) (port.Issue, error) {
	is, _, err := g.c.Issues.Create(ctx, r.Owner, r.Name, &github.IssueRequest{Title: github.String(title), Body: github.String(body)})
	if err != nil {
		return port.Issue{}, fmt.Errorf("create issue in %s: %w", r, err)
	}
	return fromIssue(is), nil
}

// EditIssue implements port.Issues.
func (g *ghAdapter) EditIssue(ctx context.Context, r port.Repo, number int, title, body, state string) error {
	req := &github.IssueRequest{Title: github.String(title), Body: github.String(body)}
	if state != "" {
		req.State = github.String(state)
	}
	if _, _, err := g.c.Issues.Edit(ctx, r.Owner, r.Name, number, req); err != nil {
		return fmt.Errorf("edit issue #%d: %w", number, err)
	}
	return nil
}
