package app_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkWorkflowRunToCheck measures one workflow_run delivery to the
// completed check run against the fake GitHub: webhook, queue, artifact
// list and download, unzip, parse, review, comment, check.
//
//	go test -run '^$' -bench WorkflowRunToCheck -benchtime 5x ./app/
func BenchmarkWorkflowRunToCheck(b *testing.B) {
	for _, n := range []int{100, 20000} {
		b.Run(fmt.Sprintf("%d-changes", n), func(b *testing.B) {
			h := newHarness(b)
			plan := plantest.Large(n)
			zipData := zipOf(b, entry{"plan.json", plan}, metadata("fleet", "prod"))
			b.SetBytes(int64(len(plan)))
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				sha := fmt.Sprintf("%040x", i+1)
				runID := int64(10000 + i)
				pr := 100 + i
				h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: pr, HeadSHA: sha})
				h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: runID, Name: "planwarden plan", Path: planWorkflow, HeadSHA: sha, Conclusion: "success", PRs: []int{pr}})
				h.gh.AddArtifact(owner, repo, runID, "planwarden-fleet", zipData)
				body := mustJSON(b, workflowRunEvent(runID, pr, sha, runOpt{}))
				b.StartTimer()

				if code := h.post("workflow_run", fmt.Sprintf("bench-%d", i), body, sign(body)); code != http.StatusAccepted {
					b.Fatalf("delivery: %d", code)
				}
				h.wait()

				b.StopTimer()
				if c := h.planwardenCheck(sha); c.Status != "completed" {
					b.Fatalf("check %s, want completed", c.Status)
				}
				b.StartTimer()
			}
		})
	}
}
