package app_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"hash/crc32"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/receiver"
	"github.com/planwarden/planwarden/app/run"
)

const (
	owner  = "octo-org"
	repo   = "ml-infra"
	secret = "it's a secret to everybody"
	instID = 4242
)

var (
	keyOnce sync.Once
	keyPEM  []byte
)

// testKey is one RSA key per test binary: the App's private key.
func testKey(t testing.TB) []byte {
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		keyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	})
	return keyPEM
}

// fakeClock is the retry policy's clock: Pause advances it instead of
// sleeping, and records each wait.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) Pause(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
}

func (c *fakeClock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// syncBuffer collects the JSON log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type harness struct {
	t     testing.TB
	gh    *githubtest.Server
	app   *app.App
	q     *porttest.MemoryQueue
	h     http.Handler
	clock *fakeClock
	logs  *syncBuffer
}

func newHarness(t testing.TB, opts ...func(*app.Config)) *harness {
	t.Helper()
	gh := githubtest.New(t)
	clock := &fakeClock{now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	logs := &syncBuffer{}
	// Like serve's queue: a failing job runs again, and a job failing
	// every attempt is given up (App.GiveUp).
	var worker *app.App
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 4, MaxAttempts: 3,
		Dead: func(ctx context.Context, j job.Job, cause error) error { return worker.GiveUp(ctx, j, cause) }})
	cfg := app.Config{
		Secrets:      port.Secrets{AppID: githubtest.AppID, PrivateKeyPEM: testKey(t), WebhookSecret: []byte(secret)},
		GitHubAPIURL: gh.APIURL,
		Logger:       slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Transport:    http.DefaultTransport,
		Retry:        github.RetryPolicy{Now: clock.Now, Pause: clock.Pause},
		Limits:       run.Limits{MaxTotal: 64 << 20},
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.Store == nil {
		cfg.Store = porttest.NewMemoryStore(cfg.Now) // one store: the receiver's delivery ids, the worker's PR state
	}
	a, err := app.New(cfg)
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	worker = a
	rc, err := receiver.New(receiver.Config{WebhookSecret: cfg.Secrets.WebhookSecret, Queue: q, Store: cfg.Store, Logger: cfg.Logger, Now: cfg.Now})
	if err != nil {
		t.Fatalf("receiver.New: %v", err)
	}
	q.Start(a.Process)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := q.Close(ctx); err != nil {
			t.Errorf("close queue: %v", err)
		}
		if t.Failed() {
			t.Logf("log:\n%s", logs.String())
		}
	})
	return &harness{t: t, gh: gh, app: a, q: q, h: rc, clock: clock, logs: logs}
}

func sign(body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// post sends a webhook with the given signature and returns the status.
func (h *harness) post(event, delivery string, body []byte, sig string) int {
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	if sig != "" {
		req.Header.Set("X-Hub-Signature-256", sig)
	}
	rec := httptest.NewRecorder()
	h.h.ServeHTTP(rec, req)
	return rec.Code
}

// deliver sends a correctly signed webhook and waits for its job.
func (h *harness) deliver(event, delivery string, payload any) int {
	h.t.Helper()
	body, err := json.Marshal(payload)
	if err != nil {
		h.t.Fatal(err)
	}
	code := h.post(event, delivery, body, sign(body))
	h.wait()
	return code
}

func (h *harness) wait() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := h.q.Wait(ctx); err != nil {
		h.t.Fatalf("queue did not drain: %v", err)
	}
}

func repository() map[string]any {
	return map[string]any{"id": 1, "name": repo, "full_name": owner + "/" + repo, "owner": map[string]any{"login": owner}}
}

func installation() map[string]any { return map[string]any{"id": instID} }

func pullRequestEvent(action string, pr int, sha string) map[string]any {
	return map[string]any{
		"action": action, "number": pr, "repository": repository(), "installation": installation(),
		"pull_request": map[string]any{"number": pr, "head": map[string]any{"sha": sha, "ref": fmt.Sprintf("feature-%d", pr)}, "base": map[string]any{"ref": "main"}},
		"sender":       map[string]any{"login": "alice"},
	}
}

type runOpt struct {
	conclusion string
	noPRs      bool
	started    time.Time
}

