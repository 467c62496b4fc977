package app_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
)

// The seven ways a pull request author (write access, no admin) turned the
// required check green without changing the infrastructure change, each
// against the fake GitHub, and the honest path next to each.

const (
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
	sha4 = "4444444444444444444444444444444444444444"
	sha5 = "5555555555555555555555555555555555555555"
)

// artifact is one artifact of a run.
type artifact struct {
	name string
	zip  []byte
}

// runSpec is a finished workflow run as GitHub would describe it.
type runSpec struct {
	id         int64
	attempt    int
	pr         int
	sha        string
	path       string // default the plan workflow
	event      string // default pull_request
	headRepo   string // default the repo itself
	conclusion string // default success
	artifacts  []artifact
}

// run puts the run and its artifacts on the fake and delivers its
// workflow_run completed.
func (h *harness) run(s runSpec) {
	h.t.Helper()
	if s.path == "" {
		s.path = planWorkflow
	}
	if s.pr == 0 {
		s.pr = 7
	}
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: s.id, Attempt: s.attempt, Name: "plan", Path: s.path, Event: s.event,
		HeadRepo: s.headRepo, HeadSHA: s.sha, Conclusion: orDefault(s.conclusion, "success"), PRs: []int{s.pr}})
	for _, a := range s.artifacts {
		h.gh.AddArtifact(owner, repo, s.id, a.name, a.zip)
	}
	ev := workflowRunEvent(s.id, s.pr, s.sha, runOpt{conclusion: s.conclusion})
	ev["workflow_run"].(map[string]any)["run_attempt"] = max(s.attempt, 1)
	h.deliver("workflow_run", fmt.Sprintf("run-%d-%d", s.id, s.attempt), ev)
}

// open puts PR n on the fake with its changed files and announces it.
func (h *harness) open(n int, sha, base string, files ...string) {
	h.t.Helper()
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: n, HeadSHA: sha, BaseRef: base, Files: githubtest.Changed(files...)})
	h.deliver("pull_request", fmt.Sprintf("pr-%d-%s", n, sha), pullRequestEvent("opened", n, sha))
}

// push moves PR 7 to a new head with the same files.
func (h *harness) push(sha string, files ...string) {
	h.t.Helper()
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha, Files: githubtest.Changed(files...)})
	h.deliver("pull_request", "sync-"+sha, pullRequestEvent("synchronize", 7, sha))
}

func (h *harness) config(branch, yml string) {
	h.gh.SetFile(owner, repo, branch, ".github/planwarden.yml", []byte(yml))
}

// plan is an artifact planwarden-<project> holding one example plan, with
// metadata when env is not "".
func plan(t *testing.T, project, example, env string) artifact {
	t.Helper()
	es := []entry{{"plan.json", examplePlan(t, example)}}
	if env != "" {
		es = append(es, metadata(project, env))
	}
	return artifact{"planwarden-" + project, zipOf(t, es...)}
}

func (h *harness) wantCheck(sha, conclusion string, why string) githubtest.CheckRun {
	h.t.Helper()
	c := h.planwardenCheck(sha)
	if c.Conclusion != conclusion {
		h.t.Errorf("%s: check of %s is %s/%q %q, want %q", why, sha[:7], c.Status, c.Conclusion, c.Title, conclusion)
	}
	return c
}

// latestCheck is the newest planwarden check run of sha: the one GitHub
// shows and branch protection counts.
func (h *harness) latestCheck(sha string) githubtest.CheckRun {
	h.t.Helper()
	var last githubtest.CheckRun
	for _, c := range h.gh.CheckRuns(owner, repo, sha) {
		if c.Name == "planwarden" {
			last = c
		}
	}
	return last
}

// wantInReview fails the test when the review comment does not say want.
func (h *harness) wantInReview(want, why string) {
	h.t.Helper()
	if body := h.reviewOf(7); !strings.Contains(body, want) {
		h.t.Errorf("%s (want %q):\n%s", why, want, body)
	}
}

func (h *harness) reviewOf(pr int) string {
	h.t.Helper()
	for _, c := range h.gh.Comments(owner, repo, pr) {
		if c.User == githubtest.BotLogin && strings.HasPrefix(c.Body, "<!-- planwarden:comment") {
			return c.Body
		}
	}
	h.t.Fatalf("no review comment on #%d", pr)
	return ""
}

