package main

import (
	"archive/zip"
	"bytes"
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
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/receiver"
	"github.com/planwarden/planwarden/rules"
)

// TestFirstDayFromNothingToARequiredCheck is the first day of a team: a
// repository with two Terraform root modules (prod's GPU pool, staging's
// serving stack) that share one local module, and no planwarden at all.
// planwarden init writes the config and the plan workflow, validate accepts
// them, they are merged, and the App (against the fake GitHub) then gates
// pull requests with its required check: a change to the shared module
// with the GPU typo (Standard_NC6s_v3 -> Standard_D16s_v5) is blocked, its
// fix passes, and a docs-only pull request passes at once, without a plan.
func TestFirstDayFromNothingToARequiredCheck(t *testing.T) {
	t.Parallel()
	const (
		owner, repo = "acme", "ml-infra"
		shared      = "module \"pool\" {\n  source = \"../../../modules/gpu-pool\"\n}\n"
	)
	root := writeRepo(t, map[string]string{
		"infra/prod/gpu/main.tf":        "terraform {\n  backend \"azurerm\" {}\n}\nprovider \"azurerm\" {\n  features {}\n}\n" + shared,
		"infra/staging/serving/main.tf": "provider \"aws\" {\n  region = \"us-east-1\"\n}\n" + shared,
		"modules/gpu-pool/main.tf":      "variable \"vm_size\" {\n  default = \"Standard_NC6s_v3\"\n}\n",
		"README.md":                     "# ml-infra\n",
	})

	// From nothing: init, then validate.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", root}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("planwarden init: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	cfgFile := filepath.Join(root, filepath.FromSlash(rules.ConfigPath))
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"validate", "--config", cfgFile}, nil, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("planwarden validate: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	cfgData, err := os.ReadFile(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	workflow, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rules.DefaultPlanWorkflow)))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := rules.ParseConfig(rules.ConfigPath, cfgData)
	if err != nil {
		t.Fatal(err)
	}
	for name, env := range map[string]string{"gpu": "prod", "serving": "staging"} {
		if got := cfg.EnvironmentOf(name); got != env {
			t.Fatalf("init declared %s in %q, want %q:\n%s", name, got, env, cfgData)
		}
	}

	// Both files merged on main; the App installed.
	gh := githubtest.New(t)
	gh.SetFile(owner, repo, "main", rules.ConfigPath, cfgData)
	gh.SetFile(owner, repo, "main", rules.DefaultPlanWorkflow, workflow)
	d := newFirstDayApp(t, gh, owner, repo)

	// A pull request changes the shared module with the GPU typo: both
	// projects call it, so both need a plan, and the plan workflow init
	// wrote plans each (redacted, with the metadata it writes).
	const typoSHA, fixSHA, docsSHA = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	d.open(7, typoSHA, "modules/gpu-pool/main.tf")
	if c := d.check(typoSHA); c.Status == "completed" {
		t.Errorf("before any plan the check is completed %s, want it waiting for the plans", c.Conclusion)
	}
	d.planRun(t, 501, 7, typoSHA, map[string]string{"gpu": "aks-gpu-typo.json", "serving": "bucket-lifecycle.json"})
	c := d.check(typoSHA)
	if d.mergeable(c) {
		t.Errorf("the GPU typo passes the required check: %s/%s %q", c.Status, c.Conclusion, c.Title)
	}
	body := d.review(7)
	for _, want := range []string{"gpu-sku-loss", "Standard_NC6s_v3", "Standard_D16s_v5"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment does not say %q:\n%s", want, body)
		}
	}
	for _, unwanted := range []string{"unknown-project", "missing-plan", "No `.github/planwarden.yml` was found"} {
		if strings.Contains(body, unwanted) {
			t.Errorf("the comment says %q (init's config and workflow disagree with the App):\n%s", unwanted, body)
		}
	}

	// The honest twin: the typo fixed, the same projects planned again.
	d.push(7, fixSHA, "modules/gpu-pool/main.tf")
	d.planRun(t, 502, 7, fixSHA, map[string]string{"gpu": "bucket-lifecycle.json", "serving": "bucket-lifecycle.json"})
	if c := d.check(fixSHA); !d.mergeable(c) {
		t.Errorf("the fixed pull request does not pass: %s/%s %q\n%s", c.Status, c.Conclusion, c.Title, c.Summary)
	}

	// A docs-only pull request passes at once: no plan is needed.
	artifactCalls := gh.CallCount("GET", "/artifacts")
	d.open(8, docsSHA, "README.md", "docs/runbook.md")
	if c := d.check(docsSHA); !d.mergeable(c) {
		t.Errorf("a docs-only pull request does not pass: %s/%s %q\n%s", c.Status, c.Conclusion, c.Title, c.Summary)
	}
	if n := gh.CallCount("GET", "/artifacts") - artifactCalls; n != 0 {
		t.Errorf("the docs-only pull request read artifacts %d times, want none", n)
	}
}

