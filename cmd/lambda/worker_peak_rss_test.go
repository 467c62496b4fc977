//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
)

// lambdaRSSMemoryMB is the function's memory in the measurement: its
// budget, 60 % of it (readSettings), is 256 MiB, serve's in
// cmd/planwarden's measurement.
const lambdaRSSMemoryMB = 427

// The peak resident memory of the worker binary on the local Runtime API,
// one hostile run (githubtest.HostileRuns) a fresh process, against moto
// and the fake GitHub on loopback: a measurement for docs/github-app.md,
// not run by default. PLANWARDEN_RSS_LAMBDA names the binaries,
// name=path,... (a name alone: built from this tree); PLANWARDEN_RSS_INPUT
// keeps the inputs whose name holds it; PLANWARDEN_RSS_ENV adds variables
// to the worker's environment.
//
//	moto_server -H 127.0.0.1 -p 5055 &
//	PLANWARDEN_TEST_MOTO_URL=http://127.0.0.1:5055 PLANWARDEN_RSS_LAMBDA=after \
//	  go test ./cmd/lambda -run TestWorkerPeakRSSOnHostileInputs -v -count=1
func TestWorkerPeakRSSOnHostileInputs(t *testing.T) {
	spec := os.Getenv("PLANWARDEN_RSS_LAMBDA")
	if spec == "" {
		t.Skip("set PLANWARDEN_RSS_LAMBDA=name[=path],... to measure")
	}
	budgetMB := lambdaRSSMemoryMB * 6 / 10
	var table strings.Builder
	fmt.Fprintf(&table, "| input | binary | peak RSS (MiB) | within %d MB + 25%% | within the function's %d MB | check |\n|---|---|---:|---|---|---|\n", budgetMB, lambdaRSSMemoryMB)
	bins := map[string]string{}
	for _, b := range strings.Split(spec, ",") {
		name, path, _ := strings.Cut(b, "=")
		if path == "" {
			path = buildBootstrap(t, roleWorker, runtime.GOOS, runtime.GOARCH, false)
		}
		bins[name] = path
	}
	for _, in := range githubtest.HostileRuns {
		if only := os.Getenv("PLANWARDEN_RSS_INPUT"); only != "" && !strings.Contains(in.Name, only) {
			continue
		}
		arts := in.Artifacts(t)
		for _, b := range strings.Split(spec, ",") {
			name, _, _ := strings.Cut(b, "=")
			peak, c, logs := lambdaPeakRSS(t, bins[name], arts)
			ok, fits := "yes", "yes"
			if peak > int64(budgetMB)*125/100 {
				ok = "**no**"
			}
			if peak >= lambdaRSSMemoryMB {
				fits = "**no**"
			}
			if os.Getenv("PLANWARDEN_RSS_LOGS") != "" {
				t.Logf("%s, %s: the worker's log:\n%s", in.Name, name, logs)
			}
			fmt.Fprintf(&table, "| %s | %s | %d | %s | %s | %s: %s |\n", in.Name, name, peak, ok, fits, c.Conclusion, c.Title)
		}
	}
	t.Logf("\n%s", table.String())
}

// lambdaPeakRSS delivers one workflow run holding arts through the
// receiver's handler into SQS, boots the worker binary bin, invokes it
// with the batch as Lambda's event source mapping would, and returns its
// peak resident memory in MiB, the planwarden check and its log.
func lambdaPeakRSS(t *testing.T, bin string, arts [][]byte) (int64, githubtest.CheckRun, string) {
	t.Helper()
	gh := githubtest.New(t)
	gh.AddPR(githubtest.PR{Owner: "octo", Repo: "infra", Number: 7, HeadSHA: e2eSHA, HeadRef: "gpu-pool"})
	gh.AddRun(githubtest.Run{Owner: "octo", Repo: "infra", ID: e2eRunID, Name: "plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: e2eSHA, HeadBranch: "gpu-pool", Conclusion: "success", PRs: []int{7}, StartedAt: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)})
	for i, a := range arts {
		gh.AddArtifact("octo", "infra", e2eRunID, fmt.Sprintf("planwarden-p%d", i), a)
	}
	s := newStack(t, gh.APIURL, 3)
	receiver := s.function(t, roleReceiver, io.Discard)
	if resp := invokeHTTP(t, receiver, functionURLEvent(t, "workflow_run", "rss-"+strconv.FormatInt(time.Now().UnixNano(), 10), workflowRunCompleted(t), testWebhookSecret)); resp.StatusCode != 202 {
		t.Fatalf("workflow_run delivery: %d %q", resp.StatusCode, resp.Body)
	}
	msgs := awstest.Receive(t, s.aws.SQS, s.queue.URL, 10)
	if len(msgs) != 1 {
		t.Fatalf("the queue holds %d jobs; want the run's one", len(msgs))
	}
	ev := events.SQSEvent{}
	for _, m := range msgs {
		ev.Records = append(ev.Records, events.SQSMessage{
			MessageId: m.ID, ReceiptHandle: m.ReceiptHandle, Body: m.Body, Md5OfBody: m.MD5OfBody,
			Attributes: m.Attributes, EventSource: "aws:sqs", AWSRegion: awstest.Region,
			EventSourceARN: "arn:aws:sqs:us-east-1:123456789012:" + s.queue.URL[strings.LastIndex(s.queue.URL, "/")+1:],
		})
	}
	payload, _ := json.Marshal(ev)
	env := map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": strconv.Itoa(lambdaRSSMemoryMB)}
	for k, v := range s.env {
		env[k] = v
	}
	for _, kv := range strings.Fields(os.Getenv("PLANWARDEN_RSS_ENV")) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	b := boot(t, bin, env)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound on a hung worker, not a timing check
	defer cancel()
	res, err := b.api.Invoke(ctx, payload)
	if err != nil {
		t.Fatalf("invoke: %v\n%s", err, b.logs.String())
	}
	if res.Err {
		t.Fatalf("the worker failed the batch: %s\n%s", res.Payload, b.logs.String())
	}
	peak := procVmHWM(t, b.cmd.Process.Pid) >> 10
	b.cmd.Process.Kill()
	var c githubtest.CheckRun
	for _, r := range gh.CheckRuns("octo", "infra", e2eSHA) {
		if r.Name == port.CheckName {
			c = r
		}
	}
	if c.Status != "completed" {
		t.Errorf("the check is %q after the worker's invocation; want completed\n%s", c.Status, b.logs.String())
	}
	return peak, c, b.logs.String()
}

// procVmHWM is the peak resident memory of process pid in KiB (VmHWM).
func procVmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
