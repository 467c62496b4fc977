package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/comment"
)

const sha1 = "1111111111111111111111111111111111111111"

func TestStoriesEndToEnd(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		plan, env      string
		wantConclusion string
	}{
		"a GPU pool typo blocks":                          {"aks-gpu-typo.json", "prod", "failure"},
		"a GPU VM without cost-center blocks":             {"a100-vm-no-tags.json", "prod", "failure"},
		"a SageMaker endpoint replacement blocks in prod": {"sagemaker-rename.json", "prod", "failure"},
		"an A100 scale-out warns":                         {"a100-scale-out.json", "prod", "neutral"},
		"a bucket lifecycle change passes":                {"bucket-lifecycle.json", "prod", "success"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(stackConfig(tc.env)))
			h.openPR(7, sha1)
			waiting := h.planwardenCheck(sha1)
			if waiting.Status != "in_progress" || waiting.Title != "Waiting for plan" {
				t.Fatalf("after the push the check is %s %q, want in_progress \"Waiting for plan\"", waiting.Status, waiting.Title)
			}
			zipData := zipOf(t, entry{"plan.json", examplePlan(t, tc.plan)}, metadata("stack", tc.env))
			if code := h.planRun("run-1", 501, 7, sha1, zipData, runOpt{}); code != http.StatusAccepted {
				t.Fatalf("workflow_run delivery: status %d", code)
			}
			check := h.planwardenCheck(sha1)
			if check.Status != "completed" || check.Conclusion != tc.wantConclusion {
				t.Errorf("check %s/%s %q, want completed/%s", check.Status, check.Conclusion, check.Title, tc.wantConclusion)
			}
			if check.Title == "" || check.Summary == "" {
				t.Errorf("check output title %q summary %q: want both", check.Title, check.Summary)
			}
			if check.ID != waiting.ID {
				t.Errorf("completed check %d, want the waiting one %d updated", check.ID, waiting.ID)
			}
			comments := h.gh.Comments(owner, repo, 7)
			if len(comments) != 1 {
				t.Fatalf("%d comments, want 1", len(comments))
			}
			t.Logf("check %s %q; comment %.160q", check.Conclusion, check.Title, comments[0].Body)
			m, ok := comment.ParseMarker(comments[0].Body)
			if !ok || m.HeadSHA != sha1 {
				t.Errorf("comment marker %+v (found %v), want head %s", m, ok, sha1)
			}
			if h.gh.BlobAuthLeaks() != 0 {
				t.Errorf("the artifact blob download carried the Authorization header")
			}
		})
	}
}

func TestRedeliveryDoesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	zipData := zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")})
	h.planRun("run-1", 501, 7, sha1, zipData, runOpt{})
	before := len(h.gh.Calls())
	if code := h.deliver("workflow_run", "run-1", workflowRunEvent(501, 7, sha1, runOpt{})); code != http.StatusOK {
		t.Errorf("redelivery: status %d, want 200", code)
	}
	if after := len(h.gh.Calls()); after != before {
		t.Errorf("redelivery made %d GitHub calls, want 0", after-before)
	}
}

func TestRerunEditsTheComment(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	plan := examplePlan(t, "aks-gpu-typo.json")
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", withTimestamp(t, plan, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))}), runOpt{})
	h.planRun("run-2", 502, 7, sha1, zipOf(t, entry{"plan.json", withTimestamp(t, plan, time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC))}), runOpt{})
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 {
		t.Fatalf("%d comments after a re-run, want 1", len(comments))
	}
	if comments[0].Edits != 1 {
		t.Errorf("comment edited %d times, want 1", comments[0].Edits)
	}
	if m, _ := comment.ParseMarker(comments[0].Body); !m.PlanTime.Equal(time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("comment shows the plan of %v, want the re-run's 09:30", m.PlanTime)
	}
}

func TestOlderPlanNeverOverwritesNewer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	plan := examplePlan(t, "aks-gpu-typo.json")
	newer := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	h.planRun("run-2", 502, 7, sha1, zipOf(t, entry{"plan.json", withTimestamp(t, plan, newer)}), runOpt{})
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", withTimestamp(t, plan, newer.Add(-time.Hour))}), runOpt{})
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 || comments[0].Edits != 0 {
		t.Fatalf("comments %+v, want 1 never edited", comments)
	}
	if check := h.planwardenCheck(sha1); check.ExternalID != "502" {
		t.Errorf("check reports run %s, want the newer run 502", check.ExternalID)
	}
}

