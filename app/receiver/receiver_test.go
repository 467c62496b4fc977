package receiver

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/porttest"
)

const testSecret = "webhook-secret"

// recordQueue keeps what was enqueued.
type recordQueue struct {
	mu   sync.Mutex
	jobs []job.Job
	err  error
}

func (q *recordQueue) Enqueue(_ context.Context, j job.Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return q.err
	}
	q.jobs = append(q.jobs, j)
	return nil
}

func testApp(t *testing.T, q *recordQueue, log *bytes.Buffer) *Receiver {
	t.Helper()
	r, err := New(Config{
		WebhookSecret: []byte(testSecret),
		Queue:         q,
		Store:         porttest.NewMemoryStore(nil),
		Logger:        slog.New(slog.NewJSONHandler(log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func signed(body string) string {
	m := hmac.New(sha256.New, []byte(testSecret))
	m.Write([]byte(body))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

const openedPayload = `{"action":"opened","number":3,"pull_request":{"number":3,"head":{"sha":"abc123","ref":"f"},"base":{"ref":"main"}},
"repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":77},"sender":{"login":"alice"}}`

func TestNewRefusesWithoutWebhookSecret(t *testing.T) {
	_, err := New(Config{Queue: &recordQueue{}, Store: porttest.NewMemoryStore(nil)})
	if err == nil || !strings.Contains(err.Error(), "webhook secret is not configured") {
		t.Fatalf("New without a secret: %v, want a refusal", err)
	}
}

func TestWebhookStatuses(t *testing.T) {
	form := "payload=" + url.QueryEscape(openedPayload)
	tests := map[string]struct {
		event, ctype, body, sig string
		wantCode                int
		wantJobs                int
	}{
		"signed pull_request is queued":     {"pull_request", "application/json", openedPayload, signed(openedPayload), 202, 1},
		"form-encoded delivery is queued":   {"pull_request", "application/x-www-form-urlencoded", form, signed(form), 202, 1},
		"missing signature":                 {"pull_request", "application/json", openedPayload, "", 401, 0},
		"forged signature":                  {"pull_request", "application/json", openedPayload, signed(openedPayload + " "), 401, 0},
		"malformed signature":               {"pull_request", "application/json", openedPayload, "sha256=zz", 401, 0},
		"malformed JSON":                    {"pull_request", "application/json", `{"action":`, signed(`{"action":`), 400, 0},
		"unsupported content type":          {"pull_request", "text/plain", openedPayload, signed(openedPayload), 400, 0},
		"unhandled event":                   {"star", "application/json", `{"action":"created"}`, signed(`{"action":"created"}`), 202, 0},
		"unhandled action of handled event": {"pull_request", "application/json", strings.Replace(openedPayload, "opened", "closed", 1), signed(strings.Replace(openedPayload, "opened", "closed", 1)), 202, 0},
		"ping":                              {"ping", "application/json", `{"zen":"hi"}`, signed(`{"zen":"hi"}`), 200, 0},
		"installation is logged only":       {"installation", "application/json", `{"action":"created","installation":{"id":5}}`, signed(`{"action":"created","installation":{"id":5}}`), 202, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			q := &recordQueue{}
			var log bytes.Buffer
			a := testApp(t, q, &log)
			req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.ctype)
			req.Header.Set("X-GitHub-Event", tc.event)
			req.Header.Set("X-GitHub-Delivery", "d-1")
			if tc.sig != "" {
				req.Header.Set("X-Hub-Signature-256", tc.sig)
			}
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, req)
			if rec.Code != tc.wantCode {
				t.Errorf("status %d (%s), want %d", rec.Code, strings.TrimSpace(rec.Body.String()), tc.wantCode)
			}
			if len(q.jobs) != tc.wantJobs {
				t.Errorf("%d jobs queued, want %d", len(q.jobs), tc.wantJobs)
			}
			if strings.Contains(log.String(), testSecret) {
				t.Errorf("log shows the webhook secret")
			}
		})
	}
}

func TestWebhookJobAndLog(t *testing.T) {
	q := &recordQueue{}
	var log bytes.Buffer
	a := testApp(t, q, &log)
	post := func() int {
		req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(openedPayload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "72d3162e")
		req.Header.Set("X-Hub-Signature-256", signed(openedPayload))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := post(); code != 202 {
		t.Fatalf("first delivery %d, want 202", code)
	}
	if code := post(); code != 200 {
		t.Errorf("redelivery %d, want 200 (duplicate, nothing done)", code)
	}
	if len(q.jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(q.jobs))
	}
	j := q.jobs[0]
	if j.DeliveryID != "72d3162e" || j.Event != "pull_request" || j.InstallationID != 77 || j.Owner != "o" || j.Repo != "r" || j.PR != 3 || j.HeadSHA != "abc123" || j.GroupKey() != "o/r#3" {
		t.Errorf("job %+v: want delivery, event, installation 77, o/r#3 at abc123", j)
	}
	queued := ""
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, `"msg":"queued"`) {
			queued = line
		}
	}
	for _, want := range []string{`"delivery":"72d3162e"`, `"event":"pull_request"`, `"installation":77`, `"repo":"o/r"`, `"pr":3`} {
		if !strings.Contains(queued, want) {
			t.Errorf("queued log line %q lacks %s", queued, want)
		}
	}
}

func TestWebhookBodyLimitAndQueueErrors(t *testing.T) {
	t.Run("larger than 25 MB", func(t *testing.T) {
		q := &recordQueue{}
		a := testApp(t, q, &bytes.Buffer{})
		big := `{"action":"opened","pad":"` + strings.Repeat("x", MaxWebhookBytes) + `"}`
		req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(big))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "d-big")
		req.Header.Set("X-Hub-Signature-256", signed(big))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge || len(q.jobs) != 0 {
			t.Errorf("status %d with %d jobs, want 413 and none", rec.Code, len(q.jobs))
		}
	})
	t.Run("queue down", func(t *testing.T) {
		q := &recordQueue{err: errors.New("sqs: throttled")}
		a := testApp(t, q, &bytes.Buffer{})
		req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(openedPayload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "d-q")
		req.Header.Set("X-Hub-Signature-256", signed(openedPayload))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("status %d, want 503 so GitHub shows the delivery failed", rec.Code)
		}
		// The queue is back: GitHub's Redeliver of the same id is new.
		q.err = nil
		rec = httptest.NewRecorder()
		req = httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(openedPayload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "d-q")
		req.Header.Set("X-Hub-Signature-256", signed(openedPayload))
		a.ServeHTTP(rec, req)
		if rec.Code != http.StatusAccepted || len(q.jobs) != 1 {
			t.Errorf("redelivery after the outage: %d with %d jobs, want 202 and the job", rec.Code, len(q.jobs))
		}
	})
}

