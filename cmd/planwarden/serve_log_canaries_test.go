package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
)

// logCanary is a value no allow-list shows and no detector finds.
func logCanary(id string) string { return "Lq4!z#" + id }

// canaryArtifact is a plan artifact whose plan holds a canary in every
// place a review reads text from (a script, a check message, an output, an
// instance key), or when malformed, in every place a malformed plan's
// error used to quote (an unknown action, an address).
func canaryArtifact(t *testing.T, malformed bool) []byte {
	t.Helper()
	c := logCanary
	good := map[string]any{"format_version": "1.2", "terraform_version": "1.14.0",
		"resource_changes": []any{map[string]any{"address": `aws_instance.gpu["` + c("key") + ` k"]`, "mode": "managed", "type": "aws_instance", "name": "gpu",
			"index": c("key") + " k", "provider_name": "registry.terraform.io/hashicorp/aws",
			"change": map[string]any{"actions": []any{"update"},
				"before":        map[string]any{"instance_type": "p4d.24xlarge", "user_data": "echo old"},
				"after":         map[string]any{"instance_type": "p5.48xlarge", "user_data": "mysql -u app -p" + c("script") + " -h db"},
				"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}},
		"output_changes": map[string]any{"dsn": map[string]any{"actions": []any{"update"}, "before": "x", "after": "rediss://:" + c("output") + "@cache:6380",
			"after_unknown": false, "before_sensitive": false, "after_sensitive": false}},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.db", "name": "db"}, "status": "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.db"}, "status": "fail",
				"problems": []any{map[string]any{"message": "login failed with " + c("check")}}}}}},
	}
	bad := `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.x[\"` + c("address") + ` k\"]","mode":"managed","type":"aws_instance","name":"x",` +
		`"change":{"actions":["create","` + c("action") + `"],"before":null,"after":{}}}]}`
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	files := map[string][]byte{"plan.json": mustJSON(t, good)}
	if malformed {
		files = map[string][]byte{"bad.json": []byte(bad)}
	}
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.Close()
	return zbuf.Bytes()
}

func mustJSON(t *testing.T, x any) []byte {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServeLogsNoPlanText: serve, at log level debug, reviews an artifact
// with canaries in a plan's texts, and one with canaries in a malformed
// plan's error: none reaches its log, its check run or its comment, and
// the review happened (the malformed plan's error is logged).
func TestServeLogsNoPlanText(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		malformed bool
		ids       []string
		logged    string
	}{
		"a plan's texts":           {false, []string{"key", "script", "output", "check"}, `"msg":"check completed"`},
		"a malformed plan's error": {true, []string{"address", "action"}, `is not a list of Terraform's actions`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			logs, seen := reviewThroughServe(t, canaryArtifact(t, tc.malformed))
			if !strings.Contains(logs, tc.logged) {
				t.Errorf("serve's log does not say %q: the test would prove nothing\n%s", tc.logged, logs)
			}
			for _, id := range tc.ids {
				if strings.Contains(logs, logCanary(id)) {
					t.Errorf("the %s canary reached serve's log:\n%s", id, logs)
				}
				if strings.Contains(seen, logCanary(id)) {
					t.Errorf("the %s canary reached the check run or the comment:\n%s", id, seen)
				}
			}
		})
	}
}

// reviewThroughServe runs serve at log level debug, delivers a plan run
// with the artifact, lets the job finish and stops serve: it returns
// serve's log and what the check runs and the comments say.
func reviewThroughServe(t *testing.T, artifact []byte) (string, string) {
	t.Helper()
	gh := githubtest.New(t)
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{addr: "127.0.0.1:0", apiURL: gh.APIURL, dataDir: t.TempDir(), logLevel: slog.LevelDebug}
	cfg.secrets.AppID = githubtest.AppID
	cfg.secrets.PrivateKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	cfg.secrets.WebhookSecret = []byte("s3cret")

	const sha = "5555555555555555555555555555555555555555"
	gh.AddPR(githubtest.PR{Owner: "o", Repo: "r", Number: 4, HeadSHA: sha})
	gh.AddRun(githubtest.Run{Owner: "o", Repo: "r", ID: 78, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml", HeadSHA: sha, Conclusion: "success", PRs: []int{4}})
	gh.AddArtifact("o", "r", 78, "planwarden-gpu", artifact)
	gate := gh.Hold("GET", "/artifacts")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var logs syncLog
	go func() { done <- serve(ctx, cfg, &logs, func(a string) { addr <- a }) }()
	base := "http://" + <-addr

	body := []byte(`{"action":"completed","repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":5},
"workflow_run":{"id":78,"name":"planwarden plan","path":".github/workflows/planwarden-plan.yml","head_sha":"` + sha + `","conclusion":"success","status":"completed","pull_requests":[{"number":4,"head":{"sha":"` + sha + `"}}]}}`)
	if code, err := postWebhook(base, cfg.secrets.WebhookSecret, "workflow_run", "canaries-1", body); err != nil || code != http.StatusAccepted {
		t.Fatalf("workflow_run delivery: %d %v, want 202", code, err)
	}
	select {
	case <-gate.Arrived:
	case <-time.After(time.Minute):
		t.Fatal("the job did not reach the artifact download within a minute")
	}
	cancel() // the worker finishes the job it holds, then serve returns
	gate.Release()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	var seen strings.Builder
	completed := 0
	for _, c := range gh.CheckRuns("o", "r", sha) {
		seen.WriteString(c.Title + c.Summary + c.Text)
		if c.Status == "completed" {
			completed++
		}
	}
	for _, c := range gh.Comments("o", "r", 4) {
		seen.WriteString(c.Body)
	}
	if completed == 0 {
		t.Fatalf("no check run completed: the artifact was not reviewed\n%s", logs.String())
	}
	return logs.String(), seen.String()
}