func TestConcurrentDeliveriesGiveOneComment(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	plan := examplePlan(t, "a100-scale-out.json")
	for _, id := range []int64{601, 602} {
		h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: id, Name: "planwarden plan", Path: planWorkflow, HeadSHA: sha1, Conclusion: "success", PRs: []int{7}})
		h.gh.AddArtifact(owner, repo, id, "planwarden-stack", zipOf(t, entry{"plan.json", plan}))
	}
	// One run lists its PR, the other does not (a fork-style payload), so
	// the queue groups them differently and only the PR lock serializes.
	bodies := [][]byte{
		mustJSON(t, workflowRunEvent(601, 7, sha1, runOpt{})),
		mustJSON(t, workflowRunEvent(602, 7, sha1, runOpt{noPRs: true})),
	}
	var wg sync.WaitGroup
	for i, b := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code := h.post("workflow_run", fmt.Sprintf("concurrent-%d", i), b, sign(b)); code != http.StatusAccepted {
				t.Errorf("delivery %d: status %d", i, code)
			}
		}()
	}
	wg.Wait()
	h.wait()
	if n := len(h.gh.Comments(owner, repo, 7)); n != 1 {
		t.Errorf("%d comments after two concurrent deliveries, want 1", n)
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "neutral" {
		t.Errorf("check conclusion %q, want neutral", c.Conclusion)
	}
}

func TestBadGatewayIsRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1})
	h.gh.Fail(githubtest.Fault{Method: "POST", Path: "/check-runs", Times: 1, Status: http.StatusBadGateway, Body: "bad gateway"})
	h.deliver("pull_request", "pr-1", pullRequestEvent("opened", 7, sha1))
	if got := h.planwardenCheck(sha1); got.Status != "in_progress" {
		t.Errorf("check status %q after a 502 then success, want in_progress", got.Status)
	}
	if n := h.gh.CallCount("POST", "/check-runs"); n != 2 {
		t.Errorf("%d check-run POSTs, want 2 (the 502 and its retry)", n)
	}
}

func TestRateLimitsAreWaitedOut(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		status int
		header http.Header
		want   time.Duration
	}{
		"secondary rate limit with Retry-After": {http.StatusForbidden, http.Header{"Retry-After": {"30"}}, 30 * time.Second},
		"429 with Retry-After":                  {http.StatusTooManyRequests, http.Header{"Retry-After": {"5"}}, 5 * time.Second},
		"primary limit until X-RateLimit-Reset": {http.StatusForbidden, nil, 41 * time.Second},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(7, sha1)
			header := tc.header
			if header == nil {
				reset := h.clock.Now().Add(40 * time.Second).Unix()
				header = http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {fmt.Sprint(reset)}}
			}
			h.gh.Fail(githubtest.Fault{Method: "GET", Path: "/artifacts", Times: 1, Status: tc.status, Header: header,
				Body: `{"message":"You have exceeded a secondary rate limit."}`})
			h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}), runOpt{})
			if c := h.planwardenCheck(sha1); c.Conclusion != "success" {
				t.Errorf("check %q %q after the rate limit, want success", c.Conclusion, c.Title)
			}
			waits := h.clock.Waits()
			if len(waits) != 1 || waits[0] != tc.want {
				t.Errorf("waits %v, want one of %v", waits, tc.want)
			}
		})
	}
}

func TestForgedSignatureChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1})
	body := mustJSON(t, pullRequestEvent("opened", 7, sha1))
	forged := sign(append([]byte("x"), body...))
	for name, sig := range map[string]string{"forged": forged, "missing": "", "sha1 only": "sha1=0000"} {
		if code := h.post("pull_request", "forged-"+name, body, sig); code != http.StatusUnauthorized {
			t.Errorf("%s signature: status %d, want 401", name, code)
		}
	}
	h.wait()
	if n := len(h.gh.Calls()); n != 0 {
		t.Errorf("forged deliveries made %d GitHub calls, want 0", n)
	}
	// The same id, properly signed, is still new: a forgery must not burn it.
	if code := h.deliver("pull_request", "forged-forged", pullRequestEvent("opened", 7, sha1)); code != http.StatusAccepted {
		t.Errorf("genuine delivery after forgeries: status %d, want 202", code)
	}
}

