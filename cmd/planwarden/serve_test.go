package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
)

func TestServeEnvNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	full := map[string]string{
		"PLANWARDEN_APP_ID":         "123",
		"PLANWARDEN_PRIVATE_KEY":    "-----BEGIN RSA PRIVATE KEY-----\nS0VZTUFURVJJQUw=\n-----END RSA PRIVATE KEY-----\n",
		"PLANWARDEN_WEBHOOK_SECRET": "hush-hush",
	}
	tests := map[string]struct {
		set     map[string]string
		unset   []string
		wantErr string
	}{
		"no app id":                  {unset: []string{"PLANWARDEN_APP_ID"}, wantErr: "PLANWARDEN_APP_ID is not set"},
		"app id not a number":        {set: map[string]string{"PLANWARDEN_APP_ID": "my-app"}, wantErr: "PLANWARDEN_APP_ID is not a positive number"},
		"no private key":             {unset: []string{"PLANWARDEN_PRIVATE_KEY"}, wantErr: "PLANWARDEN_PRIVATE_KEY (PEM) or PLANWARDEN_PRIVATE_KEY_FILE is not set"},
		"both keys":                  {set: map[string]string{"PLANWARDEN_PRIVATE_KEY_FILE": "/k.pem"}, wantErr: "both PLANWARDEN_PRIVATE_KEY and PLANWARDEN_PRIVATE_KEY_FILE"},
		"key file unreadable":        {set: map[string]string{"PLANWARDEN_PRIVATE_KEY_FILE": "/nope.pem"}, unset: []string{"PLANWARDEN_PRIVATE_KEY"}, wantErr: "PLANWARDEN_PRIVATE_KEY_FILE: cannot read /nope.pem"},
		"no webhook secret":          {unset: []string{"PLANWARDEN_WEBHOOK_SECRET"}, wantErr: "PLANWARDEN_WEBHOOK_SECRET is not set"},
		"everything, defaults":       {},
		"key not PEM":                {set: map[string]string{"PLANWARDEN_PRIVATE_KEY": "ghp_notakey"}, wantErr: "PLANWARDEN_PRIVATE_KEY does not hold a PEM private key"},
		"key from a file works":      {set: map[string]string{"PLANWARDEN_PRIVATE_KEY_FILE": "/k.pem"}, unset: []string{"PLANWARDEN_PRIVATE_KEY"}},
		"memory budget not a number": {set: map[string]string{"PLANWARDEN_MEMORY_BUDGET_MB": "lots"}, wantErr: `PLANWARDEN_MEMORY_BUDGET_MB="lots": want a number of megabytes`},
		"memory budget too small":    {set: map[string]string{"PLANWARDEN_MEMORY_BUDGET_MB": "8"}, wantErr: "at least 64"},
		"max attempts zero":          {set: map[string]string{"PLANWARDEN_MAX_ATTEMPTS": "0"}, wantErr: `PLANWARDEN_MAX_ATTEMPTS="0"`},
		"retry base negative":        {set: map[string]string{"PLANWARDEN_RETRY_BASE_SECONDS": "-1"}, wantErr: `PLANWARDEN_RETRY_BASE_SECONDS="-1"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range full {
				env[k] = v
			}
			for k, v := range tc.set {
				env[k] = v
			}
			for _, k := range tc.unset {
				delete(env, k)
			}
			readFile := func(name string) ([]byte, error) {
				if name == "/k.pem" {
					return []byte("-----BEGIN RSA PRIVATE KEY-----\nS0VZTUFURVJJQUw=\n-----END RSA PRIVATE KEY-----\n"), nil
				}
				return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
			}
			cfg, err := serveEnv(func(k string) string { return env[k] }, readFile)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("serveEnv: %v", err)
				}
				if cfg.addr != ":8080" || cfg.apiURL != "https://api.github.com/" || cfg.secrets.AppID != 123 || cfg.dataDir != "./planwarden-data" || cfg.memoryBudget != 1<<30 {
					t.Errorf("config %+v: want :8080, https://api.github.com/, app 123, ./planwarden-data, 1 GiB budget", cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
			for _, secret := range []string{"hush-hush", "KEYMATERIAL"} {
				if strings.Contains(err.Error(), secret) && !strings.Contains(tc.wantErr, secret) {
					t.Errorf("error %q shows a secret", err)
				}
			}
		})
	}
}

func TestServeRefusesWithoutSecretOnTheCommandLine(t *testing.T) {
	t.Setenv("PLANWARDEN_APP_ID", "1")
	t.Setenv("PLANWARDEN_PRIVATE_KEY", "-----BEGIN RSA PRIVATE KEY-----\nS0VZTUFURVJJQUw=\n-----END RSA PRIVATE KEY-----\n")
	t.Setenv("PLANWARDEN_WEBHOOK_SECRET", "")
	var stderr bytes.Buffer
	if code := run([]string{"serve"}, nil, io.Discard, &stderr); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "PLANWARDEN_WEBHOOK_SECRET is not set") {
		t.Errorf("stderr %q, want it to name PLANWARDEN_WEBHOOK_SECRET", stderr.String())
	}
}

func TestServeAnswersAndShutsDown(t *testing.T) {
	t.Parallel()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{addr: "127.0.0.1:0", apiURL: "http://127.0.0.1:1/api/v3/", dataDir: t.TempDir()}
	cfg.secrets.AppID = 1
	cfg.secrets.PrivateKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	cfg.secrets.WebhookSecret = []byte("s3cret")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var logs bytes.Buffer
	go func() { done <- serve(ctx, cfg, &logs, func(a string) { addr <- a }) }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz: %d, want 200", resp.StatusCode)
	}
	body := []byte(`{"zen":"Keep it logically awesome.","hook_id":1}`)
	for name, want := range map[string]int{"signed": http.StatusOK, "unsigned": http.StatusUnauthorized} {
		var secret []byte
		if name == "signed" {
			secret = cfg.secrets.WebhookSecret
		}
		code, err := postWebhook(base, secret, "ping", "d-1", body)
		if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Errorf("%s ping: %d, want %d", name, code, want)
		}
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("serve after shutdown: %v", err)
	}
	if strings.Contains(logs.String(), "s3cret") || strings.Contains(logs.String(), "PRIVATE KEY") {
		t.Errorf("the log shows a secret:\n%s", logs.String())
	}
}

func TestServeDrainsTheQueueOnShutdown(t *testing.T) {
	t.Parallel()
	gh := githubtest.New(t)
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{addr: "127.0.0.1:0", apiURL: gh.APIURL, dataDir: t.TempDir()}
	cfg.secrets.AppID = githubtest.AppID
	cfg.secrets.PrivateKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	cfg.secrets.WebhookSecret = []byte("s3cret")

	const sha = "4444444444444444444444444444444444444444"
	plan, err := os.ReadFile("../../examples/plans/bucket-lifecycle.json")
	if err != nil {
		t.Skipf("example plan: %v", err)
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("plan.json")
	w.Write(plan)
	zw.Close()
	gh.AddPR(githubtest.PR{Owner: "o", Repo: "r", Number: 3, HeadSHA: sha})
	gh.AddRun(githubtest.Run{Owner: "o", Repo: "r", ID: 77, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml", HeadSHA: sha, Conclusion: "success", PRs: []int{3}})
	gh.AddArtifact("o", "r", 77, "planwarden-bucket", zbuf.Bytes())
	gate := gh.Hold("GET", "/artifacts")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var logs syncLog
	go func() { done <- serve(ctx, cfg, &logs, func(a string) { addr <- a }) }()
	base := "http://" + <-addr
	defer func() {
		if t.Failed() {
			t.Logf("serve log:\n%s", logs.String())
		}
	}()

	body := []byte(`{"action":"completed","repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":5},
"workflow_run":{"id":77,"name":"planwarden plan","path":".github/workflows/planwarden-plan.yml","head_sha":"` + sha + `","conclusion":"success","status":"completed","pull_requests":[{"number":3,"head":{"sha":"` + sha + `"}}]}}`)
	if code, err := postWebhook(base, cfg.secrets.WebhookSecret, "workflow_run", "drain-1", body); err != nil || code != http.StatusAccepted {
		t.Fatalf("workflow_run delivery: %d %v, want 202", code, err)
	}
	select {
	case <-gate.Arrived: // the worker is mid-job
	case <-time.After(time.Minute):
		t.Fatal("the job did not reach the artifact download within a minute")
	}
	cancel() // SIGTERM
	gate.Release()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	var completed []githubtest.CheckRun
	for _, c := range gh.CheckRuns("o", "r", sha) {
		if c.Status == "completed" {
			completed = append(completed, c)
		}
	}
	if len(completed) != 1 || completed[0].Conclusion != "success" {
		t.Errorf("checks after shutdown %+v, want the job finished: one completed success", gh.CheckRuns("o", "r", sha))
	}
	if n := len(gh.Comments("o", "r", 3)); n != 1 {
		t.Errorf("%d comments after shutdown, want 1", n)
	}
}

// syncLog collects serve's log across its goroutines.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) { l.mu.Lock(); defer l.mu.Unlock(); return l.b.Write(p) }
func (l *syncLog) String() string              { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// runServeFor runs serve with cfg until the test ends; it returns the base
// URL and the log.
func runServeFor(t *testing.T, cfg serveConfig) (string, *syncBuffer) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	cfg.addr, cfg.dataDir = "127.0.0.1:0", t.TempDir()
	cfg.secrets.AppID = 1
	cfg.secrets.PrivateKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	cfg.secrets.WebhookSecret = []byte("s3cret")
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	logs := &syncBuffer{}
	go func() { done <- serve(ctx, cfg, logs, func(a string) { addr <- a }) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-addr:
		return "http://" + a, logs
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	}
	return "", nil
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
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

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeReadinessAndMetrics(t *testing.T) {
	t.Parallel()
	gh := httptest.NewServer(http.NotFoundHandler()) // GitHub answers (a 404 is an answer)
	defer gh.Close()
	base, logs := runServeFor(t, serveConfig{apiURL: gh.URL + "/api/v3/", logLevel: slog.LevelWarn})
	if code, body := get(t, base+"/readyz"); code != http.StatusOK || strings.TrimSpace(body) != "ready" {
		t.Errorf("GET /readyz with GitHub and the store up: %d %q", code, body)
	}
	body := []byte(`{"zen":"Keep it logically awesome.","hook_id":1}`)
	for _, signed := range []bool{true, false, false} {
		var secret []byte
		if signed {
			secret = []byte("s3cret")
		}
		if _, err := postWebhook(base, secret, "ping", "d-1", body); err != nil {
			t.Fatal(err)
		}
	}
	code, metrics := get(t, base+"/metrics")
	for _, want := range []string{
		`planwarden_webhook_deliveries_total{event="ping",outcome="ping"} 1`,
		`planwarden_webhook_deliveries_total{event="-",outcome="refused"} 2`,
		`planwarden_queue_depth 0`,
	} {
		if code != http.StatusOK || !strings.Contains(metrics, want+"\n") {
			t.Errorf("GET /metrics (%d) lacks %q", code, want)
		}
	}
	// PLANWARDEN_LOG_LEVEL=warn: the refusals are logged, the start-up line is not.
	if l := logs.String(); strings.Contains(l, `"msg":"serving"`) || !strings.Contains(l, "webhook refused") {
		t.Errorf("log at level warn:\n%s", l)
	}

	down, _ := runServeFor(t, serveConfig{apiURL: "http://127.0.0.1:1/api/v3/"})
	if code, body := get(t, down+"/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "github: http://127.0.0.1:1/api/v3/") || strings.Contains(body, "store:") {
		t.Errorf("GET /readyz with GitHub unreachable: %d %q (want 503 naming GitHub, not the store)", code, body)
	}
}

func TestServeLogLevel(t *testing.T) {
	t.Parallel()
	env := map[string]string{"PLANWARDEN_APP_ID": "1", "PLANWARDEN_PRIVATE_KEY": string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("x")})), "PLANWARDEN_WEBHOOK_SECRET": "s"}
	for level, want := range map[string]slog.Level{"debug": slog.LevelDebug, "WARN": slog.LevelWarn, "": slog.LevelInfo} {
		env["PLANWARDEN_LOG_LEVEL"] = level
		c, err := serveEnv(func(k string) string { return env[k] }, os.ReadFile)
		if err != nil || c.logLevel != want {
			t.Errorf("PLANWARDEN_LOG_LEVEL=%q: level %v, err %v; want %v", level, c.logLevel, err, want)
		}
	}
	env["PLANWARDEN_LOG_LEVEL"] = "loud"
	if _, err := serveEnv(func(k string) string { return env[k] }, os.ReadFile); err == nil || !strings.Contains(err.Error(), "PLANWARDEN_LOG_LEVEL") {
		t.Errorf("a bad level: %v", err)
	}
}
