package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
)

// The restart story runs the real binary: built here, run against the fake
// GitHub, killed with SIGKILL mid-queue and started again on the same data
// directory.

const (
	rOwner  = "octo-org"
	rRepo   = "ml-infra"
	rSecret = "restart-secret"
	// The override policy of the base branch: alice may override both GPU
	// findings of the AKS typo plan.
	rConfig = "version: 1\noverrides:\n  gpu-sku-loss:\n    users: [alice]\n  gpu-pool-sku:\n    users: [alice]\n"
)

// buildBinary builds cmd/planwarden once per test binary.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func planwardenBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "planwarden-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "planwarden")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// serveProc is one `planwarden serve` process.
type serveProc struct {
	cmd  *exec.Cmd
	base string
	logs *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func startServe(t *testing.T, env []string) *serveProc {
	t.Helper()
	return startServeBinary(t, planwardenBinary(t), env)
}

// startServeBinary runs `serve` of the binary at bin.
func startServeBinary(t *testing.T, bin string, env []string) *serveProc {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, logs: &lockedBuffer{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			p.logs.Write(append(append([]byte(nil), line...), '\n'))
			var l struct{ Msg, Addr string }
			if json.Unmarshal(line, &l) == nil && l.Msg == "serving" {
				addr <- l.Addr
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("serve log (pid %d):\n%s", cmd.Process.Pid, p.logs.String())
		}
	})
	select {
	case a := <-addr:
		p.base = "http://" + a
	case <-p.done:
		t.Fatalf("serve exited before listening:\n%s", p.logs.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not listen within a minute:\n%s", p.logs.String())
	}
	return p
}

func (p *serveProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
}

// post delivers a signed webhook and returns the status.
func (p *serveProc) post(t *testing.T, event, delivery string, payload any) int {
	t.Helper()
	body, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	code, err := p.postBody(event, delivery, body)
	if err != nil {
		t.Fatalf("post %s: %v", delivery, err)
	}
	return code
}

// processEnv is the environment of a serve process against the GitHub API
// at apiURL, with a fresh App key, the test webhook secret, a loopback
// port of its own and, unless dataDir is "", that data directory.
func processEnv(t *testing.T, apiURL, dataDir string) []string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PLANWARDEN_APP_ID=" + strconv.FormatInt(githubtest.AppID, 10),
		"PLANWARDEN_PRIVATE_KEY=" + string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})),
		"PLANWARDEN_WEBHOOK_SECRET=" + rSecret,
		"PLANWARDEN_GITHUB_API_URL=" + apiURL,
		"PLANWARDEN_ADDR=127.0.0.1:0",
	}
	if dataDir != "" {
		env = append(env, "PLANWARDEN_DATA_DIR="+dataDir)
	}
	return env
}

// postBody delivers body signed and returns the status, or the error of a
// delivery that got no answer.
func (p *serveProc) postBody(event, delivery string, body []byte) (int, error) {
	return postWebhook(p.base, []byte(rSecret), event, delivery, body)
}

func repoJSON() map[string]any {
	return map[string]any{"id": 1, "name": rRepo, "full_name": rOwner + "/" + rRepo, "owner": map[string]any{"login": rOwner}}
}

func runEvent(runID int64, pr int, sha string) map[string]any {
	return map[string]any{"action": "completed", "repository": repoJSON(), "installation": map[string]any{"id": 5},
		// GitHub's payloads differ per delivery; the receiver dedupes bodies.
		"nonce": time.Now().UnixNano(),
		"workflow_run": map[string]any{"id": runID, "name": "planwarden plan", "path": ".github/workflows/planwarden-plan.yml",
			"head_sha": sha, "conclusion": "success", "status": "completed",
			"pull_requests": []any{map[string]any{"number": pr, "head": map[string]any{"sha": sha}}}}}
}

func commentEvent(pr int, id int64, user, body string) map[string]any {
	return map[string]any{"action": "created", "repository": repoJSON(), "installation": map[string]any{"id": 5},
		"issue":   map[string]any{"number": pr, "pull_request": map[string]any{"url": "https://api.github.com/repos/x/y/pulls/" + strconv.Itoa(pr)}},
		"comment": map[string]any{"id": id, "body": body},
		"sender":  map[string]any{"login": user, "type": "User"}}
}