func TestUntrustedArtifactsAreRefused(t *testing.T) {
	t.Parallel()
	zeros := make([]byte, 8<<20)
	tests := map[string]struct {
		zip  func(t *testing.T) []byte
		want string
	}{
		"zip bomb":           {func(t *testing.T) []byte { return zipOf(t, entry{"plan.json", zeros}) }, "zip bomb"},
		"lying size header":  {func(t *testing.T) []byte { return lyingZip(t, "plan.json", zeros, 10) }, "lies about its size"},
		"path traversal":     {func(t *testing.T) []byte { return zipOf(t, entry{"../../etc/plan.json", []byte("{}")}) }, "escapes the artifact"},
		"absolute path":      {func(t *testing.T) []byte { return zipOf(t, entry{"/tmp/plan.json", []byte("{}")}) }, "escapes the artifact"},
		"too many entries":   {func(t *testing.T) []byte { return manyEntries(t, 30) }, "more than the limit of 20"},
		"not a zip":          {func(t *testing.T) []byte { return []byte("PK but not really") }, "not a readable zip"},
		"no plan in the zip": {func(t *testing.T) []byte { return zipOf(t, entry{"README.md", []byte("hi")}) }, "holds no *.json plan"},
		"unreadable plan": {func(t *testing.T) []byte {
			return zipOf(t, entry{"plan.json", []byte("Terraform will perform the following actions:")})
		}, "could not read a plan"},
		"bad metadata": {func(t *testing.T) []byte {
			return zipOf(t, entry{"plan.json", []byte("{}")}, entry{"planwarden-metadata.json", []byte(`{"projekt":"x"}`)})
		}, "bad metadata"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(c *app.Config) { c.Limits = run.Limits{MaxTotal: 1 << 20, MaxEntries: 20} })
			h.openPR(7, sha1)
			h.planRun("run-1", 501, 7, sha1, tc.zip(t), runOpt{})
			c := h.planwardenCheck(sha1)
			if c.Conclusion != "failure" {
				t.Errorf("conclusion %q, want failure", c.Conclusion)
			}
			if !strings.Contains(c.Summary, tc.want) {
				t.Errorf("check summary %q, want it to say %q", c.Summary, tc.want)
			}
			if n := len(h.gh.Comments(owner, repo, 7)); n != 0 {
				t.Errorf("%d comments, want none for a refused artifact", n)
			}
		})
	}
}

func TestRunsWithoutAPlanNeverSucceed(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		conclusion string
		zip        bool
		wantTitle  string
	}{
		"the plan workflow failed":   {"failure", true, "Plan workflow failure"},
		"the plan run was cancelled": {"cancelled", false, "Plan workflow cancelled"},
		"no plan artifact":           {"success", false, "No plan artifact"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(7, sha1)
			var z []byte
			if tc.zip {
				z = zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")})
			}
			h.planRun("run-1", 501, 7, sha1, z, runOpt{conclusion: tc.conclusion})
			c := h.planwardenCheck(sha1)
			if c.Conclusion != "failure" || c.Title != tc.wantTitle {
				t.Errorf("check %s %q, want failure %q", c.Conclusion, c.Title, tc.wantTitle)
			}
		})
	}
}

func TestOtherWorkflowsAreIgnored(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	ev := workflowRunEvent(700, 7, sha1, runOpt{conclusion: "failure"})
	run := ev["workflow_run"].(map[string]any)
	run["name"], run["path"] = "lint", ".github/workflows/lint.yml"
	h.deliver("workflow_run", "lint-1", ev)
	if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
		t.Errorf("a failed lint run moved the check to %s %s", c.Status, c.Conclusion)
	}
}

