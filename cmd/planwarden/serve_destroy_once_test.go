//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// destroyConfig makes staging destroyable by destroy-staging.yml.
const destroyConfig = "version: 1\nprojects:\n  - {name: stack, environment: staging}\nenvironments:\n  staging: {destroy_workflow: destroy-staging.yml}\n"

// destroyWorld is the fake GitHub of a PR whose staging may be destroyed,
// and serve's environment against it on one data directory.
func destroyWorld(t *testing.T) (*githubtest.Server, []string) {
	t.Helper()
	gh := githubtest.New(t)
	env := append(processEnv(t, gh.APIURL, t.TempDir()), "PLANWARDEN_RETRY_BASE_SECONDS=0")
	gh.SetFile(rOwner, rRepo, "main", ".github/planwarden.yml", []byte(destroyConfig))
	wf, err := os.ReadFile("../../examples/workflows/destroy-staging.yml")
	if err != nil {
		t.Fatal(err)
	}
	gh.SetFile(rOwner, rRepo, "main", ".github/workflows/destroy-staging.yml", wf)
	gh.SetPermission(rOwner, rRepo, "alice", "write")
	gh.SetPermission(rOwner, rRepo, "bob", "admin")
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 5, HeadSHA: "5555555555555555555555555555555555555555", HeadRef: "feature-5"})
	return gh, env
}

// ask posts alice's /destroy-staging and waits for its reply; it returns
// the thread's id.
func ask(t *testing.T, gh *githubtest.Server, p *serveProc) string {
	t.Helper()
	id := gh.AddComment(rOwner, rRepo, 5, "alice", "/destroy-staging")
	if code := p.post(t, "issue_comment", "ask", commentEvent(5, id, "alice", "/destroy-staging")); code != http.StatusAccepted {
		t.Fatalf("/destroy-staging: %d", code)
	}
	eventually(t, "the request's reply asks for a confirmation", func() bool {
		for _, c := range gh.Comments(rOwner, rRepo, 5) {
			if strings.Contains(c.Body, "/destroy-staging confirm") && c.User != "alice" {
				return true
			}
		}
		return false
	})
	return fmt.Sprintf("pw-5-%d", id)
}

// rocket reports whether the comment got the rocket of a confirmed destroy.
func rocket(gh *githubtest.Server, comment int64) bool {
	for _, r := range gh.Reactions() {
		if r.CommentID == comment && r.Content == "rocket" {
			return true
		}
	}
	return false
}

// serve killed (SIGKILL) between a confirmed /destroy-staging's dispatch
// and its record dispatches the destroy workflow once: the confirmation
// recorded its intent (the thread's correlation id) before dispatching,
// and after the restart it finds the run GitHub started for it by the id
// in the run's title, and does not dispatch again, whether the queued job
// resumes or GitHub's Redeliver brings the confirmation back.
func TestServeKilledAfterADestroyDispatchDoesNotDispatchAgain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	gh, env := destroyWorld(t)
	dying := startServeBinary(t, hookedBinary(t), append(env, "PLANWARDEN_TEST_DIE_AT=destroy-dispatched"))
	thread := ask(t, gh, dying)
	confirm := gh.AddComment(rOwner, rRepo, 5, "bob", "/destroy-staging confirm")
	body, err := json.Marshal(commentEvent(5, confirm, "bob", "/destroy-staging confirm"))
	if err != nil {
		t.Fatal(err)
	}
	dying.postBody("issue_comment", "confirm", body) // answered or not: the job dies after its dispatch
	<-dying.done
	if ws, ok := dying.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("serve ended with %v; want killed by SIGKILL at destroy-dispatched\n%s", dying.cmd.ProcessState, dying.logs.String())
	}
	if d := gh.Dispatches(); len(d) != 1 || d[0].Inputs["correlation_id"] != thread {
		t.Fatalf("dispatches before the restart: %+v; want the one of %s", d, thread)
	}
	// GitHub starts the run the dispatch asked for; its run-name carries
	// the correlation id.
	gh.AddRun(githubtest.Run{Owner: rOwner, Repo: rRepo, ID: 905, Name: "destroy staging", Path: ".github/workflows/destroy-staging.yml",
		HeadSHA: "0000000000000000000000000000000000000abc", HeadBranch: "main", Event: "workflow_dispatch", Status: "queued",
		DisplayTitle: "destroy staging #5 " + thread})

	again := startServeBinary(t, hookedBinary(t), env)
	if code, err := again.postBody("issue_comment", "confirm", body); err != nil || code >= 300 {
		t.Fatalf("Redeliver of the confirmation after the restart: %d, %v", code, err)
	}
	eventually(t, "the confirmation gets its rocket after the restart", func() bool { return rocket(gh, confirm) })
	eventually(t, "the restarted process is idle", func() bool { return strings.Contains(again.logs.String(), `"msg":"job done"`) })
	if d := gh.Dispatches(); len(d) != 1 {
		t.Errorf("%d dispatches of the destroy workflow; want 1 (the one before the kill)", len(d))
	}
	if !strings.Contains(again.logs.String(), `"msg":"destroy found dispatched"`) {
		t.Errorf("the restarted process did not find the run by its correlation id:\n%s", again.logs.String())
	}
}

// The honest twin: a confirmation nothing interrupts dispatches once, and
// its reply says so.
func TestAConfirmedDestroyDispatchesOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	gh, env := destroyWorld(t)
	p := startServeBinary(t, hookedBinary(t), env)
	thread := ask(t, gh, p)
	confirm := gh.AddComment(rOwner, rRepo, 5, "bob", "/destroy-staging confirm")
	if code := p.post(t, "issue_comment", "confirm", commentEvent(5, confirm, "bob", "/destroy-staging confirm")); code != http.StatusAccepted {
		t.Fatalf("confirm: %d", code)
	}
	eventually(t, "the confirmation gets its rocket", func() bool { return rocket(gh, confirm) })
	if d := gh.Dispatches(); len(d) != 1 || d[0].Inputs["correlation_id"] != thread {
		t.Errorf("dispatches %+v; want one, of %s", d, thread)
	}
	eventually(t, "the reply says it is confirmed", func() bool {
		for _, c := range gh.Comments(rOwner, rRepo, 5) {
			if strings.Contains(c.Body, "Confirmed by `bob`") {
				return true
			}
		}
		return false
	})
}