func prEvent(action string, pr int, sha string) map[string]any {
	return map[string]any{"action": action, "number": pr, "repository": repoJSON(), "installation": map[string]any{"id": 5},
		"pull_request": map[string]any{"number": pr, "state": "open", "head": map[string]any{"sha": sha, "ref": "feature"}, "base": map[string]any{"ref": "main"}},
		"sender":       map[string]any{"login": "alice"}}
}

func planZip(t *testing.T, name string) []byte {
	t.Helper()
	plan, err := os.ReadFile("../../examples/plans/" + name)
	if err != nil {
		t.Skipf("example plan: %v", err)
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("plan.json")
	w.Write(plan)
	m, _ := zw.Create("planwarden-metadata.json")
	m.Write([]byte(`{"project":"stack","environment":"prod"}`))
	zw.Close()
	return zbuf.Bytes()
}

// eventually polls cond (GitHub's state, as a user would look) until it
// holds or a minute passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func checkOf(gh *githubtest.Server, sha string) githubtest.CheckRun {
	for _, c := range gh.CheckRuns(rOwner, rRepo, sha) {
		if c.Name == "planwarden" {
			return c
		}
	}
	return githubtest.CheckRun{}
}

func TestServeKilledMidQueueLosesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	gh := githubtest.New(t)
	dataDir := t.TempDir()
	env := append(processEnv(t, gh.APIURL, dataDir), "PLANWARDEN_MAX_ATTEMPTS=2", "PLANWARDEN_RETRY_BASE_SECONDS=0")
	gh.SetFile(rOwner, rRepo, "main", ".github/planwarden.yml", []byte(rConfig))
	typo := planZip(t, "aks-gpu-typo.json")
	const shaA, shaB, shaC = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "cccccccccccccccccccccccccccccccccccccccc"
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 1, HeadSHA: shaA})
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 2, HeadSHA: shaB})
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 3, HeadSHA: shaC})
	for _, r := range []struct {
		id  int64
		pr  int
		sha string
	}{{101, 1, shaA}, {201, 2, shaB}, {202, 2, shaB}, {301, 3, shaC}} {
		gh.AddRun(githubtest.Run{Owner: rOwner, Repo: rRepo, ID: r.id, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
			HeadSHA: r.sha, Conclusion: "success", PRs: []int{r.pr}})
		gh.AddArtifact(rOwner, rRepo, r.id, "planwarden-stack", typo)
	}

	// 1. PR 1 is reviewed (blocked), and alice overrides both findings.
	first := startServe(t, env)
	if code := first.post(t, "workflow_run", "run-101", runEvent(101, 1, shaA)); code != http.StatusAccepted {
		t.Fatalf("workflow_run: %d", code)
	}
	eventually(t, "PR 1's check is completed as failure", func() bool { return checkOf(gh, shaA).Conclusion == "failure" })
	for i, rule := range []string{"gpu-sku-loss", "gpu-pool-sku"} {
		id := gh.AddComment(rOwner, rRepo, 1, "alice", "/override "+rule+" -- resizing on purpose")
		first.post(t, "issue_comment", fmt.Sprintf("override-%d", i), commentEvent(1, id, "alice", "/override "+rule+" -- resizing on purpose"))
	}
	eventually(t, "PR 1's check turns green after both overrides", func() bool { return checkOf(gh, shaA).Conclusion == "success" })

	// 2. PR 2's review is mid-job (its artifact download held) with a
	//    second job of PR 2 queued behind it; then the process is killed.
	gate := gh.Hold("GET", "/actions/artifacts/")
	first.post(t, "pull_request", "pr-2-opened", prEvent("opened", 2, shaB))
	first.post(t, "workflow_run", "run-201", runEvent(201, 2, shaB))
	first.post(t, "workflow_run", "run-202", runEvent(202, 2, shaB))
	<-gate.Arrived
	first.kill(t)
	gate.Release()
	if c := checkOf(gh, shaB); c.Status != "in_progress" {
		t.Fatalf("PR 2's check after the kill: %s/%s; want it left in progress by the killed job", c.Status, c.Conclusion)
	}

	// 3. Two processes start on the data directory: the killed job and
	//    the queued one each run once, and PR 2's check is completed.
	second, third := startServe(t, env), startServe(t, env)
	eventually(t, "PR 2's check is completed after the restart", func() bool {
		c := checkOf(gh, shaB)
		return c.Status == "completed" && c.Conclusion == "failure"
	})
	done := func(delivery string) int {
		n := 0
		for _, p := range []*serveProc{second, third} {
			for _, line := range strings.Split(p.logs.String(), "\n") {
				if strings.Contains(line, `"msg":"job done"`) && strings.Contains(line, `"delivery":"`+delivery+`"`) {
					n++
				}
			}
		}
		return n
	}
	eventually(t, "both of PR 2's review jobs ran after the restart", func() bool { return done("run-201") > 0 && done("run-202") > 0 })
	for _, d := range []string{"run-201", "run-202"} {
		if n := done(d); n != 1 {
			t.Errorf("job %s was done %d times by the two processes; want once", d, n)
		}
	}

	// 4. The overrides survived: a new review of PR 1 stays green.
	updates := checkOf(gh, shaA).Updates
	if code := second.post(t, "workflow_run", "run-101-again", runEvent(101, 1, shaA)); code != http.StatusAccepted {
		t.Fatalf("workflow_run again: %d", code)
	}
	eventually(t, "PR 1 reviewed again", func() bool { return checkOf(gh, shaA).Updates > updates })
	if c := checkOf(gh, shaA); c.Conclusion != "success" {
		t.Errorf("PR 1's check after the restart: %s; want success (the overrides were kept)", c.Conclusion)
	}

	// 5. Dedupe holds across the restart.
	if code := third.post(t, "workflow_run", "run-201", runEvent(201, 2, shaB)); code != http.StatusOK {
		t.Errorf("a delivery seen before the kill: status %d; want 200 (duplicate)", code)
	}

	// 6. A job that fails on every attempt is kept dead, completes its
	//    check with Re-run advice, and GitHub's Redeliver of it works.
	// (A secondary rate limit asking for an hour is not waited out by
	// the HTTP client, and is worth another try: each attempt fails its
	// check update, one request; a 4xx such as a 404 would end the job
	// for good at once.)
	gh.Fail(githubtest.Fault{Method: "PATCH", Path: "/check-runs/", Times: 2, Status: http.StatusForbidden,
		Header: http.Header{"Retry-After": {"3600"}}, Body: `{"message":"You have exceeded a secondary rate limit."}`})
	second.post(t, "pull_request", "pr-3-opened", prEvent("opened", 3, shaC))
	second.post(t, "workflow_run", "run-301", runEvent(301, 3, shaC))
	eventually(t, "PR 3's check says to press Re-run", func() bool {
		c := checkOf(gh, shaC)
		return c.Status == "completed" && strings.Contains(c.Summary, "Press Re-run")
	})
	out, err := exec.Command(planwardenBinary(t), "jobs", "--data-dir", dataDir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "dead") || !strings.Contains(string(out), "run-301") || !strings.Contains(string(out), "403 You have exceeded") {
		t.Errorf("planwarden jobs = %v\n%s\nwant run-301 listed as dead with its rate limit", err, out)
	}
	if code := third.post(t, "workflow_run", "run-301", runEvent(301, 3, shaC)); code != http.StatusAccepted {
		t.Errorf("Redeliver of the dead job's delivery: status %d; want 202 (queued again)", code)
	}
	eventually(t, "PR 3 reviewed after the Redeliver", func() bool {
		c := checkOf(gh, shaC)
		return c.Conclusion == "failure" && !strings.Contains(c.Summary, "Press Re-run")
	})

	// 7. Nothing is left in progress, and nothing waits in the queue
	//    except the dead job.
	for _, sha := range []string{shaA, shaB, shaC} {
		if c := checkOf(gh, sha); c.Status != "completed" {
			t.Errorf("check on %s is %s; want completed", sha[:7], c.Status)
		}
	}
	eventually(t, "planwarden jobs lists the header and the one dead job", func() bool {
		out, _ = exec.Command(planwardenBinary(t), "jobs", "--data-dir", dataDir).CombinedOutput()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return len(lines) == 2 && strings.Contains(lines[1], "dead")
	})
}
