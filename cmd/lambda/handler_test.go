package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/planwarden/planwarden/app/job"
)

const testWebhookSecret = "It's a Secret to Everybody" // the testdata bodies are signed with it

func readEvent(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// seen is what the App's http.Handler received.
type seen struct {
	method, path, query, host, remote string
	header                            http.Header
	body                              []byte
}

func recordingHandler(got *seen) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		*got = seen{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, host: r.Host, remote: r.RemoteAddr, header: r.Header, body: body}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, "queued\n")
	})
}

func newTestHandler(role string, h http.Handler, process processFunc, logs io.Writer) *handler {
	if logs == nil {
		logs = io.Discard
	}
	hd := &handler{role: role, http: h, log: slog.New(slog.NewJSONHandler(logs, nil))}
	if process != nil {
		hd.worker = &sqsWorker{process: process, maxReceives: 3}
	}
	return hd
}

func TestHTTPEventsReachTheHandler(t *testing.T) {
	var webhookBody struct {
		Action string `json:"action"`
		Number int    `json:"number"`
	}
	tests := map[string]struct {
		file                      string
		method, path, query, host string
		wantWebhook               bool
	}{
		"function url webhook": {file: "function-url-webhook.json", method: "POST", path: "/webhook",
			host: "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws", wantWebhook: true},
		"api gateway v2 webhook on a named stage, base64 body": {file: "apigw-v2-webhook.json", method: "POST", path: "/webhook", query: "source=github",
			host: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com", wantWebhook: true},
		"function url health check": {file: "function-url-healthz.json", method: "GET", path: "/healthz",
			host: "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got seen
			h := newTestHandler(roleReceiver, recordingHandler(&got), nil, nil)
			out, err := h.Invoke(context.Background(), readEvent(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got.method != tc.method || got.path != tc.path || got.query != tc.query || got.host != tc.host {
				t.Errorf("request = %s %s ?%s host %s, want %s %s ?%s host %s", got.method, got.path, got.query, got.host, tc.method, tc.path, tc.query, tc.host)
			}
			if tc.wantWebhook {
				if e, d := got.header.Get("X-GitHub-Event"), got.header.Get("X-GitHub-Delivery"); e != "pull_request" || d != "72d3162e-cc78-11e3-81ab-4c9367dc0958" {
					t.Errorf("X-GitHub-Event %q, X-GitHub-Delivery %q; want the delivery's", e, d)
				}
				if sig := got.header.Get("X-Hub-Signature-256"); !strings.HasPrefix(sig, "sha256=23cbca3a") {
					t.Errorf("X-Hub-Signature-256 = %q, want the recorded one", sig)
				}
				if err := json.Unmarshal(got.body, &webhookBody); err != nil || webhookBody.Action != "opened" || webhookBody.Number != 7 {
					t.Errorf("body = %.80q (%v), want the pull_request payload", got.body, err)
				}
				if got.remote != "140.82.115.1" {
					t.Errorf("RemoteAddr = %q, want GitHub's source ip", got.remote)
				}
			}

			var resp events.LambdaFunctionURLResponse // the same shape as the API Gateway v2 response
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 202 || resp.Body != "queued\n" || resp.IsBase64Encoded || resp.Headers["Content-Type"] != "text/plain; charset=utf-8" {
				t.Errorf("response = %+v, want 202 queued, text/plain", resp)
			}
			if !slices.Equal(resp.Cookies, []string{"a=1", "b=2"}) {
				t.Errorf("cookies = %v, want both Set-Cookie values", resp.Cookies)
			}
		})
	}
}

func TestHTTPResponseDefaults(t *testing.T) {
	tests := map[string]struct {
		handler    http.HandlerFunc
		wantStatus int
		wantBody   string
		wantBase64 bool
	}{
		"nothing written is a 200":   {handler: func(http.ResponseWriter, *http.Request) {}, wantStatus: 200},
		"a write without a header":   {handler: func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }, wantStatus: 200, wantBody: "ok"},
		"the first status wins":      {handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(401); w.WriteHeader(500) }, wantStatus: 401},
		"binary bodies are base64ed": {handler: func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte{0xff, 0xfe}) }, wantStatus: 200, wantBody: "//4=", wantBase64: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, err := newTestHandler(roleAll, tc.handler, nil, nil).Invoke(context.Background(), readEvent(t, "function-url-healthz.json"))
			if err != nil {
				t.Fatal(err)
			}
			var resp events.APIGatewayV2HTTPResponse
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus || resp.Body != tc.wantBody || resp.IsBase64Encoded != tc.wantBase64 {
				t.Errorf("response = %d %q base64 %v, want %d %q base64 %v", resp.StatusCode, resp.Body, resp.IsBase64Encoded, tc.wantStatus, tc.wantBody, tc.wantBase64)
			}
		})
	}
}