func TestHealthz(t *testing.T) {
	a := testApp(t, &recordQueue{}, &bytes.Buffer{})
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != "ok" {
		t.Errorf("GET /healthz: %d %q, want 200 ok", rec.Code, rec.Body.String())
	}
}

// A signed body replayed under a new delivery id does nothing; a
// different body under a new id is a new delivery.
func TestReplayedBodyUnderANewDeliveryIDIsIgnored(t *testing.T) {
	q := &recordQueue{}
	var log bytes.Buffer
	a := testApp(t, q, &log)
	post := func(delivery, body string) int {
		req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", delivery)
		req.Header.Set("X-Hub-Signature-256", signed(body))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		return rec.Code
	}
	other := strings.Replace(openedPayload, "abc123", "def456", 1)
	for i, step := range []struct {
		delivery, body string
		code, jobs     int
	}{
		{"d-1", openedPayload, 202, 1},
		{"d-2", openedPayload, 200, 1}, // the same signed body, a new id
		{"d-3", other, 202, 2},
	} {
		if code := post(step.delivery, step.body); code != step.code || len(q.jobs) != step.jobs {
			t.Errorf("step %d (%s): status %d with %d jobs, want %d with %d", i, step.delivery, code, len(q.jobs), step.code, step.jobs)
		}
	}
	if !strings.Contains(log.String(), "replayed body under a new delivery id ignored") {
		t.Errorf("the log does not say the replay was ignored:\n%s", log.String())
	}
}
