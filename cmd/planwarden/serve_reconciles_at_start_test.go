package main

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// serve runs the reconciler as it starts, before any delivery: a pull
// request whose check was left in progress (here, its plan run finished
// while nobody delivered its workflow_run) is concluded from that run,
// with no webhook sent to the process at all. The honest twin in the same
// process: a pull request whose check was concluded is left alone.
func TestServeReconcilesAtStart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	gh := githubtest.New(t)
	env := processEnv(t, gh.APIURL, t.TempDir())
	gh.SetFile(rOwner, rRepo, "main", ".github/planwarden.yml", []byte(rConfig))
	const left, concluded = "dddddddddddddddddddddddddddddddddddddddd", "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 4, HeadSHA: left})
	gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 5, HeadSHA: concluded})
	gh.AddRun(githubtest.Run{Owner: rOwner, Repo: rRepo, ID: 401, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
		HeadSHA: left, Conclusion: "success", PRs: []int{4}})
	gh.AddArtifact(rOwner, rRepo, 401, "planwarden-stack", planZip(t, "aks-gpu-typo.json"))
	gh.AddCheckRun(githubtest.CheckRun{Owner: rOwner, Repo: rRepo, Name: "planwarden", HeadSHA: left, Status: "in_progress", Title: "Waiting for plan"})
	gh.AddCheckRun(githubtest.CheckRun{Owner: rOwner, Repo: rRepo, Name: "planwarden", HeadSHA: concluded, Status: "completed", Conclusion: "success", Title: "Reviewed"})

	p := startServe(t, env)
	eventually(t, "PR 4's check, left in progress, is concluded from its finished run", func() bool {
		c := checkOf(gh, left)
		return c.Status == "completed" && c.Conclusion == "failure"
	})
	eventually(t, "the reconciler's first pass is over", func() bool { return strings.Contains(p.logs.String(), `"msg":"reconciled"`) })
	if c := checkOf(gh, concluded); c.Status != "completed" || c.Conclusion != "success" || c.Updates != 0 {
		t.Errorf("PR 5's concluded check was touched: %s/%s, %d updates", c.Status, c.Conclusion, c.Updates)
	}
	logs := p.logs.String()
	if !strings.Contains(logs, `"decided":1`) {
		t.Errorf("the reconciler's first pass did not decide exactly one pull request:\n%s", logs)
	}
	if strings.Contains(logs, `"delivery":`) {
		t.Errorf("serve handled a delivery; the test sent none:\n%s", logs)
	}
}
