package github

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
)

const (
	owner = "octo-org"
	repo  = "ml-infra"
)

// adapter is the real go-github adapter against the fake GitHub.
func adapter(t *testing.T, gh *githubtest.Server, retry RetryPolicy) port.GitHub {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	key := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	if retry.Pause == nil {
		retry.Pause = func(time.Duration) {}
	}
	clients, err := Clients(port.Secrets{AppID: githubtest.AppID, PrivateKeyPEM: key, WebhookSecret: []byte("s")}, gh.APIURL, http.DefaultTransport, retry)
	if err != nil {
		t.Fatal(err)
	}
	c, err := clients(4242)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A comment or check run whose POST got a 5xx is looked for before it is
// asked for again; a dispatch is not asked for again at all.
func TestSideEffectsAreNotRepeatedBlindly(t *testing.T) {
	r := port.Repo{Owner: owner, Name: repo}
	for name, tc := range map[string]struct {
		applied   bool
		wantPosts int
	}{
		"the first attempt took effect": {applied: true, wantPosts: 1},
		"the first attempt did not":     {applied: false, wantPosts: 2},
	} {
		t.Run(name, func(t *testing.T) {
			gh := githubtest.New(t)
			gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: strings.Repeat("1", 40)})
			c := adapter(t, gh, RetryPolicy{})
			gh.Fail(githubtest.Fault{Method: http.MethodPost, Path: "/issues/7/comments", Times: 1, Status: http.StatusBadGateway, Applied: tc.applied})
			id, err := c.CreateComment(context.Background(), r, 7, "the review")
			if err != nil {
				t.Fatalf("CreateComment: %v", err)
			}
			comments := gh.Comments(owner, repo, 7)
			if len(comments) != 1 || comments[0].ID != id {
				t.Errorf("%d comments (id %d), want exactly the one returned (%d)", len(comments), firstID(comments), id)
			}
			if n := gh.CallCount(http.MethodPost, "/issues/7/comments"); n != tc.wantPosts {
				t.Errorf("%d POSTs, want %d", n, tc.wantPosts)
			}

			gh.Fail(githubtest.Fault{Method: http.MethodPost, Path: "/check-runs", Times: 1, Status: http.StatusInternalServerError, Applied: tc.applied})
			cr, err := c.CreateCheckRun(context.Background(), r, port.CheckRun{Name: "planwarden", HeadSHA: strings.Repeat("1", 40), Status: "in_progress", Title: "Waiting for plan", Summary: "s"})
			if err != nil {
				t.Fatalf("CreateCheckRun: %v", err)
			}
			if runs := gh.CheckRuns(owner, repo, strings.Repeat("1", 40)); len(runs) != 1 || runs[0].ID != cr.ID {
				t.Errorf("%d check runs, want exactly the one returned (%d)", len(runs), cr.ID)
			}
		})
	}
	t.Run("a dispatch", func(t *testing.T) {
		gh := githubtest.New(t)
		c := adapter(t, gh, RetryPolicy{})
		gh.Fail(githubtest.Fault{Method: http.MethodPost, Path: "/dispatches", Times: 1, Status: http.StatusBadGateway})
		err := c.DispatchWorkflow(context.Background(), r, "planwarden-plan.yml", "feature-7", map[string]string{"pr": "7"})
		if err == nil || !strings.Contains(err.Error(), "may or may not have started") {
			t.Errorf("DispatchWorkflow after a 502: %v, want an error saying it may have started", err)
		}
		if n := gh.CallCount(http.MethodPost, "/dispatches"); n != 1 {
			t.Errorf("%d dispatch POSTs, want 1", n)
		}
	})
	t.Run("a GET is retried", func(t *testing.T) {
		gh := githubtest.New(t)
		gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: strings.Repeat("1", 40)})
		c := adapter(t, gh, RetryPolicy{})
		gh.Fail(githubtest.Fault{Method: http.MethodGet, Path: "/pulls/7", Times: 1, Status: http.StatusBadGateway})
		if _, err := c.GetPullRequest(context.Background(), r, 7); err != nil {
			t.Errorf("GetPullRequest after one 502: %v, want it retried", err)
		}
	})
}