// jobLog is one JSON log line of the worker.
type jobLog struct {
	Level      string `json:"level"`
	Msg        string `json:"msg"`
	DeliveryID string `json:"delivery"`
	MessageID  string `json:"message_id"`
	Err        string `json:"err"`
}

func parseLogs(t *testing.T, b []byte) []jobLog {
	t.Helper()
	var out []jobLog
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var l jobLog
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		out = append(out, l)
	}
	return out
}

func TestSQSBatchReportsOnlyFailedItems(t *testing.T) {
	const (
		msg71 = "059f36b4-87a3-44ab-83d2-661975830a7d" // d-7-1, PR 7
		msg81 = "2e1424d4-f796-459a-8184-9c92662be6da" // d-8-1, PR 8, third receive
		msg72 = "1b2c3d4e-0000-4000-8000-000000000003" // d-7-2, PR 7
		msg91 = "1b2c3d4e-0000-4000-8000-000000000004" // unreadable body
	)
	tests := map[string]struct {
		fail        map[string]error // by delivery id
		panicOn     string
		wantFailed  []string
		wantRun     []string
		wantDLQLogs []string // delivery ids logged as moving to the DLQ
		wantGivenUp []string // delivery ids whose check GiveUp completes
	}{
		"all good but the unreadable message": {
			wantFailed: []string{msg91}, wantRun: []string{"d-7-1", "d-7-2", "d-8-1"},
		},
		"a failure holds back the rest of its PR, not other PRs": {
			fail:       map[string]error{"d-7-1": errors.New("github: 502 bad gateway")},
			wantFailed: []string{msg71, msg72, msg91}, wantRun: []string{"d-7-1", "d-8-1"},
		},
		"a failure on the last receive is logged on its way to the DLQ": {
			fail:       map[string]error{"d-8-1": errors.New("artifact zip refused")},
			wantFailed: []string{msg81, msg91}, wantRun: []string{"d-7-1", "d-7-2", "d-8-1"},
			wantDLQLogs: []string{"d-8-1"}, wantGivenUp: []string{"d-8-1: artifact zip refused"},
		},
		"a panic fails only its message": {
			panicOn:    "d-7-2",
			wantFailed: []string{msg72, msg91}, wantRun: []string{"d-7-1", "d-7-2", "d-8-1"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var (
				mu  sync.Mutex
				ran []string
			)
			process := func(_ context.Context, j job.Job) error {
				mu.Lock()
				ran = append(ran, j.DeliveryID)
				mu.Unlock()
				if j.DeliveryID == tc.panicOn {
					panic("boom")
				}
				return tc.fail[j.DeliveryID]
			}
			var (
				logs    bytes.Buffer
				givenUp []string
			)
			hd := newTestHandler(roleWorker, nil, process, &logs)
			hd.worker.giveUp = func(_ context.Context, j job.Job, cause error) error {
				mu.Lock()
				defer mu.Unlock()
				givenUp = append(givenUp, j.DeliveryID+": "+cause.Error())
				return nil
			}
			out, err := hd.Invoke(context.Background(), readEvent(t, "sqs-fifo-batch.json"))
			if err != nil {
				t.Fatal(err)
			}
			var resp events.SQSEventResponse
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, f := range resp.BatchItemFailures {
				failed = append(failed, f.ItemIdentifier)
			}
			slices.Sort(failed)
			slices.Sort(tc.wantFailed)
			if !slices.Equal(failed, tc.wantFailed) {
				t.Errorf("batchItemFailures = %v, want %v", failed, tc.wantFailed)
			}
			slices.Sort(ran)
			if !slices.Equal(ran, tc.wantRun) {
				t.Errorf("jobs run = %v, want %v", ran, tc.wantRun)
			}
			var dlq []string
			for _, l := range parseLogs(t, logs.Bytes()) {
				if strings.Contains(l.Msg, "dead-letter") {
					dlq = append(dlq, l.DeliveryID)
				}
				if l.Level == "ERROR" && l.Msg == "job failed" && l.DeliveryID == "" {
					t.Errorf("failure logged without its delivery id: %+v", l)
				}
			}
			if !slices.Equal(dlq, tc.wantDLQLogs) {
				t.Errorf("logged as moving to the DLQ: %v, want %v\n%s", dlq, tc.wantDLQLogs, logs.String())
			}
			if !slices.Equal(givenUp, tc.wantGivenUp) {
				t.Errorf("checks given up: %v, want %v (a job on its way to the DLQ completes its check)", givenUp, tc.wantGivenUp)
			}
		})
	}
}

func TestSQSOrderWithinOnePR(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	process := func(_ context.Context, j job.Job) error {
		mu.Lock()
		defer mu.Unlock()
		if j.PR == 7 {
			ran = append(ran, j.DeliveryID)
		}
		return nil
	}
	for range 20 { // the groups run concurrently; PR 7's two jobs never swap
		ran = nil
		if _, err := newTestHandler(roleWorker, nil, process, nil).Invoke(context.Background(), readEvent(t, "sqs-fifo-batch.json")); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ran, []string{"d-7-1", "d-7-2"}) {
			t.Fatalf("PR 7 ran %v, want [d-7-1 d-7-2]", ran)
		}
	}
}

