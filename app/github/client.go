// Package github is planwarden's one GitHub adapter, the only importer of
// go-github: the REST client behind the ports of app/port (one per
// installation, App auth by ghinstallation, under the retry policy of
// retry.go), and the webhook side (webhook.go): signature, payload, and
// each event decoded into its typed job.
package github

import (
	"context"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/golang-jwt/jwt/v4"
	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
)

// maxPages bounds every paginated listing.
const maxPages = 10

// installations hands out one GitHub client per installation. Each client's
// ghinstallation transport caches its token until a minute before expiry.
type installations struct {
	appID    int64
	key      *rsa.PrivateKey
	retried  http.RoundTripper
	apps     *ghinstallation.AppsTransport
	baseURL  *url.URL
	download *http.Client   // no Authorization, for artifact blobs
	app      *github.Client // authenticated as the App (JWT)
	mu       sync.Mutex
	clients  map[int64]port.GitHub
	bot      string
}

// botLogin asks GitHub once for the App's slug; a failure is retried on
// the next call.
func (in *installations) botLogin(ctx context.Context) (string, error) {
	in.mu.Lock()
	bot := in.bot
	in.mu.Unlock()
	if bot != "" {
		return bot, nil
	}
	a, _, err := in.app.Apps.Get(ctx, "")
	if err != nil {
		return "", fmt.Errorf("get the app: %w", err)
	}
	if a.GetSlug() == "" {
		return "", errors.New("get the app: GitHub named no slug")
	}
	in.mu.Lock()
	in.bot = a.GetSlug() + "[bot]"
	in.mu.Unlock()
	return a.GetSlug() + "[bot]", nil
}

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 5

// apiRedirects follows a redirect of the API only to the API's own scheme
// and host: the installation token goes with every request, so a redirect
// elsewhere (a renamed repository's 301 is on the API's host) is refused.
func apiRedirects(api *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		switch {
		case len(via) >= maxRedirects:
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		case !strings.EqualFold(req.URL.Host, api.Host) || req.URL.Scheme != api.Scheme:
			return fmt.Errorf("refusing to follow a redirect from the GitHub API to %s://%s: the installation token goes only to %s", req.URL.Scheme, req.URL.Host, api.Host)
		}
		return nil
	}
}

// blobRedirects follows the blob store's redirects (they carry no token)
// but never to http:// unless the API itself is http:// (tests).
func blobRedirects(api *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return plainHTTP(api, req.URL)
	}
}

// plainHTTP refuses an http:// URL unless the API URL is http:// too.
func plainHTTP(api, u *url.URL) error {
	if u.Scheme != "https" && !(u.Scheme == "http" && api.Scheme == "http") {
		return fmt.Errorf("refusing a %s:// artifact URL: only https is followed (the API is %s://)", u.Scheme, api.Scheme)
	}
	return nil
}

