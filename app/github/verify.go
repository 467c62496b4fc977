package github

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// Reviews reads what `planwarden verify` needs with a workflow's token
// (checks: read, pull-requests: read): the pull request merged as a commit,
// and the planwarden App's check runs of that pull request's head.
type Reviews struct{ g *ghAdapter }

// TokenReviews returns Reviews that authenticate with token at the REST API
// at apiURL; appID is the planwarden App's id: only its check runs are
// read (a workflow can create a check run of any name). The token is sent
// only to apiURL's host.
func TokenReviews(token, apiURL string, appID int64, base http.RoundTripper, retry RetryPolicy) (*Reviews, error) {
	if token == "" {
		return nil, fmt.Errorf("no token: set GITHUB_TOKEN (the workflow's token needs checks: read and pull-requests: read)")
	}
	if appID <= 0 {
		return nil, fmt.Errorf("no App id: give the planwarden App's id (--app-id or PLANWARDEN_APP_ID), so that only its check runs are read")
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("github api url %q: not an absolute URL", apiURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	p := retry.withDefaults()
	gc := github.NewClient(&http.Client{Transport: &tokenAuth{token: token, host: u.Host, next: retryTransport(base, p, p.Timeout)}, CheckRedirect: apiRedirects(u)})
	gc.BaseURL = u
	return &Reviews{g: &ghAdapter{c: gc, appID: appID}}, nil
}

// MergedAs returns the merged pull request whose merge made commit sha on
// repository r (GitHub's commit-to-pull-request association); false when
// none did (a direct push, or a merge GitHub does not associate).
func (v *Reviews) MergedAs(ctx context.Context, r port.Repo, sha string) (port.PullRequest, bool, error) {
	prs, err := v.g.ListPRsForCommit(ctx, r, sha)
	if err != nil {
		return port.PullRequest{}, false, err
	}
	for _, pr := range prs {
		if pr.Merged && strings.EqualFold(pr.MergeCommitSHA, sha) {
			return pr, true, nil
		}
	}
	return port.PullRequest{}, false, nil
}

// CheckRuns lists the App's newest check runs named name on ref.
func (v *Reviews) CheckRuns(ctx context.Context, r port.Repo, ref, name string) ([]port.CheckRun, error) {
	return v.g.ListCheckRunsForRef(ctx, r, ref, name)
}
