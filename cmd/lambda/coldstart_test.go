package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/planwarden/planwarden/cmd/lambda/internal/runtimeapi"
)

// buildBootstrap builds one role's binary with its build tag, for goos and
// goarch, and returns its path. deployable adds -trimpath, as `make
// lambda` does; it changes no code, only the file names inside, and
// rebuilds every package, so only the size measurement asks for it. The
// other builds also have the linker print its dependency graph
// (-dumpdep), and fail if it lost its removal of unused methods.
func buildBootstrap(t *testing.T, role, goos, goarch string, deployable bool) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH: %v", err)
	}
	out := filepath.Join(t.TempDir(), "bootstrap")
	ldflags := "-s -w"
	if !deployable {
		ldflags += " -dumpdep"
	}
	args := []string{"build", "-tags", "lambda.norpc," + role, "-ldflags", ldflags, "-o", out}
	if deployable {
		args = append(args, "-trimpath")
	}
	cmd := exec.Command(goTool, append(args, ".")...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%.4000s", err, b)
	}
	if !deployable {
		checkMethodDeadCode(t, role, b)
	}
	return out
}

// checkMethodDeadCode reads the linker's dependency graph (lines "from ->
// to", -ldflags=-dumpdep). A reachable function marked <ReflectMethod>
// calls reflect's Method or MethodByName with a name known only at run
// time (text/template does); the linker then keeps every exported method
// of every type the program uses: the worker grew by 7.7 MB (go-github's
// accessors, the SDKs' operations) when comment rendered with
// text/template and protobuf v1.36.10 looked up "Methods" by name.
func checkMethodDeadCode(t *testing.T, role string, graph []byte) {
	t.Helper()
	parent := map[string]string{}
	var marked []string
	for line := range strings.Lines(string(graph)) {
		from, to, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		if !ok {
			continue
		}
		to = strings.TrimSuffix(strings.TrimSuffix(to, " <UsedInIface>"), " <ReflectMethod>")
		from, _, _ = strings.Cut(from, " <")
		if _, seen := parent[to]; !seen {
			parent[to] = from
		}
		if strings.HasSuffix(strings.TrimSpace(line), "<ReflectMethod>") {
			marked = append(marked, to)
		}
	}
	if len(parent) == 0 {
		t.Fatalf("the %s build printed no dependency graph (-ldflags=-dumpdep): cannot check dead-code elimination", role)
	}
	if len(marked) == 0 {
		return
	}
	// The first one marked is the cause; the others (reflect's own
	// methods, say) are often kept only because of it.
	chain := []string{marked[0]}
	for s := parent[marked[0]]; s != "" && s != "_" && len(chain) < 12; s = parent[s] {
		chain = append(chain, s)
	}
	t.Errorf("the %s binary keeps every exported method: %s calls reflect's Method/MethodByName with a name known only at run time (text/template does). Reached by:\n  %s\nall marked: %s",
		role, marked[0], strings.Join(chain, "\n  <- "), strings.Join(marked, ", "))
}

// lockedBuffer collects a process's output while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// booted is one cold start of the binary on the local Runtime API.
type booted struct {
	api  *runtimeapi.Server
	cmd  *exec.Cmd
	logs *lockedBuffer
	// init is process start to the first GET next: the function's init.
	init time.Duration
}

func boot(t *testing.T, bin string, env map[string]string) *booted {
	t.Helper()
	api, err := runtimeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "AWS_LAMBDA_RUNTIME_API="+api.Addr)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	exited := make(chan error, 1)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	select {
	case <-api.Ready():
	case err := <-exited:
		t.Fatalf("the bootstrap exited during init: %v\n%s", err, logs.String())
	case b := <-api.InitError():
		t.Fatalf("the bootstrap reported an init error: %s\n%s", b, logs.String())
	case <-time.After(60 * time.Second): // a bound on a hung init, not a timing check
		t.Fatalf("the bootstrap never asked for an event\n%s", logs.String())
	}
	return &booted{api: api, cmd: cmd, logs: logs, init: api.FirstNext().Sub(start)}
}

