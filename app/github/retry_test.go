package github

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetryPolicyDecisions(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	p := RetryPolicy{Now: func() time.Time { return now }, MaxWait: 2 * time.Minute}.withDefaults()
	tests := map[string]struct {
		status    int
		header    map[string]string
		wantRetry bool
		wantWait  time.Duration // of the first retry
	}{
		"500 retried":                         {500, nil, true, 500 * time.Millisecond},
		"502 retried":                         {502, nil, true, 500 * time.Millisecond},
		"501 not retried":                     {501, nil, false, 0},
		"404 never retried":                   {404, nil, false, 0},
		"422 never retried":                   {422, nil, false, 0},
		"plain 403 is a permission error":     {403, nil, false, 0},
		"secondary limit: 403 Retry-After":    {403, map[string]string{"Retry-After": "30"}, true, 30 * time.Second},
		"429 Retry-After":                     {429, map[string]string{"Retry-After": "7"}, true, 7 * time.Second},
		"429 without headers waits a minute":  {429, nil, true, time.Minute},
		"primary limit waits for the reset":   {403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": fmt.Sprint(now.Add(90 * time.Second).Unix())}, true, 91 * time.Second},
		"a wait longer than MaxWait gives up": {403, map[string]string{"Retry-After": "3600"}, false, 0},
		"a reset an hour away gives up":       {429, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": fmt.Sprint(now.Add(time.Hour).Unix())}, false, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{}}
			for k, v := range tc.header {
				resp.Header.Set(k, v)
			}
			retry, err := p.checkRetry(context.Background(), resp, nil)
			if err != nil || retry != tc.wantRetry {
				t.Fatalf("checkRetry = %v, %v; want %v", retry, err, tc.wantRetry)
			}
			if retry {
				if got := p.backoff(0, 0, 0, resp); got != tc.wantWait {
					t.Errorf("wait %v, want %v", got, tc.wantWait)
				}
			}
		})
	}
}

func TestRetryTransportBoundsTheTotalWait(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	var waited time.Duration
	tr := retryTransport(http.DefaultTransport, RetryPolicy{MaxRetries: 3, MinWait: time.Second, MaxWait: 3 * time.Second, Pause: func(d time.Duration) { waited += d }}, time.Minute)
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || hits.Load() != 4 {
		t.Errorf("status %d after %d requests, want the last 503 after 4", resp.StatusCode, hits.Load())
	}
	if want := (1 + 2 + 3) * time.Second; waited != want {
		t.Errorf("waited %v in all, want %v (1s, 2s, then capped at 3s)", waited, want)
	}
}

func TestRetryTransportDoesNotFollowRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/zip" {
			http.Redirect(w, r, "/blob", http.StatusFound)
			return
		}
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the blob saw the Authorization header")
		}
	}))
	defer srv.Close()
	tr := retryTransport(http.DefaultTransport, RetryPolicy{}, time.Minute)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/zip", nil)
	req.Header.Set("Authorization", "token ghs_x")
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("status %d, want the 302 itself (the adapter follows it without the token)", resp.StatusCode)
	}
}