func TestStalePlanDoesNotCompleteTheHead(t *testing.T) {
	t.Parallel()
	const sha2 = "2222222222222222222222222222222222222222"
	h := newHarness(t)
	h.openPR(7, sha1)
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha2})
	h.deliver("pull_request", "sync-1", pullRequestEvent("synchronize", 7, sha2))
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}), runOpt{})
	if old := h.planwardenCheck(sha1); old.Conclusion != "neutral" || old.Title != "Stale plan" || !strings.Contains(old.Summary, sha2[:7]) {
		t.Errorf("old head check %s %q %q, want neutral \"Stale plan\" naming %s", old.Conclusion, old.Title, old.Summary, sha2[:7])
	}
	if head := h.planwardenCheck(sha2); head.Status != "in_progress" {
		t.Errorf("current head check %s %s, want still in_progress", head.Status, head.Conclusion)
	}
	if n := len(h.gh.Comments(owner, repo, 7)); n != 0 {
		t.Errorf("%d comments from a stale plan, want 0", n)
	}
}

func TestCheckRunRerequestedReviewsAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}), runOpt{})
	check := h.planwardenCheck(sha1)
	h.deliver("check_run", "rerun-1", map[string]any{
		"action": "rerequested", "repository": repository(), "installation": installation(), "sender": map[string]any{"login": "alice"},
		"check_run": map[string]any{"id": check.ID, "name": "planwarden", "head_sha": sha1, "external_id": check.ExternalID,
			"pull_requests": []any{map[string]any{"number": 7}}},
	})
	if n := h.gh.CallCount("GET", "/actions/runs/501/artifacts"); n != 2 {
		t.Errorf("artifacts listed %d times, want 2 (the run, then the re-run)", n)
	}
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 || comments[0].Edits != 1 {
		t.Errorf("comments %d, want 1 edited once by the re-run", len(comments))
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" || c.Updates < 2 {
		t.Errorf("check %s after %d updates, want failure again", c.Conclusion, c.Updates)
	}
}

func TestMergeGroupCarriesThePRResult(t *testing.T) {
	t.Parallel()
	const mergeSHA = "3333333333333333333333333333333333333333"
	for name, tc := range map[string]struct {
		plan string
		want string
	}{
		"passing PR": {"bucket-lifecycle.json", "success"},
		"blocked PR": {"aks-gpu-typo.json", "failure"},
		"no review":  {"", "failure"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(7, sha1)
			if tc.plan != "" {
				h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, tc.plan)}), runOpt{})
			}
			h.deliver("merge_group", "mg-1", map[string]any{
				"action": "checks_requested", "repository": repository(), "installation": installation(),
				"merge_group": map[string]any{"head_sha": mergeSHA, "head_ref": "refs/heads/gh-readonly-queue/main/pr-7-" + sha1, "base_ref": "refs/heads/main"},
			})
			c := h.planwardenCheck(mergeSHA)
			if c.Status != "completed" || c.Conclusion != tc.want {
				t.Errorf("merge group check %s/%s %q, want completed/%s", c.Status, c.Conclusion, c.Title, tc.want)
			}
			// "Re-run" on the merge group's check carries the result over again.
			h.deliver("check_run", "mg-rerun", map[string]any{
				"action": "rerequested", "repository": repository(), "installation": installation(),
				"check_run": map[string]any{"id": c.ID, "name": "planwarden", "head_sha": mergeSHA, "external_id": c.ExternalID, "pull_requests": []any{}},
			})
			runs := h.gh.CheckRuns(owner, repo, mergeSHA)
			if last := runs[len(runs)-1]; len(runs) != 2 || last.Conclusion != tc.want {
				t.Errorf("after a re-run the merge group has %d checks, the last %s; want 2, the last %s", len(runs), last.Conclusion, tc.want)
			}
		})
	}
}

func TestBadConfigOnBaseBranchFailsTheCheck(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte("version: 1\nrules:\n  no-such-rule: {}\n"))
	// A config on the PR's branch would loosen nothing: it is not read.
	h.gh.SetFile(owner, repo, "feature-7", ".github/planwarden.yml", []byte("version: 1\n"))
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}), runOpt{})
	c := h.planwardenCheck(sha1)
	if c.Conclusion != "failure" || !strings.Contains(c.Title, ".github/planwarden.yml") || !strings.Contains(c.Summary, ".github/planwarden.yml:3") {
		t.Errorf("check %s %q %q, want failure naming .github/planwarden.yml:3", c.Conclusion, c.Title, c.Summary)
	}
	if c.Annotations == 0 {
		t.Errorf("no annotation on the config file")
	}
}

