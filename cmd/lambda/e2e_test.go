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
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// stack is one deployment of template.yaml on moto: the resources, the
// two functions' environments, and an SQS trigger to drive the worker.
type stack struct {
	aws   *pwaws.Clients
	queue awstest.FIFOQueue
	env   map[string]string // shared PLANWARDEN_* settings
}

var (
	rsaOnce sync.Once
	rsaPEM  string
)

// appKeyPEM is an App private key for the tests (the fake GitHub accepts
// any JWT, but the App must be able to sign one).
func appKeyPEM(t testing.TB) string {
	rsaOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		rsaPEM = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
	})
	return rsaPEM
}

func newStack(t testing.TB, githubAPIURL string, maxReceives int) *stack {
	t.Helper()
	// The functions load their AWS config from the environment, as in Lambda.
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": awstest.URL(t), "AWS_REGION": awstest.Region,
		"AWS_ACCESS_KEY_ID": awstest.AccessKeyID, "AWS_SECRET_ACCESS_KEY": awstest.SecretAccessKey,
		"AWS_SESSION_TOKEN": "", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
		"AWS_EC2_METADATA_DISABLED": "true",
	} {
		t.Setenv(k, v)
	}
	s := &stack{aws: awstest.Clients(t)}
	s.queue = awstest.Queue(t, s.aws.SQS, maxReceives)
	s.env = map[string]string{
		"PLANWARDEN_APP_ID":            fmt.Sprint(githubtest.AppID), // the fake lists only its App's check runs
		"PLANWARDEN_WEBHOOK_SECRET_ID": awstest.Secret(t, s.aws.Secrets, testWebhookSecret),
		"PLANWARDEN_PRIVATE_KEY_ID":    awstest.Secret(t, s.aws.Secrets, appKeyPEM(t)),
		"PLANWARDEN_QUEUE_URL":         s.queue.URL,
		"PLANWARDEN_TABLE":             awstest.Table(t, s.aws.DynamoDB),
		"PLANWARDEN_GITHUB_API_URL":    githubAPIURL,
		"PLANWARDEN_MAX_RECEIVE_COUNT": fmt.Sprint(maxReceives),
		// Failed jobs come back at once, so tests need not wait.
		"PLANWARDEN_RETRY_BASE_SECONDS": "0",
	}
	return s
}

// function cold-starts the binary's handler in one role, logging into logs.
func (s *stack) function(t testing.TB, role string, logs io.Writer) *handler {
	t.Helper()
	getenv := func(k string) string {
		if k == "PLANWARDEN_ROLE" {
			return role
		}
		return s.env[k]
	}
	h, err := setup(context.Background(), getenv, slog.New(slog.NewJSONHandler(logs, nil)))
	if err != nil {
		t.Fatalf("%s cold start: %v", role, err)
	}
	return h
}

// trigger does what Lambda's SQS event source mapping does, once: receive
// a batch, invoke the worker, delete what succeeded, leave the
// batchItemFailures (the worker has set when they come back). It returns
// how many messages it received.
func (s *stack) trigger(t testing.TB, worker *handler) int {
	t.Helper()
	msgs := awstest.Receive(t, s.aws.SQS, s.queue.URL, 10)
	if len(msgs) == 0 {
		return 0
	}
	ev := events.SQSEvent{}
	byID := map[string]awstest.Message{}
	for _, m := range msgs {
		ev.Records = append(ev.Records, events.SQSMessage{
			MessageId: m.ID, ReceiptHandle: m.ReceiptHandle, Body: m.Body, Md5OfBody: m.MD5OfBody,
			Attributes: m.Attributes, EventSource: "aws:sqs", AWSRegion: awstest.Region,
			EventSourceARN: "arn:aws:sqs:us-east-1:123456789012:" + s.queue.URL[strings.LastIndex(s.queue.URL, "/")+1:],
		})
		byID[m.ID] = m
	}
	payload, _ := json.Marshal(ev)
	res, err := worker.Invoke(context.Background(), payload)
	if err != nil {
		t.Fatalf("worker invocation failed (the whole batch would be retried): %v", err)
	}
	var resp events.SQSEventResponse
	if err := json.Unmarshal(res, &resp); err != nil {
		t.Fatalf("worker response %s: %v", res, err)
	}
	for _, f := range resp.BatchItemFailures {
		delete(byID, f.ItemIdentifier)
	}
	for _, m := range byID {
		awstest.Delete(t, s.aws.SQS, s.queue.URL, m)
	}
	return len(msgs)
}

