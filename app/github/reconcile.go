package github

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// The go-github adapter's part for the reconciler: the App's
// installations, an installation's repositories and their open pull
// requests (port.Lister).

// Installations returns what lists the App's installations (App auth with
// the key of s, every request through base under the retry policy).
func Installations(s port.Secrets, apiURL string, base http.RoundTripper, retry RetryPolicy) (func(ctx context.Context) ([]int64, error), error) {
	p := retry.withDefaults()
	in, err := newInstallations(s, apiURL, retryTransport(base, p, p.Timeout), retryTransport(base, p, p.BlobTimeout))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) ([]int64, error) {
		var out []int64
		opt := &github.ListOptions{PerPage: 100}
		for page := 0; page < maxPages; page++ {
			list, resp, err := in.app.Apps.ListInstallations(ctx, opt)
			if err != nil {
				return nil, fmt.Errorf("list the app's installations: %w", err)
			}
			for _, i := range list {
				out = append(out, i.GetID())
			}
			if resp.NextPage == 0 {
				break
			}
			opt.Page = resp.NextPage
		}
		return out, nil
	}, nil
}

func (g *ghAdapter) ListInstallationRepos(ctx context.Context) ([]port.Repo, error) {
	var out []port.Repo
	opt := &github.ListOptions{PerPage: 100}
	for page := 0; page < maxPages; page++ {
		list, resp, err := g.c.Apps.ListRepos(ctx, opt)
		if err != nil {
			return nil, fmt.Errorf("list the installation's repositories: %w", err)
		}
		for _, r := range list.Repositories {
			out = append(out, port.Repo{Owner: r.GetOwner().GetLogin(), Name: r.GetName()})
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func (g *ghAdapter) ListOpenPRs(ctx context.Context, r port.Repo) ([]port.PullRequest, error) {
	var out []port.PullRequest
	opt := &github.PullRequestListOptions{State: "open", ListOptions: github.ListOptions{PerPage: 100}}
	for page := 0; page < maxPages; page++ {
		list, resp, err := g.c.PullRequests.List(ctx, r.Owner, r.Name, opt)
		if err != nil {
			return nil, fmt.Errorf("list the open pull requests of %s: %w", r, err)
		}
		for _, pr := range list {
			out = append(out, fromPR(pr))
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}