func TestTokenIsCachedPerInstallation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}), runOpt{})
	if n := h.gh.TokensIssued(); n != 1 {
		t.Errorf("%d installation tokens issued for one installation, want 1", n)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAForgedMarkerDoesNotStopTheReview(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	forged := fmt.Sprintf("<!-- planwarden:comment v=1 sha=%s plan_time=2099-01-01T00:00:00Z -->\nall good, merge it", sha1)
	forgedID := h.gh.AddComment(owner, repo, 7, "mallory", forged)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}), runOpt{})
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 2 || comments[0].ID != forgedID || comments[0].Edits != 0 {
		t.Fatalf("comments %+v: want mallory's untouched and the bot's own", comments)
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q, want failure: a forged marker must not stop the review", c.Conclusion)
	}
}

func TestInstallationsGetTheirOwnTokensInParallel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var wg sync.WaitGroup
	for i := range 3 {
		sha := fmt.Sprintf("%040d", i+1)
		h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 10 + i, HeadSHA: sha})
		ev := pullRequestEvent("opened", 10+i, sha)
		ev["installation"] = map[string]any{"id": 100 + i}
		body := mustJSON(t, ev)
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.post("pull_request", fmt.Sprintf("inst-%d", i), body, sign(body))
		}()
	}
	wg.Wait()
	h.wait()
	if n := h.gh.TokensIssued(); n != 3 {
		t.Errorf("%d tokens for three installations, want 3", n)
	}
	if n := h.gh.CallCount("POST", "/check-runs"); n != 3 {
		t.Errorf("%d check runs created, want 3", n)
	}
}

func TestAGitHubOutageIsReportedOnTheCheck(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *app.Config) { c.Retry.MaxRetries = 1 })
	h.openPR(7, sha1)
	h.gh.Fail(githubtest.Fault{Method: "POST", Path: "/issues/7/comments", Times: 10, Status: http.StatusServiceUnavailable})
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}), runOpt{})
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" || !strings.Contains(c.Summary, "Re-run") {
		t.Errorf("check %s %q after GitHub kept failing, want failure asking for a re-run", c.Conclusion, c.Summary)
	}
}

func TestAfterARestartTheCommentIsFoundByItsMarker(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	for i := range 130 { // the bot's comment ends up on the second page
		h.gh.AddComment(owner, repo, 7, "bob", fmt.Sprintf("comment %d", i))
	}
	old := fmt.Sprintf("<!-- planwarden:comment v=1 sha=%s plan_time=2026-12-01T00:00:00Z -->\nold review", sha1)
	h.gh.AddComment(owner, repo, 7, githubtest.BotLogin, old)
	// A fresh process: the store has never seen this PR's comment.
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}), runOpt{})
	var ours []githubtest.Comment
	for _, c := range h.gh.Comments(owner, repo, 7) {
		if c.User == githubtest.BotLogin {
			ours = append(ours, c)
		}
	}
	if len(ours) != 1 || ours[0].Edits != 1 || ours[0].Body == old {
		t.Errorf("bot comments %d (edits %v), want the one old comment edited", len(ours), ours)
	}
}

func TestCheckSuiteRerequestedReviewsAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "a100-scale-out.json")}), runOpt{})
	h.deliver("check_suite", "suite-1", map[string]any{
		"action": "rerequested", "repository": repository(), "installation": installation(),
		"check_suite": map[string]any{"id": 1, "head_sha": sha1, "head_branch": "feature-7", "pull_requests": []any{map[string]any{"number": 7}}},
	})
	if n := h.gh.CallCount("GET", "/actions/runs/501/artifacts"); n != 2 {
		t.Errorf("artifacts listed %d times, want 2 (the run, then the suite re-run)", n)
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "neutral" {
		t.Errorf("check %q after the suite re-run, want neutral", c.Conclusion)
	}
}
