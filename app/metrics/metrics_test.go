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