func newInstallations(s port.Secrets, apiURL string, retried, blobs http.RoundTripper) (*installations, error) {
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("github api url %q: not an absolute URL", apiURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM(s.PrivateKeyPEM)
	if err != nil {
		// The parse error may quote the key; say only what is wrong.
		return nil, errors.New("github app private key: not a valid RSA private key in PEM form")
	}
	atr := ghinstallation.NewAppsTransportFromPrivateKey(retried, s.AppID, key)
	atr.BaseURL = strings.TrimSuffix(u.String(), "/")
	appClient := github.NewClient(&http.Client{Transport: atr, CheckRedirect: apiRedirects(u)})
	base := *u
	appClient.BaseURL = &base
	return &installations{
		appID:    s.AppID,
		key:      key,
		retried:  retried,
		app:      appClient,
		apps:     atr,
		baseURL:  u,
		download: &http.Client{Transport: blobs, CheckRedirect: blobRedirects(u)},
		clients:  map[int64]port.GitHub{},
	}, nil
}

// Clients returns what hands out one installation's client: App auth with
// the key of s, against the REST API at apiURL (https://api.github.com/ or
// https://HOST/api/v3/), every request through base under the retry policy.
func Clients(s port.Secrets, apiURL string, base http.RoundTripper, retry RetryPolicy) (func(installationID int64) (port.GitHub, error), error) {
	p := retry.withDefaults()
	in, err := newInstallations(s, apiURL, retryTransport(base, p, p.Timeout), retryTransport(base, p, p.BlobTimeout))
	if err != nil {
		return nil, err
	}
	return in.client, nil
}

func (in *installations) client(id int64) (port.GitHub, error) {
	if id <= 0 {
		return nil, errors.New("event names no installation")
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if c, ok := in.clients[id]; ok {
		return c, nil
	}
	// Each installation gets its own AppsTransport: ghinstallation writes
	// to it when refreshing a token, so sharing one would race.
	atr := ghinstallation.NewAppsTransportFromPrivateKey(in.retried, in.appID, in.key)
	atr.BaseURL = in.apps.BaseURL
	tr := ghinstallation.NewFromAppsTransport(atr, id)
	gc := github.NewClient(&http.Client{Transport: tr, CheckRedirect: apiRedirects(in.baseURL)})
	base := *in.baseURL
	gc.BaseURL = &base
	c := &ghAdapter{c: gc, download: in.download, in: in, appID: in.appID}
	in.clients[id] = c
	return c, nil
}

// ghAdapter implements port.GitHub with go-github.
type ghAdapter struct {
	c        *github.Client
	download *http.Client
	in       *installations
	appID    int64 // only this App's check runs are ours
	// login, when set, is the account the adapter writes as (a token's,
	// not an App's).
	login string
}

func (g *ghAdapter) BotLogin(ctx context.Context) (string, error) {
	if g.login != "" || g.in == nil {
		return g.login, nil
	}
	return g.in.botLogin(ctx)
}

func notFound(resp *github.Response, err error) error {
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return fmt.Errorf("%w: %v", port.ErrNotFound, err)
	}
	return err
}

func (g *ghAdapter) ListIssueComments(ctx context.Context, r port.Repo, number int) ([]port.IssueComment, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var out []port.IssueComment
	for page := 0; page < maxPages; page++ {
		cs, resp, err := g.c.Issues.ListComments(ctx, r.Owner, r.Name, number, opt)
		if err != nil {
			return nil, fmt.Errorf("list comments of #%d: %w", number, err)
		}
		for _, c := range cs {
			out = append(out, port.IssueComment{ID: c.GetID(), NodeID: c.GetNodeID(), Body: c.GetBody(), User: c.GetUser().GetLogin(), Bot: c.GetUser().GetType() == "Bot"})
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func (g *ghAdapter) CreateComment(ctx context.Context, r port.Repo, number int, body string) (int64, error) {
	c, resp, err := g.c.Issues.CreateComment(ctx, r.Owner, r.Name, number, &github.IssueComment{Body: github.String(body)})
	if err != nil && mayHaveTakenEffect(resp, err) {
		// Not repeated blindly: when the first attempt made the comment,
		// it is there, by the bot, with this body.
		bot, berr := g.BotLogin(ctx)
		comments, lerr := g.ListIssueComments(ctx, r, number)
		if berr == nil && lerr == nil {
			for i := len(comments) - 1; i >= 0; i-- {
				if comments[i].User == bot && comments[i].Body == body {
					return comments[i].ID, nil
				}
			}
			c, _, err = g.c.Issues.CreateComment(ctx, r.Owner, r.Name, number, &github.IssueComment{Body: github.String(body)})
		}
	}
	if err != nil {
		return 0, fmt.Errorf("create comment on #%d: %w", number, err)
	}
	return c.GetID(), nil
}

func (g *ghAdapter) EditComment(ctx context.Context, r port.Repo, id int64, body string) error {
	_, resp, err := g.c.Issues.EditComment(ctx, r.Owner, r.Name, id, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return fmt.Errorf("edit comment %d: %w", id, notFound(resp, err))
	}
	return nil
}

func (g *ghAdapter) GetWorkflowRun(ctx context.Context, r port.Repo, id int64) (port.WorkflowRun, error) {
	run, resp, err := g.c.Actions.GetWorkflowRunByID(ctx, r.Owner, r.Name, id)
	if err != nil {
		return port.WorkflowRun{}, fmt.Errorf("get workflow run %d: %w", id, notFound(resp, err))
	}
	return fromWorkflowRun(run), nil
}

func fromWorkflowRun(run *github.WorkflowRun) port.WorkflowRun {
	w := port.WorkflowRun{
		ID: run.GetID(), Name: run.GetName(), Path: run.GetPath(), DisplayTitle: run.GetDisplayTitle(),
		HeadSHA: run.GetHeadSHA(), HeadBranch: run.GetHeadBranch(),
		Status: run.GetStatus(), Conclusion: run.GetConclusion(), HTMLURL: run.GetHTMLURL(), RunStartedAt: run.GetRunStartedAt().Time,
		Event: run.GetEvent(), Attempt: run.GetRunAttempt(), HeadRepo: run.GetHeadRepository().GetFullName(),
		Actor: run.GetTriggeringActor().GetLogin(),
	}
	if w.Actor == "" {
		w.Actor = run.GetActor().GetLogin()
	}
	for _, pr := range run.PullRequests {
		w.PullRequests = append(w.PullRequests, pr.GetNumber())
	}
	return w
}

func (g *ghAdapter) ListRunArtifacts(ctx context.Context, r port.Repo, runID int64) ([]port.Artifact, error) {
	opt := &github.ListOptions{PerPage: 100}
	var out []port.Artifact
	for page := 0; page < maxPages; page++ {
		list, resp, err := g.c.Actions.ListWorkflowRunArtifacts(ctx, r.Owner, r.Name, runID, opt)
		if err != nil {
			return nil, fmt.Errorf("list artifacts of run %d: %w", runID, err)
		}
		for _, a := range list.Artifacts {
			out = append(out, port.Artifact{ID: a.GetID(), Name: a.GetName(), SizeInBytes: a.GetSizeInBytes(), Expired: a.GetExpired()})
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func (g *ghAdapter) GetFile(ctx context.Context, r port.Repo, path, ref string) ([]byte, error) {
	fc, _, resp, err := g.c.Repositories.GetContents(ctx, r.Owner, r.Name, path, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, fmt.Errorf("get %s at %s: %w", path, ref, notFound(resp, err))
	}
	if fc == nil {
		return nil, fmt.Errorf("get %s at %s: a directory: %w", path, ref, port.ErrNotFound)
	}
	if fc.GetEncoding() == "base64" && fc.Content != nil {
		data, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(*fc.Content, "\n", ""))
		if err != nil {
			return nil, fmt.Errorf("get %s at %s: %w", path, ref, err)
		}
		return data, nil
	}
	s, err := fc.GetContent()
	if err != nil {
		return nil, fmt.Errorf("get %s at %s: %w", path, ref, err)
	}
	return []byte(s), nil
}

func fromPR(pr *github.PullRequest) port.PullRequest {
	p := port.PullRequest{
		Number: pr.GetNumber(), State: pr.GetState(), HeadSHA: pr.GetHead().GetSHA(), HeadRef: pr.GetHead().GetRef(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(), BaseRef: pr.GetBase().GetRef(),
		Author: pr.GetUser().GetLogin(), ChangedFiles: pr.GetChangedFiles(), Merged: pr.GetMerged() || pr.MergedAt != nil, MergeCommitSHA: pr.GetMergeCommitSHA(),
	}
	for _, l := range pr.Labels {
		p.Labels = append(p.Labels, l.GetName())
	}
	return p
}

func (g *ghAdapter) GetPullRequest(ctx context.Context, r port.Repo, number int) (port.PullRequest, error) {
	pr, resp, err := g.c.PullRequests.Get(ctx, r.Owner, r.Name, number)
	if err != nil {
		return port.PullRequest{}, fmt.Errorf("get pull request #%d: %w", number, notFound(resp, err))
	}
	return fromPR(pr), nil
}

func (g *ghAdapter) ListPRsForCommit(ctx context.Context, r port.Repo, sha string) ([]port.PullRequest, error) {
	prs, _, err := g.c.PullRequests.ListPullRequestsWithCommit(ctx, r.Owner, r.Name, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("list pull requests for %s: %w", prose.ShortSHA(sha), err)
	}
	out := make([]port.PullRequest, 0, len(prs))
	for _, pr := range prs {
		out = append(out, fromPR(pr))
	}
	return out, nil
}

// maxPRFilePages is GitHub's own bound: it lists at most 3,000 files of
// a pull request, 100 a page.
const maxPRFilePages = 30

func (g *ghAdapter) ListPRChanges(ctx context.Context, r port.Repo, number int) (port.Changes, error) {
	pr, resp, err := g.c.PullRequests.Get(ctx, r.Owner, r.Name, number)
	if err != nil {
		return port.Changes{}, fmt.Errorf("get pull request #%d: %w", number, notFound(resp, err))
	}
	opt := &github.ListOptions{PerPage: 100}
	out := port.Changes{SHAs: map[string]string{}}
	listed := 0
	for page := 0; page < maxPRFilePages; page++ {
		files, resp, err := g.c.PullRequests.ListFiles(ctx, r.Owner, r.Name, number, opt)
		if err != nil {
			return port.Changes{}, fmt.Errorf("list files of pull request #%d: %w", number, err)
		}
		for _, f := range files {
			listed++
			out.Files = append(out.Files, f.GetFilename())
			if f.GetStatus() != "removed" && f.GetSHA() != "" {
				out.SHAs[f.GetFilename()] = f.GetSHA()
			}
			if f.GetPreviousFilename() != "" {
				out.Files = append(out.Files, f.GetPreviousFilename())
			}
		}
		if resp.NextPage == 0 {
			out.Complete = listed >= pr.GetChangedFiles()
			return out, nil
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

// LabelAdders replays the issue's labeled and unlabeled events, oldest
// first. GitHub lists events oldest first, so with more than maxPages
// pages it reads the first page (to learn the last) and then the newest
// maxPages-1.
func (g *ghAdapter) LabelAdders(ctx context.Context, r port.Repo, number int) (map[string]record.LabelMark, error) {
	out := map[string]record.LabelMark{}
	replay := func(evs []*github.IssueEvent) {
		for _, e := range evs {
			name := strings.ToLower(e.GetLabel().GetName())
			switch e.GetEvent() {
			case "labeled":
				out[name] = record.LabelMark{Name: e.GetLabel().GetName(), By: e.GetActor().GetLogin(), ByType: e.GetActor().GetType(), At: e.GetCreatedAt().Time}
			case "unlabeled":
				delete(out, name)
			}
		}
	}
	opt := &github.ListOptions{PerPage: 100}
	for page := 0; page < maxPages; page++ {
		evs, resp, err := g.c.Issues.ListIssueEvents(ctx, r.Owner, r.Name, number, opt)
		if err != nil {
			return nil, fmt.Errorf("list events of #%d: %w", number, err)
		}
		if page == 0 && resp.LastPage > maxPages {
			// Too many to read them all: the newest pages decide.
			opt.Page = resp.LastPage - (maxPages - 2)
			continue
		}
		replay(evs)
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func (g *ghAdapter) GetPermission(ctx context.Context, r port.Repo, user string) (string, error) {
	p, resp, err := g.c.Repositories.GetPermissionLevel(ctx, r.Owner, r.Name, user)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return "none", nil
		}
		return "", fmt.Errorf("get permission of %s: %w", user, err)
	}
	return p.GetPermission(), nil
}

// DispatchWorkflow dispatches workflowFile on the branch ref. The ref goes
// to GitHub whole (refs/heads/BRANCH): GitHub takes a bare name for a branch
// or a tag, so a tag named like the default branch, which anyone with write
// access can push, could otherwise choose the workflow file that runs.
func (g *ghAdapter) DispatchWorkflow(ctx context.Context, r port.Repo, workflowFile, ref string, inputs map[string]string) error {
	in := make(map[string]any, len(inputs))
	for k, v := range inputs {
		in[k] = v
	}
	full := ref
	if !strings.HasPrefix(full, "refs/") {
		full = "refs/heads/" + ref
	}
	resp, err := g.c.Actions.CreateWorkflowDispatchEventByFileName(ctx, r.Owner, r.Name, workflowFile,
		github.CreateWorkflowDispatchEventRequest{Ref: full, Inputs: in})
	if err != nil && mayHaveTakenEffect(resp, err) {
		// A dispatch names no run to look for: it is not repeated.
		return fmt.Errorf("dispatch %s on %s: GitHub did not confirm it, so it may or may not have started (look at the Actions tab before asking again): %w", workflowFile, ref, err)
	}
	if err != nil {
		return fmt.Errorf("dispatch %s on %s: %w", workflowFile, ref, err)
	}
	return nil
}

func (g *ghAdapter) TeamMember(ctx context.Context, org, teamSlug, user string) (bool, error) {
	m, resp, err := g.c.Teams.GetTeamMembershipBySlug(ctx, org, teamSlug, user)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return false, nil // not a member, or the team is not visible to the App
		}
		return false, fmt.Errorf("get membership of %s in %s/%s: %w", user, org, teamSlug, err)
	}
	return m.GetState() == "active", nil
}

func (g *ghAdapter) React(ctx context.Context, r port.Repo, commentID int64, content string) error {
	if _, _, err := g.c.Reactions.CreateIssueCommentReaction(ctx, r.Owner, r.Name, commentID, content); err != nil {
		return fmt.Errorf("react %s to comment %d: %w", content, commentID, err)
	}
	return nil
}