// drain triggers the worker until the queue is empty (at most rounds times).
func (s *stack) drain(t testing.TB, worker *handler, rounds int) {
	t.Helper()
	for range rounds {
		if s.trigger(t, worker) == 0 {
			return
		}
	}
	t.Fatalf("the queue is not empty after %d worker rounds", rounds)
}

// functionURLEvent is a Function URL request carrying a signed delivery,
// shaped like testdata/function-url-webhook.json.
func functionURLEvent(t testing.TB, event, delivery string, body []byte, secret string) []byte {
	t.Helper()
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	ev := events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: "/webhook",
		Headers: map[string]string{
			"content-type": "application/json", "user-agent": "GitHub-Hookshot/a1b2c3d",
			"x-github-event": event, "x-github-delivery": delivery,
			"x-hub-signature-256": "sha256=" + hex.EncodeToString(mac.Sum(nil)),
			"host":                "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws",
		},
		RequestContext: events.LambdaFunctionURLRequestContext{
			DomainName: "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws", RequestID: delivery,
			HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{Method: "POST", Path: "/webhook", SourceIP: "140.82.115.1"},
		},
		Body: string(body),
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func invokeHTTP(t testing.TB, receiver *handler, payload []byte) events.LambdaFunctionURLResponse {
	t.Helper()
	out, err := receiver.Invoke(context.Background(), payload)
	if err != nil {
		t.Fatalf("receiver invocation: %v", err)
	}
	var resp events.LambdaFunctionURLResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

const (
	e2eSHA   = "6dcb09b5b57875f334f61aebed695e2e4193db5e"
	e2eRunID = 30433642
)

func planZip(t testing.TB) []byte {
	t.Helper()
	plan, err := os.ReadFile("../../examples/plans/aks-gpu-typo.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("aks-gpu.json")
	w.Write(plan)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func repoJSON() map[string]any {
	return map[string]any{"id": 1296269, "name": "infra", "full_name": "octo/infra", "owner": map[string]any{"login": "octo"}, "default_branch": "main"}
}

func pullRequestOpened(t testing.TB) []byte {
	b, _ := json.Marshal(map[string]any{
		"action": "opened", "number": 7,
		"pull_request": map[string]any{"number": 7, "state": "open", "head": map[string]any{"ref": "gpu-pool", "sha": e2eSHA}, "base": map[string]any{"ref": "main"}},
		"repository":   repoJSON(), "installation": map[string]any{"id": 42}, "sender": map[string]any{"login": "octocat"},
	})
	return b
}

func workflowRunCompleted(t testing.TB) []byte {
	b, _ := json.Marshal(map[string]any{
		"action": "completed",
		"workflow_run": map[string]any{
			"id": e2eRunID, "name": "plan", "path": ".github/workflows/planwarden-plan.yml", "head_sha": e2eSHA, "head_branch": "gpu-pool",
			"status": "completed", "conclusion": "success", "run_started_at": "2026-12-02T10:00:00Z",
			"html_url":      "https://github.com/octo/infra/actions/runs/30433642",
			"pull_requests": []any{map[string]any{"number": 7, "head": map[string]any{"sha": e2eSHA, "ref": "gpu-pool"}, "base": map[string]any{"ref": "main"}}},
		},
		"repository": repoJSON(), "installation": map[string]any{"id": 42}, "sender": map[string]any{"login": "octocat"},
	})
	return b
}

func newFakeGitHub(t testing.TB) *githubtest.Server {
	gh := githubtest.New(t)
	gh.AddPR(githubtest.PR{Owner: "octo", Repo: "infra", Number: 7, HeadSHA: e2eSHA, HeadRef: "gpu-pool"})
	gh.AddRun(githubtest.Run{Owner: "octo", Repo: "infra", ID: e2eRunID, Name: "plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: e2eSHA, HeadBranch: "gpu-pool", Conclusion: "success", PRs: []int{7}, StartedAt: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)})
	gh.AddArtifact("octo", "infra", e2eRunID, "planwarden-aks-gpu", planZip(t))
	return gh
}

// A signed webhook through the Lambda HTTP handler, into SQS on moto,
// through the SQS handler, to the fake GitHub.
func TestEndToEndThroughLambdaHandlers(t *testing.T) {
	gh := newFakeGitHub(t)
	s := newStack(t, gh.APIURL, 3)
	var receiverLogs, workerLogs bytes.Buffer
	receiver := s.function(t, roleReceiver, &receiverLogs)
	worker := s.function(t, roleWorker, &workerLogs)

	for _, d := range []struct {
		event, delivery string
		body            []byte
	}{
		{"pull_request", "11111111-0000-4000-8000-000000000001", pullRequestOpened(t)},
		{"workflow_run", "11111111-0000-4000-8000-000000000002", workflowRunCompleted(t)},
	} {
		resp := invokeHTTP(t, receiver, functionURLEvent(t, d.event, d.delivery, d.body, testWebhookSecret))
		if resp.StatusCode != 202 {
			t.Fatalf("%s delivery: %d %q, want 202 queued\n%s", d.event, resp.StatusCode, resp.Body, receiverLogs.String())
		}
	}
	if got := gh.Calls(); len(got) != 0 {
		t.Errorf("the receiver called GitHub: %v", got)
	}

	t.Run("a redelivery is acknowledged and not queued", func(t *testing.T) {
		resp := invokeHTTP(t, receiver, functionURLEvent(t, "workflow_run", "11111111-0000-4000-8000-000000000002", workflowRunCompleted(t), testWebhookSecret))
		if resp.StatusCode != 200 || !strings.Contains(resp.Body, "duplicate") {
			t.Errorf("redelivery: %d %q, want 200 duplicate", resp.StatusCode, resp.Body)
		}
	})
	t.Run("a forged signature is refused", func(t *testing.T) {
		resp := invokeHTTP(t, receiver, functionURLEvent(t, "workflow_run", "11111111-0000-4000-8000-000000000003", workflowRunCompleted(t), "not the secret"))
		if resp.StatusCode != 401 {
			t.Errorf("forged delivery: %d %q, want 401", resp.StatusCode, resp.Body)
		}
	})
	if visible, inFlight := awstest.Depth(t, s.aws.SQS, s.queue.URL); visible != "2" || inFlight != "0" {
		t.Fatalf("queue holds %s visible and %s in-flight jobs, want 2 and 0: the two signed, new deliveries", visible, inFlight)
	}

	s.drain(t, worker, 5)

	comments := gh.Comments("octo", "infra", 7)
	if len(comments) != 1 {
		t.Fatalf("PR comments = %d, want 1\nworker log:\n%s", len(comments), workerLogs.String())
	}
	if !strings.Contains(comments[0].Body, "azurerm_kubernetes_cluster_node_pool") {
		t.Errorf("the comment does not review the plan:\n%.600s", comments[0].Body)
	}
	checks := gh.CheckRuns("octo", "infra", e2eSHA)
	if len(checks) != 1 {
		t.Fatalf("check runs on the head = %d (%+v), want 1", len(checks), checks)
	}
	if c := checks[0]; c.Name != port.CheckName || c.Status != "completed" || c.Conclusion == "" {
		t.Errorf("check run = %s %s/%s, want planwarden completed with a conclusion", c.Name, c.Status, c.Conclusion)
	}
	t.Logf("check %s: %s; %q", checks[0].Conclusion, checks[0].Title, strings.SplitN(comments[0].Body, "\n", 3)[0])
}

// A job that fails on every receive reaches the dead-letter queue after
// the configured receives, and its delivery id is in the worker's log.
func TestPoisonJobReachesTheDLQ(t *testing.T) {
	gh := newFakeGitHub(t)
	const maxReceives = 3
	s := newStack(t, gh.APIURL, maxReceives)
	var logs bytes.Buffer
	worker := s.function(t, roleWorker, &logs)

	queue := s.aws.Queue(s.queue.URL)
	poison := job.Job{DeliveryID: "poison-delivery-1", Event: "push", InstallationID: 42, Owner: "octo", Repo: "infra", PR: 9, ReceivedAt: time.Now()}
	if err := queue.Enqueue(context.Background(), poison); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= maxReceives; i++ {
		if n := s.trigger(t, worker); n != 1 {
			t.Fatalf("round %d: the worker got %d messages, want the poison job", i, n)
		}
	}
	if n := s.trigger(t, worker); n != 0 {
		t.Errorf("after %d failed receives the job is still handed out", maxReceives)
	}
	dead := awstest.Receive(t, s.aws.SQS, s.queue.DLQURL, 10)
	if len(dead) != 1 {
		t.Fatalf("DLQ holds %d messages, want the poison job", len(dead))
	}
	if j, err := pwaws.DecodeJob(dead[0].Body); err != nil || j.DeliveryID != poison.DeliveryID {
		t.Errorf("DLQ message = %+v (%v), want delivery %s", j, err, poison.DeliveryID)
	}
	var failures, dlq int
	for _, l := range parseLogs(t, logs.Bytes()) {
		if l.DeliveryID != poison.DeliveryID {
			continue
		}
		switch l.Msg {
		case "job failed":
			failures++
		case "job moves to the dead-letter queue":
			dlq++
		}
	}
	if failures != maxReceives || dlq != 1 {
		t.Errorf("log: %d failures and %d dead-letter lines for %s, want %d and 1\n%s", failures, dlq, poison.DeliveryID, maxReceives, logs.String())
	}
}

// A failed job comes back after the worker's backoff, not the queue's
// 30-minute visibility timeout, and holds back only its own PR.
func TestFailedJobWaitsOutItsBackoffAlone(t *testing.T) {
	gh := newFakeGitHub(t)
	s := newStack(t, gh.APIURL, 3)
	s.env["PLANWARDEN_RETRY_BASE_SECONDS"] = "3600"
	var logs bytes.Buffer
	worker := s.function(t, roleWorker, &logs)
	queue := s.aws.Queue(s.queue.URL)
	ctx := context.Background()
	failing := job.Job{DeliveryID: "fails-1", Event: "push", InstallationID: 42, Owner: "octo", Repo: "infra", PR: 9, ReceivedAt: time.Now()}
	if err := queue.Enqueue(ctx, failing); err != nil {
		t.Fatal(err)
	}
	if n := s.trigger(t, worker); n != 1 {
		t.Fatalf("first round got %d messages, want the failing job", n)
	}
	// The PR-7 pull_request job of another delivery is not held back.
	resp := invokeHTTP(t, s.function(t, roleReceiver, io.Discard), functionURLEvent(t, "pull_request", "other-pr-1", pullRequestOpened(t), testWebhookSecret))
	if resp.StatusCode != 202 {
		t.Fatalf("delivery: %d %s", resp.StatusCode, resp.Body)
	}
	if n := s.trigger(t, worker); n != 1 {
		t.Errorf("second round got %d messages, want only the other PR's job", n)
	}
	if checks := gh.CheckRuns("octo", "infra", e2eSHA); len(checks) != 1 {
		t.Errorf("the other PR's job did not run: %d check runs", len(checks))
	}
	if n := s.trigger(t, worker); n != 0 {
		t.Errorf("the failed job came back at once (%d messages), want it hidden for its backoff", n)
	}
	if visible, inFlight := awstest.Depth(t, s.aws.SQS, s.queue.URL); visible != "0" || inFlight != "1" {
		t.Errorf("queue: %s visible, %s in flight; want the failed job waiting (0, 1)", visible, inFlight)
	}
}