// 1. Any workflow's artifact counted.
func TestAttackAnotherWorkflowsArtifactIsIgnored(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", stackConfig("prod"))
	h.open(7, sha1, "", "infra/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "failure", "the honest plan of a GPU typo")

	clean := []artifact{plan(t, "stack", "bucket-lifecycle.json", "")}
	h.run(runSpec{id: 502, sha: sha1, path: ".github/workflows/planwarden-plan-fix.yml", artifacts: clean})
	h.run(runSpec{id: 503, sha: sha1, event: "push", artifacts: clean})
	h.run(runSpec{id: 504, sha: sha1, event: "pull_request_target", artifacts: clean})
	h.run(runSpec{id: 505, sha: sha1, headRepo: "mallory/ml-infra", artifacts: clean})
	c := h.wantCheck(sha1, "failure", "after clean artifacts of a workflow the PR added, a push run, a pull_request_target run and a fork")
	if c.ExternalID != "501" {
		t.Errorf("the check reports run %s, want the plan workflow's 501", c.ExternalID)
	}
	if n := h.gh.CallCount("GET", "/actions/runs/502/artifacts") + h.gh.CallCount("GET", "/actions/runs/505/artifacts"); n != 0 {
		t.Errorf("untrusted runs' artifacts were listed %d times, want never", n)
	}
	if !strings.Contains(h.logs.String(), "which is not a plan workflow") || !strings.Contains(h.logs.String(), "ran on a commit of mallory/ml-infra") {
		t.Errorf("the log does not say why the runs were ignored")
	}
}

func TestAttackThePRsOwnPlanWorkflowIsNotTrusted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", stackConfig("prod")+"plan_workflow_inputs: [ci/**]\n")
	h.gh.SetFile(owner, repo, "main", planWorkflow, []byte("on: pull_request\njobs:\n  plan:\n    steps:\n      - uses: ./.github/actions/terraform\n      - run: ./scripts/plan.sh\n      - uses: actions/upload-artifact@v4\n"))
	clean := []artifact{plan(t, "stack", "bucket-lifecycle.json", "")}

	// The honest path: the same clean plan, nothing of the workflow changed.
	h.open(7, sha1, "", "infra/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: clean})
	h.wantCheck(sha1, "success", "a clean plan from the plan workflow")

	for i, tc := range []struct{ name, file string }{
		{"the plan workflow itself", planWorkflow},
		{"a local action the plan workflow uses", ".github/actions/terraform/action.yml"},
		{"a script a step of the plan workflow runs", "scripts/plan.sh"},
		{"a file plan_workflow_inputs names", "ci/terraform-wrapper.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sha := []string{sha2, sha3, sha4, sha5}[i]
			h.push(sha, "infra/main.tf", tc.file)
			h.run(runSpec{id: 601 + int64(i), sha: sha, artifacts: clean})
			h.wantCheck(sha, "failure", "a clean plan made by the PR's own "+tc.name)
			body := h.reviewOf(7)
			if !strings.Contains(body, "plan-workflow-changed") || !strings.Contains(body, tc.file) {
				t.Errorf("the comment does not name plan-workflow-changed and %s:\n%s", tc.file, body)
			}
		})
	}
}

// 2. The plan dated itself.
func TestAttackThePlansTimestampDecidesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", stackConfig("prod"))
	h.open(7, sha1, "", "infra/main.tf")
	future := time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	cleanFuture := artifact{"planwarden-stack", zipOf(t, entry{"plan.json", withTimestamp(t, examplePlan(t, "bucket-lifecycle.json"), future)})}
	typoNow := artifact{"planwarden-stack", zipOf(t, entry{"plan.json", withTimestamp(t, examplePlan(t, "aks-gpu-typo.json"), time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))})}

	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{cleanFuture}})
	h.wantCheck(sha1, "success", "a clean plan stamped 2099")
	h.run(runSpec{id: 502, sha: sha1, artifacts: []artifact{typoNow}})
	if c := h.wantCheck(sha1, "failure", "a newer run's GPU typo, stamped today"); c.ExternalID != "502" {
		t.Errorf("the check reports run %s, want 502", c.ExternalID)
	}
	// An older run delivered late, stamped 2099, is older all the same.
	h.run(runSpec{id: 500, sha: sha1, artifacts: []artifact{cleanFuture}})
	h.wantCheck(sha1, "failure", "an older run delivered late")
	// A second attempt of the newest run is newer: it is reviewed.
	listed := h.gh.CallCount("GET", "/actions/runs/502/artifacts")
	h.run(runSpec{id: 502, attempt: 2, sha: sha1})
	if n := h.gh.CallCount("GET", "/actions/runs/502/artifacts") - listed; n != 1 {
		t.Errorf("attempt 2 of run 502: its artifacts were listed %d times, want once (reviewed, not ignored as older)", n)
	}
	h.wantCheck(sha1, "failure", "attempt 2 of run 502 (same artifacts)")
}

// 3. The artifact picked its environment.
func TestAttackTheArtifactDoesNotPickItsEnvironment(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		art       func(t *testing.T) artifact
		want      string
		inComment string
	}{
		"metadata claims staging for a prod endpoint replacement": {func(t *testing.T) artifact { return plan(t, "stack", "sagemaker-rename.json", "staging") },
			"failure", `names environment "staging" for project "stack"`},
		"metadata claims PROD, which is no environment": {func(t *testing.T) artifact { return plan(t, "stack", "sagemaker-rename.json", "PROD") },
			"failure", `the base branch's config says "prod", which applies`},
		"a plan for a project the config does not declare": {func(t *testing.T) artifact { return plan(t, "sandbox", "bucket-lifecycle.json", "") },
			"failure", "unknown-project"},
		"honest: the metadata agrees with the config": {func(t *testing.T) artifact { return plan(t, "stack", "sagemaker-rename.json", "prod") },
			"failure", "endpoint-replacement"},
		"honest: a clean plan": {func(t *testing.T) artifact { return plan(t, "stack", "bucket-lifecycle.json", "prod") },
			"success", ""},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.config("main", stackConfig("prod"))
			h.open(7, sha1, "", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{tc.art(t)}})
			h.wantCheck(sha1, tc.want, name)
			if body := h.reviewOf(7); !strings.Contains(body, tc.inComment) {
				t.Errorf("the comment does not say %q:\n%s", tc.inComment, body)
			}
		})
	}
}

func TestAttackADeclaredProjectWithoutAPlanFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", "version: 1\nprojects:\n  - {name: stack, directory: infra, environment: prod}\n  - {name: serving, directory: serving, environment: prod}\n")
	h.open(7, sha1, "", "infra/main.tf", "serving/endpoint.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "failure", "serving changed but not planned")
	if body := h.reviewOf(7); !strings.Contains(body, "missing-plan") || !strings.Contains(body, "planwarden-serving") {
		t.Errorf("the comment does not name missing-plan and planwarden-serving:\n%s", body)
	}
	// Honest: both planned.
	h.run(runSpec{id: 502, sha: sha1, artifacts: []artifact{plan(t, "stack", "bucket-lifecycle.json", ""), plan(t, "serving", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "success", "both projects planned clean")
}

// 4. A second plan workflow replaced the first.
func TestAttackASecondPlanWorkflowDoesNotHideTheFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", `version: 1
plan_workflows: [.github/workflows/plan-gpu.yml, .github/workflows/plan-ml.yml]
projects:
  - {name: gpu, directory: gpu, environment: prod}
  - {name: ml, directory: ml, environment: prod}
`)
	h.open(7, sha1, "", "gpu/main.tf", "ml/main.tf")
	h.run(runSpec{id: 501, sha: sha1, path: ".github/workflows/plan-gpu.yml", artifacts: []artifact{plan(t, "gpu", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "failure", "the GPU typo of the first plan workflow")
	h.run(runSpec{id: 502, sha: sha1, path: ".github/workflows/plan-ml.yml", artifacts: []artifact{plan(t, "ml", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "failure", "after a clean run of the second plan workflow")
	h.wantInReview("gpu-sku-loss", "the GPU typo's findings vanished from the comment")
	// Honest: the first workflow plans gpu again, fixed.
	h.run(runSpec{id: 503, sha: sha1, path: ".github/workflows/plan-gpu.yml", artifacts: []artifact{plan(t, "gpu", "bucket-lifecycle.json", "")}})
	h.wantCheck(sha1, "success", "both workflows' newest runs are clean")
}

// 5. The author picked the config by picking the base.
func TestAttackRetargetingThePRReviewsUnderTheNewBase(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.config("main", stackConfig("prod"))
	h.config("lax", stackConfig("prod")+"rules:\n  gpu-sku-loss: {severity: off}\n  gpu-pool-sku: {severity: off}\n")
	h.open(7, sha1, "lax", "infra/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "success", "the GPU typo under the lax branch's config")

	h.gh.SetBase(owner, repo, 7, "main")
	ev := pullRequestEvent("edited", 7, sha1)
	ev["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "lax"}, "sha": map[string]any{"from": sha3}}}
	h.deliver("pull_request", "retarget-1", ev)
	h.wantCheck(sha1, "failure", "retargeted at main")

	// A title edit changes nothing.
	before := len(h.gh.Calls())
	title := pullRequestEvent("edited", 7, sha1)
	title["changes"] = map[string]any{"title": map[string]any{"from": "wip"}}
	h.deliver("pull_request", "title-1", title)
	if n := len(h.gh.Calls()) - before; n != 0 {
		t.Errorf("a title edit made %d GitHub calls, want 0", n)
	}
}

func TestAttackRetargetingUndoesNoInfrastructureChanges(t *testing.T) {
	t.Parallel()
	h := laxPassesWithoutPlan(t, 7)
	h.gh.SetBase(owner, repo, 7, "main")
	ev := pullRequestEvent("edited", 7, sha1)
	ev["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "lax"}}}
	h.deliver("pull_request", "retarget-1", ev)
	if c := h.latestCheck(sha1); c.Status != "in_progress" || c.Conclusion != "" {
		t.Errorf("retargeted at main, whose project the PR changes: check %s/%s %q, want in_progress waiting for the plan", c.Status, c.Conclusion, c.Title)
	}
}

// 6. Overrides were checked once.
const grantConfig = `version: 1
projects:
  - {name: stack, environment: %s}
overrides:
  gpu-sku-loss: {users: [%s], environments: [%s]%s}
  gpu-pool-sku: {users: [%s], environments: [%s]%s}
`

func overrideCfg(env, users, envs, extra string) string {
	return fmt.Sprintf(grantConfig, env, users, envs, extra, users, envs, extra)
}

// typoReviewed is PR 7 (by octocat) with the GPU typo reviewed under cfg.
func typoReviewed(t *testing.T, cfg string) *harness {
	h := newHarness(t)
	h.config("main", cfg)
	h.open(7, sha1, "", "infra/main.tf")
	h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha1, "failure", "the GPU typo before any override")
	return h
}

func (h *harness) overrideBoth(user string) {
	h.command(user, "/override gpu-sku-loss -- moving training to CPU on purpose")
	h.command(user, "/override gpu-pool-sku -- it is a CPU pool now")
}

func TestAttackAnOverrideStaysInItsEnvironment(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("staging", "dave", "staging", ""))
	h.overrideBoth("dave")
	h.wantCheck(sha1, "success", "dave overrode both in staging")
	// The project moves to prod on the base branch; the next push has
	// the same plan.
	h.config("main", overrideCfg("prod", "dave", "staging", ""))
	h.push(sha2, "infra/main.tf")
	h.run(runSpec{id: 502, sha: sha2, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha2, "failure", "the same findings, now in prod")
	h.wantInReview("it was given in staging, and the finding is in prod now", "the comment does not say why dave's overrides lapsed")
}

func TestAttackARuleWideOverrideDoesNotCoverANewResource(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("prod", "alice", "prod", ""))
	h.overrideBoth("alice")
	h.wantCheck(sha1, "success", "alice overrode both")
	// Same plan after a push: the overrides still hold, and say so.
	h.push(sha2, "infra/main.tf")
	h.run(runSpec{id: 502, sha: sha2, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
	h.wantCheck(sha2, "success", "the same findings after a push")
	h.wantInReview("before the latest push", "the comment does not say the overrides predate the push")
	// A push adds a second pool with the same typo: not covered.
	h.push(sha3, "infra/main.tf")
	h.run(runSpec{id: 503, sha: sha3, artifacts: []artifact{{"planwarden-stack", zipOf(t, entry{"plan.json", withSecondPool(t, examplePlan(t, "aks-gpu-typo.json"))})}}})
	h.wantCheck(sha3, "failure", "a new pool's findings")
	h.wantInReview("gpu2", "the comment does not show the new pool")
}

// withSecondPool adds a copy of the GPU pool's change under another name.
func withSecondPool(t *testing.T, plan []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(plan, &m); err != nil {
		t.Fatal(err)
	}
	rcs := m["resource_changes"].([]any)
	for _, rc := range rcs {
		r := rc.(map[string]any)
		if r["address"] == "azurerm_kubernetes_cluster_node_pool.gpu" {
			dup, _ := json.Marshal(r)
			var c map[string]any
			json.Unmarshal(dup, &c)
			c["address"], c["name"] = "azurerm_kubernetes_cluster_node_pool.gpu2", "gpu2"
			m["resource_changes"] = append(rcs, c)
			break
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAttackTheAuthorCannotOverrideTheirOwnFindings(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("prod", "octocat", "prod", ""))
	id := h.command("octocat", "/override gpu-sku-loss -- trust me")
	if h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "octocat wrote this pull request") {
		t.Errorf("the author's override: reaction %q reply %q, want a refusal", h.reaction(id), h.lastReply())
	}
	h.wantCheck(sha1, "failure", "after the author's refused override")

	// allow_author: true lets them.
	h.config("main", overrideCfg("prod", "octocat", "prod", ", allow_author: true"))
	h.overrideBoth("octocat")
	h.wantCheck(sha1, "success", "the author, allowed by allow_author")
}

func TestAttackTwoApprovalsMeanTwoPeople(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("prod", "alice, bob", "prod", ", approvals: 2"))
	h.overrideBoth("alice")
	h.overrideBoth("alice") // again: still one person
	h.wantCheck(sha1, "failure", "one approval of two")
	h.wantInReview("has 1 of the 2 approvals it needs", "the comment does not say approvals are missing")
	h.overrideBoth("bob")
	h.wantCheck(sha1, "success", "alice and bob")
	h.wantInReview("alice, bob", "the comment does not name both approvers")
}

func TestAttackARemovedOverriderStopsCounting(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("prod", "alice", "prod", ""))
	h.overrideBoth("alice")
	h.wantCheck(sha1, "success", "alice overrode both")
	h.config("main", overrideCfg("prod", "bob", "prod", ""))
	h.rerun(sha1)
	h.wantCheck(sha1, "failure", "alice is no longer listed")
	h.wantInReview("alice may not override gpu-sku-loss in prod", "the comment does not say alice's override lapsed")
	id := h.command("alice", "/override gpu-sku-loss -- once more")
	if h.reaction(id) != "-1" {
		t.Errorf("a removed overrider's new override: reaction %q, want -1", h.reaction(id))
	}
}

func TestAttackAnOverrideNeedsAReason(t *testing.T) {
	t.Parallel()
	h := typoReviewed(t, overrideCfg("prod", "alice", "prod", ""))
	before := h.gh.CallCount("GET", "/artifacts")
	id := h.command("alice", "/override gpu-sku-loss")
	if h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "needs a reason") {
		t.Errorf("an override without a reason: reaction %q reply %q, want a refusal", h.reaction(id), h.lastReply())
	}
	id = h.command("mallory", "/override gpu-sku-loss -- because")
	if h.reaction(id) != "-1" {
		t.Errorf("mallory's override: reaction %q, want -1", h.reaction(id))
	}
	if n := h.gh.CallCount("GET", "/artifacts") - before; n != 0 {
		t.Errorf("refused overrides listed or downloaded artifacts %d times, want 0", n)
	}
}

// 7. PRs that never plan waited forever.
func TestAttackAPRWithoutInfrastructureChangesPasses(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nprojects:\n  - {name: stack, directory: infra, environment: prod}\n  - {name: serving, environment: prod, paths: [\"ml/**/*.tf\"]}\n"
	for name, tc := range map[string]struct {
		cfg    string
		files  []string
		status string
	}{
		"docs only":                       {cfg, []string{"README.md", "docs/howto.md", "ml/notes.md"}, "completed"},
		"a file under a project":          {cfg, []string{"README.md", "infra/gpu.tf"}, "in_progress"},
		"a file a project's glob matches": {cfg, []string{"ml/serving/endpoint.tf"}, "in_progress"},
		"the plan workflow only":          {cfg, []string{planWorkflow}, "in_progress"},
		"no projects declared, docs only": {"version: 1\n", []string{"README.md"}, "completed"},
		"a file outside every project":    {cfg, []string{"app/server.go"}, "in_progress"},
		"a module the project calls":      {cfg, []string{"modules/gpu-pool/main.tf"}, "in_progress"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.config("main", tc.cfg)
			h.open(7, sha1, "", tc.files...)
			c := h.planwardenCheck(sha1)
			if c.Status != tc.status {
				t.Errorf("check %s/%s %q, want %s", c.Status, c.Conclusion, c.Title, tc.status)
			}
			if tc.status == "completed" && (c.Conclusion != "success" || c.Title != "No infrastructure changes") {
				t.Errorf("check %s %q, want success \"No infrastructure changes\"", c.Conclusion, c.Title)
			}
		})
	}
}

