package aws_test

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
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/planwarden/planwarden/app"
	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/receiver"
)

// catchQueue keeps what the receiver queues, for the test to run.
type catchQueue struct {
	mu   sync.Mutex
	jobs []job.Job
}

func (q *catchQueue) Enqueue(_ context.Context, j job.Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, j)
	return nil
}

const raceSecret = "race-secret"

// decode turns a webhook into the job the receiver would queue.
func decode(t *testing.T, rc http.Handler, q *catchQueue, event, delivery string, payload any) job.Job {
	t.Helper()
	body, _ := json.Marshal(payload)
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	m := hmac.New(sha256.New, []byte(raceSecret))
	m.Write(body)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	rec := httptest.NewRecorder()
	rc.ServeHTTP(rec, req)
	if rec.Code != http.StatusAccepted {
		t.Fatalf("%s %s: status %d %s", event, delivery, rec.Code, rec.Body.String())
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.jobs[len(q.jobs)-1]
}

// Two Lambda invocations (two Apps on one DynamoDB table, so no shared
// in-process lock) run a review and a revoke of the same PR at once. The
// review read the state while the override stood and is held at its check
// update until the revoke has written. The version condition makes the
// review's write fail; it reads again and publishes without the override.
func TestConcurrentReviewAndRevokeOnDynamoDBTheRevokeWins(t *testing.T) {
	t.Parallel()
	client := dynamodb.NewFromConfig(awstest.Config(t))
	store := pwaws.NewStore(client, awstest.Table(t, client))
	gh := githubtest.New(t)
	const owner, repo, pr, sha = "octo-org", "ml-infra", 7, "7777777777777777777777777777777777777777"
	plan, err := os.ReadFile("../../examples/plans/aks-gpu-typo.json")
	if err != nil {
		t.Skipf("example plan: %v", err)
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("plan.json")
	w.Write(plan)
	mw, _ := zw.Create("planwarden-metadata.json")
	mw.Write([]byte(`{"project":"stack","environment":"prod"}`))
	zw.Close()
	gh.SetFile(owner, repo, "main", ".github/planwarden.yml",
		[]byte("version: 1\noverrides:\n  gpu-sku-loss:\n    users: [alice]\n  gpu-pool-sku:\n    users: [alice]\n"))
	gh.SetPermission(owner, repo, "bob", "write")
	gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: pr, HeadSHA: sha})
	gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 501, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: sha, Conclusion: "success", PRs: []int{pr}})
	gh.AddArtifact(owner, repo, 501, "planwarden-stack", zbuf.Bytes())

	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	secrets := port.Secrets{AppID: githubtest.AppID, PrivateKeyPEM: pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}),
		WebhookSecret: []byte(raceSecret)}
	newApp := func() *app.App {
		a, err := app.New(app.Config{Secrets: secrets, GitHubAPIURL: gh.APIURL, Store: store, Transport: http.DefaultTransport})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	reviewer, revoker := newApp(), newApp()
	q := &catchQueue{}
	rc, err := receiver.New(receiver.Config{WebhookSecret: []byte(raceSecret), Queue: q, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	repoJSON := map[string]any{"id": 1, "name": repo, "full_name": owner + "/" + repo, "owner": map[string]any{"login": owner}}
	run := func(delivery string) job.Job {
		return decode(t, rc, q, "workflow_run", delivery, map[string]any{"action": "completed", "repository": repoJSON, "installation": map[string]any{"id": 5},
			"nonce": delivery, // the receiver dedupes bodies too
			"workflow_run": map[string]any{"id": 501, "name": "planwarden plan", "path": ".github/workflows/planwarden-plan.yml",
				"head_sha": sha, "conclusion": "success", "status": "completed",
				"pull_requests": []any{map[string]any{"number": pr, "head": map[string]any{"sha": sha}}}}})
	}
	command := func(user, body string) job.Job {
		id := gh.AddComment(owner, repo, pr, user, body)
		return decode(t, rc, q, "issue_comment", "comment-"+strconv.FormatInt(id, 10), map[string]any{"action": "created", "repository": repoJSON,
			"installation": map[string]any{"id": 5},
			"issue":        map[string]any{"number": pr, "pull_request": map[string]any{"url": "https://api.github.com/repos/x/y/pulls/7"}},
			"comment":      map[string]any{"id": id, "body": body},
			"sender":       map[string]any{"login": user, "type": "User"}})
	}
	check := func() githubtest.CheckRun {
		for _, c := range gh.CheckRuns(owner, repo, sha) {
			if c.Name == port.CheckName {
				return c
			}
		}
		return githubtest.CheckRun{}
	}
	ctx := context.Background()
	process := func(a *app.App, j job.Job) {
		t.Helper()
		if err := a.Process(ctx, j); err != nil {
			t.Errorf("process %s: %v", j.DeliveryID, err)
		}
	}
	key := fmt.Sprintf("%s/%s#%d", owner, repo, pr)

	process(reviewer, run("run-1"))
	for _, rule := range []string{"gpu-sku-loss", "gpu-pool-sku"} {
		process(reviewer, command("alice", "/override "+rule+" -- on purpose"))
	}
	if c := check(); c.Conclusion != "success" {
		t.Fatalf("after both overrides the check is %q; want success", c.Conclusion)
	}

	// The review reads the state (two overrides) and stops at its check
	// update. The revoke runs meanwhile and is held at its reply, after
	// writing the state; then the review goes on and writes, and only then
	// does the revoke review again.
	reviewGate := gh.Hold("PATCH", "/check-runs/")
	replyGate := gh.Hold("POST", fmt.Sprintf("/issues/%d/comments", pr))
	reviewJob, revokeJob := run("run-2"), command("bob", "/override --revoke gpu-sku-loss")
	reviewed, revoked := make(chan struct{}), make(chan struct{})
	go func() { defer close(reviewed); process(reviewer, reviewJob) }()
	<-reviewGate.Arrived
	go func() { defer close(revoked); process(revoker, revokeJob) }()
	<-replyGate.Arrived // the revoke is written
	if st, _, _ := store.PR(ctx, key); len(st.Grants) != 1 {
		t.Fatalf("overrides when the revoke replies: %+v; want one", st.Grants)
	}
	reviewGate.Release()
	<-reviewed
	replyGate.Release()
	<-revoked

	st, _, err := store.PR(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Grants) != 1 || st.Grants[0].Rule != "gpu-pool-sku" {
		t.Errorf("stored overrides after both jobs: %+v; want only gpu-pool-sku (the revoked one must not come back)", st.Grants)
	}
	if c := check(); c.Conclusion != "failure" {
		t.Errorf("check after the concurrent review and revoke: %q; want failure (gpu-sku-loss is no longer overridden)", c.Conclusion)
	}
	if st.Conclusion != "failure" {
		t.Errorf("stored conclusion %q; want failure, what the check says", st.Conclusion)
	}
}