func (b *booted) invoke(t *testing.T, payload []byte) runtimeapi.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := b.api.Invoke(ctx, payload)
	if err != nil {
		t.Fatalf("invoke: %v\n%s", err, b.logs.String())
	}
	return res
}

// selfReportedInit is the init_ms the binary logs (main to ready).
func (b *booted) selfReportedInit() float64 {
	sc := bufio.NewScanner(strings.NewReader(b.logs.String()))
	for sc.Scan() {
		var l struct {
			Msg    string  `json:"msg"`
			InitMS float64 `json:"init_ms"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "init done" {
			return l.InitMS
		}
	}
	return -1
}

// Each built binary boots on a (local) Lambda Runtime API, reads its
// secrets from Secrets Manager on moto, and answers its own events only.
// With PLANWARDEN_MEASURE set it boots five times and reports the
// cold-start init time.
func TestBinaryColdStartOnTheRuntimeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped in -short")
	}
	gh := newFakeGitHub(t)
	s := newStack(t, gh.APIURL, 3)
	boots := 1
	if os.Getenv("PLANWARDEN_MEASURE") != "" {
		boots = 5
	}
	for _, role := range []string{roleReceiver, roleWorker} {
		t.Run(role, func(t *testing.T) {
			if boots == 1 {
				// The two roles build and boot side by side; measured
				// boots run alone, so neither slows the other's figure.
				t.Parallel()
			}
			bin := buildBootstrap(t, role, runtime.GOOS, runtime.GOARCH, false)
			env := map[string]string{}
			for k, v := range s.env {
				env[k] = v
			}
			var inits, self []float64
			for i := range boots {
				b := boot(t, bin, env)
				inits = append(inits, float64(b.init.Microseconds())/1000)
				self = append(self, b.selfReportedInit())
				if role == roleReceiver {
					// Each boot's delivery has a body of its own: the
					// receiver ignores a body it has seen (a replay).
					body := bytes.Replace(pullRequestOpened(t), []byte("{"), []byte(fmt.Sprintf(`{"boot":%d,`, i)), 1)
					res := b.invoke(t, functionURLEvent(t, "pull_request", "cold-"+time.Now().Format("150405.000000000"), body, testWebhookSecret))
					var resp events.LambdaFunctionURLResponse
					if err := json.Unmarshal(res.Payload, &resp); err != nil || res.Err || resp.StatusCode != 202 {
						t.Fatalf("signed webhook through the binary: %s (error %v)\n%s", res.Payload, res.Err, b.logs.String())
					}
				} else {
					res := b.invoke(t, readEvent(t, "function-url-healthz.json"))
					if !res.Err || !strings.Contains(string(res.Payload), "does not take http events") {
						t.Errorf("worker on an http event = %s (error %v), want the role error", res.Payload, res.Err)
					}
				}
				if strings.Contains(b.logs.String(), testWebhookSecret) || strings.Contains(b.logs.String(), "PRIVATE KEY") {
					t.Fatalf("the binary logged a secret:\n%s", b.logs.String())
				}
				b.cmd.Process.Kill()
			}
			if boots == 1 {
				return
			}
			slices.Sort(inits)
			slices.Sort(self)
			t.Logf("MEASURE cold start %s (%s/%s, secrets from moto on loopback): process start to first GET next min %.1f ms, median %.1f ms, max %.1f ms; main() to ready (self-reported) median %.1f ms",
				role, runtime.GOOS, runtime.GOARCH, inits[0], inits[len(inits)/2], inits[len(inits)-1], self[len(self)/2])
		})
	}
}

// The deployable binaries' sizes: linux/arm64, built as `make lambda`
// does. They are figures to report, so this runs only with
// PLANWARDEN_MEASURE=1.
func TestMeasureLambdaBinarySize(t *testing.T) {
	if os.Getenv("PLANWARDEN_MEASURE") == "" {
		t.Skip("set PLANWARDEN_MEASURE=1 to build linux/arm64 and report the sizes")
	}
	for _, role := range []string{roleReceiver, roleWorker} {
		bin := buildBootstrap(t, role, "linux", "arm64", true)
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("MEASURE linux/arm64 %s bootstrap: %d bytes (%.1f MiB)", role, fi.Size(), float64(fi.Size())/(1<<20))
	}
}