// 5, continued: one commit, two PRs into different bases. The check
// belongs to the commit, so the stricter base decides, whichever PR came
// first.
func TestAttackASecondPRIntoALaxBaseDoesNotDecide(t *testing.T) {
	t.Parallel()
	const lax = "version: 1\nprojects:\n  - {name: stack, environment: prod}\nrules:\n  gpu-sku-loss: {severity: off}\n  gpu-pool-sku: {severity: off}\n"
	typo := func(t *testing.T) []artifact { return []artifact{plan(t, "stack", "aks-gpu-typo.json", "")} }
	t.Run("the lax PR is reviewed first", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", stackConfig("prod"))
		h.config("lax", lax)
		h.open(8, sha1, "lax", "infra/main.tf")
		h.run(runSpec{id: 501, pr: 8, sha: sha1, artifacts: typo(t)})
		h.wantCheck(sha1, "success", "the GPU typo under lax alone")
		h.open(7, sha1, "main", "infra/main.tf")
		h.wantCheck(sha1, "failure", "the same commit opened into main")
	})
	t.Run("the strict PR is reviewed first", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", stackConfig("prod"))
		h.config("lax", lax)
		h.open(7, sha1, "main", "infra/main.tf")
		h.open(8, sha1, "lax", "infra/main.tf")
		h.run(runSpec{id: 501, pr: 8, sha: sha1, artifacts: typo(t)})
		c := h.wantCheck(sha1, "failure", "the run names the lax PR, main's PR shares the commit")
		if !strings.Contains(c.Summary, "#7") || !strings.Contains(c.Summary, "`main`") {
			t.Errorf("the check does not say #7's base decided it: %q", c.Summary)
		}
	})
}

