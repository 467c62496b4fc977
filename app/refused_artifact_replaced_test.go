package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// A refused artifact's verdict is the run's, not the commit's: a newer
// good run of the same commit replaces "Plan artifact refused" (the
// a100 plan's review: two warnings), and a late delivery of the older
// refused run does not bring it back. The honest twin: the refused run
// alone fails the check, saying why.
func TestARefusedArtifactIsReplacedByANewerGoodRun(t *testing.T) {
	t.Parallel()
	const sha, pr = "2929292929292929292929292929292929292929", 29
	const refusedRun, goodRun = 2901, 2902
	tests := map[string]struct {
		deliver []int64 // runs in delivery order
		want    string  // the check's conclusion
		title   string  // how its title starts
	}{
		"the refused run alone fails the check":                {deliver: []int64{refusedRun}, want: "failure", title: "Plan artifact refused"},
		"refused, then the newer good run":                     {deliver: []int64{refusedRun, goodRun}, want: "neutral", title: "OK to merge after a look"},
		"the newer good run, then the older refused one, late": {deliver: []int64{goodRun, refusedRun}, want: "neutral", title: "OK to merge after a look"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.openPR(pr, sha)
			good := zipOf(t, entry{"plan.json", examplePlan(t, "a100-scale-out.json")})
			refused := zipOf(t, entry{"README.txt", []byte("no plan here")})
			for _, id := range tc.deliver {
				h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: id, Name: "planwarden plan", Path: planWorkflow,
					HeadSHA: sha, Conclusion: "success", PRs: []int{pr}})
				art, name := good, "planwarden-stack"
				if id == refusedRun {
					art, name = refused, "planwarden-x"
				}
				h.gh.AddArtifact(owner, repo, id, name, art)
				if code := h.deliver("workflow_run", "run-"+name, workflowRunEvent(id, pr, sha, runOpt{})); code != http.StatusAccepted {
					t.Fatalf("workflow_run %d: status %d", id, code)
				}
				h.wait()
			}
			c := h.planwardenCheck(sha)
			if c.Status != "completed" || c.Conclusion != tc.want || !strings.HasPrefix(c.Title, tc.title) {
				t.Fatalf("check %s/%s %q: %q; want %s %q", c.Status, c.Conclusion, c.Title, c.Summary, tc.want, tc.title)
			}
		})
	}
}