func firstID(cs []githubtest.Comment) int64 {
	if len(cs) == 0 {
		return 0
	}
	return cs[0].ID
}

// The installation token goes with every API request: a redirect to
// another host is not followed; one on the API's own host is.
func TestRedirectsKeepTheTokenOnTheAPIHost(t *testing.T) {
	var elsewhere atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer evil.Close()
	gh := githubtest.New(t)
	gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: strings.Repeat("1", 40)})
	c := adapter(t, gh, RetryPolicy{})
	r := port.Repo{Owner: owner, Name: repo}

	gh.Fail(githubtest.Fault{Method: http.MethodGet, Path: "/pulls/7", Times: 1, Status: http.StatusMovedPermanently,
		Header: http.Header{"Location": {evil.URL + "/api/v3/repos/" + owner + "/" + repo + "/pulls/7"}}})
	_, err := c.GetPullRequest(context.Background(), r, 7)
	if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") {
		t.Errorf("a redirect to another host: %v, want a refusal", err)
	}
	if elsewhere.Load() != 0 {
		t.Errorf("the other host got %d requests", elsewhere.Load())
	}

	gh.Fail(githubtest.Fault{Method: http.MethodGet, Path: "/pulls/7", Times: 1, Status: http.StatusMovedPermanently,
		Header: http.Header{"Location": {gh.APIURL + "repos/" + owner + "/" + repo + "/pulls/7"}}})
	if pr, err := c.GetPullRequest(context.Background(), r, 7); err != nil || pr.Number != 7 {
		t.Errorf("a redirect on the API's host: %+v, %v, want it followed", pr, err)
	}
}

func TestPlainHTTPOnlyWhenTheAPIIsPlainHTTP(t *testing.T) {
	u := func(s string) *url.URL { v, _ := url.Parse(s); return v }
	for name, tc := range map[string]struct {
		api, target string
		ok          bool
	}{
		"https API, https blob": {"https://api.github.com/", "https://blob.core.windows.net/x?sig=1", true},
		"https API, http blob":  {"https://api.github.com/", "http://blob.core.windows.net/x?sig=1", false},
		"http API (tests)":      {"http://127.0.0.1:9/api/v3/", "http://127.0.0.1:9/_blob/1", true},
		"a file URL":            {"http://127.0.0.1:9/api/v3/", "file:///etc/passwd", false},
	} {
		t.Run(name, func(t *testing.T) {
			if err := plainHTTP(u(tc.api), u(tc.target)); (err == nil) != tc.ok {
				t.Errorf("plainHTTP(%s, %s) = %v, want ok %v", tc.api, tc.target, err, tc.ok)
			}
			req := &http.Request{URL: u(tc.target)}
			if err := blobRedirects(u(tc.api))(req, nil); (err == nil) != tc.ok {
				t.Errorf("blob redirect to %s: %v, want ok %v", tc.target, err, tc.ok)
			}
		})
	}
	api := u("https://ghe.example.com/api/v3/")
	if err := apiRedirects(api)(&http.Request{URL: u("https://ghe.example.com/api/v3/repositories/1")}, nil); err != nil {
		t.Errorf("a redirect on the API host: %v", err)
	}
	if err := apiRedirects(api)(&http.Request{URL: u("http://ghe.example.com/api/v3/repositories/1")}, nil); err == nil {
		t.Errorf("a downgrade to http on the API host was followed")
	}
}

// A GitHub that stops answering does not hold a job forever.
func TestEveryRequestHasAResponseTimeout(t *testing.T) {
	gh := githubtest.New(t)
	gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: strings.Repeat("1", 40)})
	c := adapter(t, gh, RetryPolicy{MaxRetries: -1, Timeout: 200 * time.Millisecond})
	gh.Hold(http.MethodGet, "/pulls/7") // never released while the request waits
	_, err := c.GetPullRequest(context.Background(), port.Repo{Owner: owner, Name: repo}, 7)
	if err == nil {
		t.Fatalf("GetPullRequest answered while GitHub never did")
	}
}