func TestRolesRefuseTheOtherEvents(t *testing.T) {
	never := func(context.Context, job.Job) error { t.Error("worker ran"); return nil }
	tests := map[string]struct {
		h       *handler
		file    string
		wantErr string
	}{
		"a receiver refuses sqs":          {h: newTestHandler(roleReceiver, http.NotFoundHandler(), nil, nil), file: "sqs-fifo-batch.json", wantErr: "does not take sqs events"},
		"a worker refuses http":           {h: newTestHandler(roleWorker, nil, never, nil), file: "function-url-webhook.json", wantErr: "does not take http events"},
		"an unknown shape is an error":    {h: newTestHandler(roleAll, http.NotFoundHandler(), never, nil), file: "", wantErr: "unknown event"},
		"a receiver refuses the schedule": {h: newTestHandler(roleReceiver, http.NotFoundHandler(), nil, nil), file: "schedule", wantErr: "does not reconcile"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			payload := []byte(`{"detail-type":"Object Created","source":"aws.s3"}`)
			if tc.file == "schedule" {
				payload, tc.file = []byte(scheduledEvent), ""
			}
			if tc.file != "" {
				payload = readEvent(t, tc.file)
			}
			_, err := tc.h.Invoke(context.Background(), payload)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Invoke error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// The adapter hands the App the delivery's exact bytes: the recorded
// deliveries (one plain, one base64 behind an API Gateway stage) pass the
// App's signature check, and a byte changed in transit does not.
func TestRecordedWebhooksPassTheAppsSignatureCheck(t *testing.T) {
	tests := map[string]struct {
		file   string
		tamper func(ev map[string]any)
		want   int
	}{
		"function url":                {file: "function-url-webhook.json", want: 202},
		"api gateway v2, base64 body": {file: "apigw-v2-webhook.json", want: 202},
		"a body changed in transit": {file: "function-url-webhook.json", want: 401, tamper: func(ev map[string]any) {
			ev["body"] = strings.Replace(ev["body"].(string), `"number":7`, `"number":8`, 1)
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			payload := readEvent(t, tc.file)
			if tc.tamper != nil {
				var ev map[string]any
				json.Unmarshal(payload, &ev)
				tc.tamper(ev)
				payload, _ = json.Marshal(ev)
			}
			out, err := memoryReceiver(t).Invoke(context.Background(), payload)
			if err != nil {
				t.Fatal(err)
			}
			var resp events.APIGatewayV2HTTPResponse
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.want {
				t.Errorf("App answered %d %q, want %d", resp.StatusCode, resp.Body, tc.want)
			}
		})
	}
}

func TestSQSJobsStopBeforeTheLambdaDeadline(t *testing.T) {
	deadline := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var (
		mu  sync.Mutex
		got []time.Time
	)
	process := func(ctx context.Context, _ job.Job) error { // runs concurrently, one goroutine per PR
		d, _ := ctx.Deadline()
		mu.Lock()
		got = append(got, d)
		mu.Unlock()
		return nil
	}
	if _, err := newTestHandler(roleWorker, nil, process, nil).Invoke(ctx, readEvent(t, "sqs-fifo-batch.json")); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no job ran")
	}
	for _, d := range got {
		if !d.Equal(deadline.Add(-5 * time.Second)) {
			t.Errorf("a job's deadline = %s, want 5 s before the invocation's %s", d, deadline)
		}
	}
}

// scheduledEvent is what EventBridge's schedule (template.yaml,
// rate(5 minutes)) sends the worker.
const scheduledEvent = `{"version":"0","id":"53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa","detail-type":"Scheduled Event","source":"aws.events","account":"123456789012","time":"2026-12-04T10:00:00Z","region":"us-east-1","resources":["arn:aws:events:us-east-1:123456789012:rule/planwarden-reconcile"],"detail":{}}`

// The worker runs the reconciler on its schedule, and answers even when
// a pull request's re-decision failed (the next schedule tries again).
func TestTheScheduleRunsTheReconciler(t *testing.T) {
	for name, fail := range map[string]bool{"it succeeds": false, "it fails": true} {
		t.Run(name, func(t *testing.T) {
			h := newTestHandler(roleWorker, nil, func(context.Context, job.Job) error { return nil }, nil)
			runs := 0
			h.worker.reconcile = func(context.Context) error {
				runs++
				if fail {
					return errors.New("github: 502")
				}
				return nil
			}
			if _, err := h.Invoke(context.Background(), []byte(scheduledEvent)); err != nil {
				t.Fatalf("Invoke: %v", err)
			}
			if runs != 1 {
				t.Errorf("the reconciler ran %d times, want 1", runs)
			}
		})
	}
}