func workflowRunEvent(runID int64, pr int, sha string, o runOpt) map[string]any {
	if o.conclusion == "" {
		o.conclusion = "success"
	}
	if o.started.IsZero() {
		o.started = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	}
	prs := []any{map[string]any{"number": pr, "head": map[string]any{"sha": sha}}}
	if o.noPRs {
		prs = []any{}
	}
	return map[string]any{
		"action": "completed", "repository": repository(), "installation": installation(),
		"workflow_run": map[string]any{
			"id": runID, "name": "planwarden plan", "path": ".github/workflows/planwarden-plan.yml",
			"head_sha": sha, "head_branch": fmt.Sprintf("feature-%d", pr), "status": "completed", "conclusion": o.conclusion,
			"pull_requests": prs, "run_started_at": o.started.Format(time.RFC3339),
			"html_url": fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", owner, repo, runID),
		},
	}
}

// zipOf builds an artifact zip; entries are written in the order given.
func zipOf(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type entry struct {
	name string
	data []byte
}

// planWorkflow is the default plan workflow: its runs are the trusted ones.
const planWorkflow = ".github/workflows/planwarden-plan.yml"

// stackConfig is a base-branch config that declares the project "stack"
// (the name the harness's artifacts carry) in env.
func stackConfig(env string) string {
	return fmt.Sprintf("version: 1\nprojects:\n  - {name: stack, environment: %s}\n", env)
}

func metadata(project, env string) entry {
	return entry{"planwarden-metadata.json", fmt.Appendf(nil, `{"project":%q,"environment":%q}`, project, env)}
}

func examplePlan(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../examples/plans/" + name)
	if err != nil {
		t.Skipf("example plan %s: %v", name, err)
	}
	return data
}

// withTimestamp returns the plan with its "timestamp" set to ts.
func withTimestamp(t testing.TB, plan []byte, ts time.Time) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(plan, &m); err != nil {
		t.Fatal(err)
	}
	m["timestamp"], _ = json.Marshal(ts.UTC().Format(time.RFC3339))
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// openPR puts a PR on the fake and announces it, as GitHub does on push.
func (h *harness) openPR(pr int, sha string) {
	h.t.Helper()
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: pr, HeadSHA: sha, Files: githubtest.Changed("infra/main.tf")})
	if code := h.deliver("pull_request", fmt.Sprintf("pr-%d-%s", pr, sha), pullRequestEvent("opened", pr, sha)); code != http.StatusAccepted {
		h.t.Fatalf("pull_request delivery: status %d", code)
	}
}

// planRun adds a finished run with one plan artifact and delivers it.
func (h *harness) planRun(delivery string, runID int64, pr int, sha string, zipData []byte, o runOpt) int {
	h.t.Helper()
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: runID, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: sha, Conclusion: orDefault(o.conclusion, "success"), PRs: []int{pr}, StartedAt: o.started})
	if zipData != nil {
		h.gh.AddArtifact(owner, repo, runID, "planwarden-stack", zipData)
	}
	return h.deliver("workflow_run", delivery, workflowRunEvent(runID, pr, sha, o))
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// planwardenCheck returns the one planwarden check run on sha.
func (h *harness) planwardenCheck(sha string) githubtest.CheckRun {
	h.t.Helper()
	var found []githubtest.CheckRun
	for _, c := range h.gh.CheckRuns(owner, repo, sha) {
		if c.Name == port.CheckName {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		h.t.Fatalf("%d planwarden check runs on %s, want 1: %+v", len(found), sha, found)
	}
	return found[0]
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// lyingZip holds one deflated entry whose header claims `claims` bytes.
func lyingZip(t testing.TB, name string, data []byte, claims uint64) []byte {
	t.Helper()
	var comp bytes.Buffer
	fw, err := flate.NewWriter(&comp, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: claims})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	return buf.Bytes()
}

func manyEntries(t testing.TB, n int) []byte {
	var es []entry
	for i := range n {
		es = append(es, entry{fmt.Sprintf("p%d.json", i), []byte("{}")})
	}
	return zipOf(t, es...)
}

// rerun presses "Re-run" on the planwarden check of sha.
func (h *harness) rerun(sha string) { h.rerunBy("alice", sha) }

// rerunBy is rerun pressed by user (GitHub's payloads differ by sender).
func (h *harness) rerunBy(user, sha string) {
	h.t.Helper()
	check := h.planwardenCheck(sha)
	h.deliver("check_run", fmt.Sprintf("rerun-%d-%d-%s", check.ID, check.Updates, user), map[string]any{
		"action": "rerequested", "repository": repository(), "installation": installation(), "sender": map[string]any{"login": user},
		"check_run": map[string]any{"id": check.ID, "name": "planwarden", "head_sha": sha, "external_id": check.ExternalID,
			"pull_requests": []any{map[string]any{"number": 7}}},
	})
}