// firstDay is the App installed on one repository of the fake GitHub,
// behind its receiver, with a queue the test waits on.
type firstDay struct {
	t           *testing.T
	gh          *githubtest.Server
	owner, repo string
	h           http.Handler
	q           *porttest.MemoryQueue
	secret      []byte
	logs        *syncBuffer
}

func newFirstDayApp(t *testing.T, gh *githubtest.Server, owner, repo string) *firstDay {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	d := &firstDay{t: t, gh: gh, owner: owner, repo: repo, secret: []byte("first-day"), logs: &syncBuffer{}}
	log := slog.New(slog.NewJSONHandler(d.logs, nil))
	store := porttest.NewMemoryStore(nil)
	a, err := app.New(app.Config{
		Secrets:      port.Secrets{AppID: githubtest.AppID, PrivateKeyPEM: pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), WebhookSecret: d.secret},
		GitHubAPIURL: gh.APIURL, Store: store, Logger: log, Transport: http.DefaultTransport,
	})
	if err != nil {
		t.Fatal(err)
	}
	d.q = porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 2})
	rc, err := receiver.New(receiver.Config{WebhookSecret: d.secret, Queue: d.q, Store: store, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	d.h = rc
	d.q.Start(a.Process)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		d.q.Close(ctx)
		if t.Failed() {
			t.Logf("log:\n%s", d.logs.String())
		}
	})
	return d
}

