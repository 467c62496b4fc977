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

// TokenPublisher returns a Publisher that authenticates with a plain token
// (a workflow's GITHUB_TOKEN: the GitHub Action's path, with no App), at the
// REST API at apiURL. login is the account the token acts as
// (github-actions[bot] for a workflow token, which cannot ask GitHub who it
// is); only that account's marked comment is edited. The token is sent only
// to apiURL's host.
func TokenPublisher(token, apiURL, login string, base http.RoundTripper, retry RetryPolicy) (port.Publisher, error) {
	if token == "" {
		return nil, fmt.Errorf("no token: set GITHUB_TOKEN (the workflow's token needs pull-requests: write)")
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
	return &tokenAdapter{ghAdapter: &ghAdapter{c: gc, login: login}, login: login}, nil
}

// tokenAdapter is the adapter with a fixed login in place of the App's slug.
type tokenAdapter struct {
	*ghAdapter
	login string
}

func (t *tokenAdapter) BotLogin(context.Context) (string, error) { return t.login, nil }

// tokenAuth adds the token to requests for the API's own host, and to no
// other (a redirect to a blob store or another host never carries it).
type tokenAuth struct {
	token, host string
	next        http.RoundTripper
}

func (a *tokenAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != a.host {
		return a.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "token "+a.token)
	return a.next.RoundTrip(r)
}

// TokenLogin asks GitHub whom a token acts as (GET /user): a personal
// access token's login. ok is false for a token that cannot ask (a
// workflow's GITHUB_TOKEN or an App's installation token, which GitHub
// answers with 403: their comments are a Bot's) or when GitHub did not
// answer.
func TokenLogin(ctx context.Context, token, apiURL string, base http.RoundTripper) (login string, ok bool) {
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" || token == "" {
		return "", false
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if base == nil {
		base = http.DefaultTransport
	}
	gc := github.NewClient(&http.Client{Transport: &tokenAuth{token: token, host: u.Host, next: base}, CheckRedirect: apiRedirects(u)})
	gc.BaseURL = u
	user, _, err := gc.Users.Get(ctx, "")
	if err != nil || user.GetLogin() == "" {
		return "", false
	}
	return user.GetLogin(), true
}