// 7 and 5 together: a commit that passed "no infrastructure changes" for a
// PR into a lax base waits for a plan once it is also a PR into main.
func TestAttackNoInfrastructureChangesUnderALaxBaseOnly(t *testing.T) {
	t.Parallel()
	h := laxPassesWithoutPlan(t, 8)
	h.open(7, sha1, "main", "infra/main.tf")
	if c := h.latestCheck(sha1); c.Status != "in_progress" {
		t.Errorf("also a PR into main: check %s/%s %q, want in_progress waiting for the plan", c.Status, c.Conclusion, c.Title)
	}
	// A PR into a base that also passes it changes nothing.
	before := len(h.gh.CheckRuns(owner, repo, sha1))
	h.open(9, sha2, "lax", "docs/x.md")
	h.open(10, sha2, "lax", "docs/x.md")
	if n := len(h.gh.CheckRuns(owner, repo, sha2)); n != 1 || before != 2 {
		t.Errorf("%d check runs on a commit that passes for both PRs, want 1 (and 2 on the first, got %d)", n, before)
	}
}

// laxPassesWithoutPlan is PR n into lax, whose config lists its .tf file
// under no_plan_paths, passing at once; main's config would want a plan.
func laxPassesWithoutPlan(t *testing.T, n int) *harness {
	t.Helper()
	h := newHarness(t)
	h.config("main", "version: 1\nprojects:\n  - {name: stack, environment: prod, paths: [\"**/*.tf\"]}\n")
	h.config("lax", "version: 1\nno_plan_paths: [\"**/*.tf\"]\nprojects:\n  - {name: stack, environment: prod, paths: [nothing/**]}\n")
	h.open(n, sha1, "lax", "infra/main.tf")
	if c := h.latestCheck(sha1); c.Conclusion != "success" || c.Title != "No infrastructure changes" {
		t.Fatalf("under lax: check %s %q, want success \"No infrastructure changes\"", c.Conclusion, c.Title)
	}
	return h
}