// deliver signs and posts a webhook, then waits for its jobs.
func (d *firstDay) deliver(event, delivery string, payload map[string]any) {
	d.t.Helper()
	payload["repository"] = map[string]any{"id": 1, "name": d.repo, "full_name": d.owner + "/" + d.repo, "owner": map[string]any{"login": d.owner}}
	payload["installation"] = map[string]any{"id": 99}
	body, err := json.Marshal(payload)
	if err != nil {
		d.t.Fatal(err)
	}
	m := hmac.New(sha256.New, d.secret)
	m.Write(body)
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	rec := httptest.NewRecorder()
	d.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusAccepted {
		d.t.Fatalf("%s delivery: %d %s", event, rec.Code, rec.Body.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := d.q.Wait(ctx); err != nil {
		d.t.Fatalf("the queue did not drain: %v", err)
	}
}

func (d *firstDay) prEvent(action string, pr int, sha string) map[string]any {
	return map[string]any{"action": action, "number": pr, "sender": map[string]any{"login": "alice"},
		"pull_request": map[string]any{"number": pr, "head": map[string]any{"sha": sha, "ref": fmt.Sprintf("feature-%d", pr)}, "base": map[string]any{"ref": "main"}}}
}

// open puts pull request pr on the fake with the files it changes, as
// GitHub does when it is opened, and announces it.
func (d *firstDay) open(pr int, sha string, files ...string) {
	d.t.Helper()
	d.gh.AddPR(githubtest.PR{Owner: d.owner, Repo: d.repo, Number: pr, HeadSHA: sha, Author: "alice", Files: githubtest.Changed(files...)})
	d.deliver("pull_request", fmt.Sprintf("opened-%d", pr), d.prEvent("opened", pr, sha))
}

// push moves pull request pr to a new head.
func (d *firstDay) push(pr int, sha string, files ...string) {
	d.t.Helper()
	d.gh.AddPR(githubtest.PR{Owner: d.owner, Repo: d.repo, Number: pr, HeadSHA: sha, Author: "alice", Files: githubtest.Changed(files...)})
	d.deliver("pull_request", "sync-"+sha, d.prEvent("synchronize", pr, sha))
}

// planRun is a run of the plan workflow init wrote, as its steps leave
// it: for each project (name -> example plan), planwarden redact's output
// as plan.json and the metadata file, uploaded as planwarden-<project>.
func (d *firstDay) planRun(t *testing.T, id int64, pr int, sha string, plans map[string]string) {
	t.Helper()
	d.gh.AddRun(githubtest.Run{Owner: d.owner, Repo: d.repo, ID: id, Name: "planwarden plan", Path: rules.DefaultPlanWorkflow,
		HeadSHA: sha, Conclusion: "success", PRs: []int{pr}})
	for project, example := range plans {
		var redacted, stderr bytes.Buffer
		if code := run([]string{"redact", filepath.Join("..", "..", "examples", "plans", example)}, nil, &redacted, &stderr); code != exitOK {
			t.Fatalf("planwarden redact %s: exit %d %s", example, code, stderr.String())
		}
		var zbuf bytes.Buffer
		zw := zip.NewWriter(&zbuf)
		for name, data := range map[string][]byte{"plan.json": redacted.Bytes(), "planwarden-metadata.json": fmt.Appendf(nil, "{\"project\":%q}\n", project)} {
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		d.gh.AddArtifact(d.owner, d.repo, id, "planwarden-"+project, zbuf.Bytes())
	}
	d.deliver("workflow_run", fmt.Sprintf("run-%d", id), map[string]any{"action": "completed", "workflow_run": map[string]any{
		"id": id, "name": "planwarden plan", "path": rules.DefaultPlanWorkflow, "run_attempt": 1, "event": "pull_request",
		"head_sha": sha, "head_branch": fmt.Sprintf("feature-%d", pr), "status": "completed", "conclusion": "success",
		"pull_requests":  []any{map[string]any{"number": pr, "head": map[string]any{"sha": sha}}},
		"run_started_at": time.Now().UTC().Format(time.RFC3339),
		"html_url":       fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", d.owner, d.repo, id),
	}})
}

// check is the newest check run named planwarden on sha: the one branch
// protection reads when the check is required.
func (d *firstDay) check(sha string) githubtest.CheckRun {
	d.t.Helper()
	var last *githubtest.CheckRun
	for _, c := range d.gh.CheckRuns(d.owner, d.repo, sha) {
		if c.Name == port.CheckName {
			last = &c
		}
	}
	if last == nil {
		d.t.Fatalf("no %s check on %s", port.CheckName, sha[:7])
	}
	return *last
}

// mergeable is what branch protection decides of a required check: it
// passes when completed as success, neutral or skipped.
func (d *firstDay) mergeable(c githubtest.CheckRun) bool {
	return c.Status == "completed" && (c.Conclusion == "success" || c.Conclusion == "neutral" || c.Conclusion == "skipped")
}

// review is planwarden's comment on pull request pr.
func (d *firstDay) review(pr int) string {
	d.t.Helper()
	for _, c := range d.gh.Comments(d.owner, d.repo, pr) {
		if c.User == githubtest.BotLogin && strings.HasPrefix(c.Body, "<!-- planwarden:comment") {
			return c.Body
		}
	}
	d.t.Fatalf("no planwarden comment on #%d", pr)
	return ""
}
