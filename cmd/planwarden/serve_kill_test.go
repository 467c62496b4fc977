//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// The binary with test hooks (-tags testhooks): PLANWARDEN_TEST_DIE_AT
// makes it kill itself with SIGKILL at a named step.
var (
	hookedOnce sync.Once
	hookedPath string
	hookedErr  error
)

func hookedBinary(t *testing.T) string {
	t.Helper()
	hookedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "planwarden-hooked-")
		if err != nil {
			hookedErr = err
			return
		}
		hookedPath = filepath.Join(dir, "planwarden")
		out, err := exec.Command("go", "build", "-tags", "testhooks", "-o", hookedPath, ".").CombinedOutput()
		if err != nil {
			hookedErr = fmt.Errorf("go build -tags testhooks: %v\n%s", err, out)
		}
	})
	if hookedErr != nil {
		t.Fatal(hookedErr)
	}
	return hookedPath
}

// serve killed (SIGKILL) after a delivery's marks were written and before
// its job was loses nothing: the marks and the job are one transaction,
// so after a restart GitHub's Redeliver of it is queued and runs; once it
// ran, one more Redeliver is a duplicate.
func TestServeKilledBetweenMarkAndEnqueueRunsTheRedelivery(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	gh := githubtest.New(t)
	env := processEnv(t, gh.APIURL, t.TempDir())
	const sha = "dddddddddddddddddddddddddddddddddddddddd"
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 4, HeadSHA: sha})
	gh.AddRun(githubtest.Run{Owner: rOwner, Repo: rRepo, ID: 401, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: sha, Conclusion: "success", PRs: []int{4}})
	gh.AddArtifact(rOwner, rRepo, 401, "planwarden-stack", planZip(t, "aks-gpu-typo.json"))
	// GitHub's Redeliver sends the same body under the same id.
	body, err := json.Marshal(runEvent(401, 4, sha))
	if err != nil {
		t.Fatal(err)
	}

	dying := startServeBinary(t, hookedBinary(t), append(env, "PLANWARDEN_TEST_DIE_AT=delivery-marked"))
	if code, err := dying.postBody("workflow_run", "run-401", body); err == nil {
		t.Fatalf("the delivery was answered %d; want no answer (the process killed at delivery-marked)", code)
	}
	<-dying.done
	if ws, ok := dying.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("serve ended with %v; want killed by SIGKILL at delivery-marked\n%s", dying.cmd.ProcessState, dying.logs.String())
	}

	again := startServeBinary(t, hookedBinary(t), env)
	if code, err := again.postBody("workflow_run", "run-401", body); err != nil || code != http.StatusAccepted {
		t.Fatalf("Redeliver after the restart: %d, %v; want 202 (queued: the killed delivery left no mark)", code, err)
	}
	eventually(t, "the redelivered review completes PR 4's check", func() bool {
		c := checkOf(gh, sha)
		return c.Status == "completed" && c.Conclusion == "failure"
	})
	if code, err := again.postBody("workflow_run", "run-401", body); err != nil || code != http.StatusOK {
		t.Errorf("one more Redeliver: %d, %v; want 200 (a duplicate of the queued delivery)", code, err)
	}
	eventually(t, "the job's end is logged", func() bool { return strings.Contains(again.logs.String(), `"msg":"job done"`) })
	if n := strings.Count(again.logs.String(), `"msg":"job done"`); n != 1 {
		t.Errorf("%d jobs done after the restart; want the one redelivery", n)
	}
}
