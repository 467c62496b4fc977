package metrics

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("/metrics answered %d", rec.Code)
	}
	return rec.Body.String()
}

func TestMetricsReportWhatHappened(t *testing.T) {
	depth := 3.0
	m := New(func() float64 { return depth })
	m.Delivery("pull_request", "queued")
	m.Delivery("pull_request", "queued")
	m.Delivery("push", "ignored")
	m.Job("workflow_run", "done", 1500*time.Millisecond)
	m.Review(200*time.Millisecond, 27<<20)

	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "4987")
		if r.Method == "POST" {
			w.WriteHeader(502)
		}
	}))
	defer gh.Close()
	client := &http.Client{Transport: m.Transport(http.DefaultTransport)}
	for _, method := range []string{"GET", "GET", "POST"} {
		req, _ := http.NewRequest(method, gh.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	failing := &http.Client{Transport: m.Transport(roundTripper(func(*http.Request) (*http.Response, error) { return nil, errors.New("dial refused") }))}
	if _, err := failing.Get(gh.URL); err == nil {
		t.Fatal("the failing transport did not fail")
	}

	out := scrape(t, m)
	for _, want := range []string{
		`planwarden_webhook_deliveries_total{event="pull_request",outcome="queued"} 2`,
		`planwarden_webhook_deliveries_total{event="push",outcome="ignored"} 1`,
		`planwarden_job_duration_seconds_count{event="workflow_run",outcome="done"} 1`,
		`planwarden_job_duration_seconds_sum{event="workflow_run",outcome="done"} 1.5`,
		`planwarden_github_requests_total{method="GET",status="2xx"} 2`,
		`planwarden_github_requests_total{method="POST",status="5xx"} 1`,
		`planwarden_github_requests_total{method="GET",status="error"} 1`,
		`planwarden_github_rate_limit_remaining 4987`,
		`planwarden_review_duration_seconds_count 1`,
		`planwarden_plan_bytes_count 1`,
		`planwarden_queue_depth 3`,
		`go_goroutines`,
	} {
		if !strings.Contains(out, want+"\n") && !strings.Contains(out, want+" ") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	depth = 0
	if out := scrape(t, m); !strings.Contains(out, "planwarden_queue_depth 0\n") {
		t.Errorf("queue depth is not read at scrape time")
	}
}

// Before GitHub first answers there is no rate limit to report: the gauge
// is absent, not 0, so an alert on it does not fire at every start. An
// answer without the header (or a failed call) leaves it absent; the first
// answer with it sets it.
func TestRateLimitIsAbsentUntilGitHubAnswers(t *testing.T) {
	const name = "planwarden_github_rate_limit_remaining"
	m := New(nil)
	if out := scrape(t, m); strings.Contains(out, name) {
		t.Errorf("before any call to GitHub /metrics shows the rate limit:\n%s", grepLines(out, name))
	}
	header := ""
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if header != "" {
			w.Header().Set("X-RateLimit-Remaining", header)
		}
	}))
	defer gh.Close()
	client := &http.Client{Transport: m.Transport(http.DefaultTransport)}
	get := func() {
		t.Helper()
		resp, err := client.Get(gh.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	failing := &http.Client{Transport: m.Transport(roundTripper(func(*http.Request) (*http.Response, error) { return nil, errors.New("dial refused") }))}
	failing.Get(gh.URL)
	get()
	if out := scrape(t, m); strings.Contains(out, name) {
		t.Errorf("after answers without X-RateLimit-Remaining /metrics shows the rate limit:\n%s", grepLines(out, name))
	}
	header = "0"
	get()
	if out := scrape(t, m); !strings.Contains(out, name+" 0\n") {
		t.Errorf("after GitHub answered a remaining 0, /metrics lacks %s 0:\n%s", name, grepLines(out, name))
	}
	header = "4999"
	get()
	if out := scrape(t, m); !strings.Contains(out, name+" 4999\n") {
		t.Errorf("/metrics lacks the newest answer %s 4999:\n%s", name, grepLines(out, name))
	}
}

func grepLines(out, substr string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, substr) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
