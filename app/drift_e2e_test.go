package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

const driftWorkflow = ".github/workflows/planwarden-drift.yml"

// driftConfig lists the drift workflow on the default branch, with the
// project aks-gpu in prod.
const driftConfig = "version: 1\ndrift_workflows: [" + driftWorkflow + "]\nprojects:\n  - {name: aks-gpu, environment: prod}\n"

// driftPlan is the default branch's scheduled plan after the A100 pool was
// scaled to nodes by hand (the code says 2; nodes 2 is a clean plan).
func driftPlan(t *testing.T, nodes int) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(examplePlan(t, "a100-scale-out.json"), &doc); err != nil {
		t.Fatal(err)
	}
	ch := doc["resource_changes"].([]any)[0].(map[string]any)["change"].(map[string]any)
	before, after := ch["before"].(map[string]any), ch["after"].(map[string]any)
	before["max_count"] = after["max_count"]
	before["node_count"], after["node_count"] = nodes, 2
	if nodes == 2 {
		ch["actions"] = []any{"no-op"}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// driftRun adds a finished run of the drift workflow on branch, with the
// project's plan as its artifact, and delivers it.
func (h *harness) driftRun(runID int64, branch string, plan []byte) {
	h.t.Helper()
	sha := fmt.Sprintf("%040d", runID)
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: runID, Name: "planwarden drift", Path: driftWorkflow,
		HeadSHA: sha, HeadBranch: branch, Conclusion: "success", Event: "schedule"})
	h.gh.AddArtifact(owner, repo, runID, "planwarden-aks-gpu", zipOf(h.t, entry{"plan.json", plan}))
	ev := workflowRunEvent(runID, 0, sha, runOpt{noPRs: true})
	wr := ev["workflow_run"].(map[string]any)
	wr["name"], wr["path"], wr["head_branch"], wr["event"] = "planwarden drift", driftWorkflow, branch, "schedule"
	if code := h.deliver("workflow_run", fmt.Sprintf("drift-%d", runID), ev); code != http.StatusAccepted {
		h.t.Fatalf("workflow_run delivery: status %d", code)
	}
}

// The drift flow through the App against the fake GitHub: the scheduled
// plan of the default branch that finds the GPU pool scaled by hand opens
// the project's issue, the next run that finds it scaled further edits the
// same issue, a clean run closes it. Nothing else is written.
func TestDriftRunsKeepOneIssuePerProject(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(driftConfig))
	steps := []struct {
		name  string
		nodes int
		state string
		edits int
		says  []string
	}{
		{"first drift", 6, "open", 0, []string{"GPU pool `a100` scaled 2 → 6 outside Terraform: +\\$15.09/h", "**Cost of the drift:** +\\$15.09/h"}},
		{"the drift grows", 7, "open", 1, []string{"scaled 2 → 7 outside Terraform"}},
		{"the drift is gone", 2, "closed", 2, []string{"No drift"}},
	}
	number := 0
	for i, s := range steps {
		h.driftRun(int64(700+i), "main", driftPlan(t, s.nodes))
		is := h.gh.Issues(owner, repo)
		if len(is) != 1 {
			t.Fatalf("%s: %d issues, want the project's one: %+v", s.name, len(is), is)
		}
		got := is[0]
		if number == 0 {
			number = got.Number
		}
		if got.Number != number || got.State != s.state || got.Edits != s.edits || got.User != githubtest.BotLogin {
			t.Errorf("%s: issue #%d %s by %s, %d edits; want #%d %s by the bot, %d edits", s.name, got.Number, got.State, got.User, got.Edits, number, s.state, s.edits)
		}
		if got.Title != "planwarden: drift in aks-gpu (prod)" {
			t.Errorf("%s: title %q", s.name, got.Title)
		}
		for _, w := range s.says {
			if !strings.Contains(got.Body, w) {
				t.Errorf("%s: the issue does not say %q:\n%s", s.name, w, got.Body)
			}
		}
	}
	if n := len(h.gh.CheckRuns(owner, repo, fmt.Sprintf("%040d", 700))); n != 0 {
		t.Errorf("a drift run made %d check runs, want none", n)
	}
}

// The same drift workflow's run on another branch is no drift review: no
// issue is opened (a branch's plan says nothing of the default branch's
// drift), and the same run on main opens one (the honest twin).
func TestDriftRunOnAnotherBranchDoesNothing(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		branch string
		issues int
	}{
		"a feature branch": {"feature", 0},
		"the default":      {"main", 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(driftConfig))
			h.driftRun(700, tc.branch, driftPlan(t, 6))
			if got := len(h.gh.Issues(owner, repo)); got != tc.issues {
				t.Errorf("%d issues after a drift run on %s, want %d", got, tc.branch, tc.issues)
			}
			if tc.issues == 0 {
				for _, c := range h.gh.Calls() {
					if c.Method != http.MethodGet && !strings.HasSuffix(c.Path, "/access_tokens") {
						t.Errorf("a drift run on %s wrote %s %s", tc.branch, c.Method, c.Path)
					}
				}
			}
		})
	}
}

// Drift runs can be handled out of order (a delivery retried, a worker
// slower than the next): a run older than the one the issue shows leaves
// the issue as the newer run wrote it, whether it found more drift, less,
// or none (it must not close what the newer plan found, nor reopen what
// it closed). The honest twins: the same runs handled in order, the
// newer one's plan is what the issue says.
func TestDriftRunsHandledOutOfOrderKeepTheNewestPlan(t *testing.T) {
	t.Parallel()
	type run struct {
		id    int64
		nodes int
	}
	tests := map[string]struct {
		runs      []run // in the order they are handled
		state     string
		edits     int
		says, not string
	}{
		"an older drift after a newer one":      {[]run{{711, 7}, {710, 6}}, "open", 0, "scaled 2 → 7", "scaled 2 → 6"},
		"an older clean plan after a drift":     {[]run{{711, 7}, {710, 2}}, "open", 0, "scaled 2 → 7", "No drift"},
		"an older drift after a newer clean":    {[]run{{710, 6}, {712, 2}, {711, 7}}, "closed", 1, "No drift", "scaled"},
		"in order: the newer drift edits":       {[]run{{710, 6}, {711, 7}}, "open", 1, "scaled 2 → 7", "scaled 2 → 6"},
		"in order: the newer clean closes":      {[]run{{710, 7}, {711, 2}}, "closed", 1, "No drift", "scaled"},
		"in order: drift again after the close": {[]run{{710, 6}, {711, 2}, {712, 7}}, "open", 2, "scaled 2 → 7", "No drift"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(driftConfig))
			for _, r := range tc.runs {
				h.driftRun(r.id, "main", driftPlan(t, r.nodes))
			}
			is := h.gh.Issues(owner, repo)
			if len(is) != 1 {
				t.Fatalf("%d issues, want the project's one: %+v", len(is), is)
			}
			got := is[0]
			if got.State != tc.state || got.Edits != tc.edits {
				t.Errorf("issue #%d %s, %d edits; want %s, %d edits", got.Number, got.State, got.Edits, tc.state, tc.edits)
			}
			if !strings.Contains(got.Body, tc.says) || strings.Contains(got.Body, tc.not) {
				t.Errorf("the issue should say %q and not %q:\n%s", tc.says, tc.not, got.Body)
			}
		})
	}
}
