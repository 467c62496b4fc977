package app_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/command"
	"github.com/planwarden/planwarden/app/githubtest"
	appjob "github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
)

// The slash commands as users meet them, end to end against the fake
// GitHub: the config on the default branch, the command comment, the
// workflow dispatch, the runs GitHub starts, and the one reply per thread.

const cmdConfig = `version: 1
projects:
  - name: aks-gpu
    environment: prod
  - name: sagemaker
    environment: staging
environments:
  prod: {protected: true}
  staging: {destroy_workflow: destroy-staging.yml, confirm_by: other}
  dev: {}
overrides:
  gpu-sku-loss: {users: [carol]}
`

const planPath = ".github/workflows/planwarden-plan.yml"

// newCmdHarness is a harness with a clock the App reads, the config on
// main (the default branch and the PR's base), and PR 7 open on sha1.
func newCmdHarness(t *testing.T, config string) (*harness, *fakeClock) {
	t.Helper()
	clk := &fakeClock{now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	h := newHarness(t, func(c *app.Config) { c.Now = clk.Now })
	if config != "" {
		h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(config))
	}
	// The example workflows, as a repo that copied them has them: the plan
	// workflow on main and on the PR's branch, the destroy workflow on main
	// only (the fake refuses a dispatch GitHub would refuse).
	for ref, file := range map[string]string{"main": "planwarden-plan.yml", "feature-7": "planwarden-plan.yml", "main ": "destroy-staging.yml"} {
		data, err := os.ReadFile("../examples/workflows/" + file)
		if err != nil {
			t.Fatal(err)
		}
		h.gh.SetFile(owner, repo, strings.TrimSpace(ref), ".github/workflows/"+file, data)
	}
	for user, perm := range map[string]string{"alice": "write", "bob": "admin", "rita": "read"} {
		h.gh.SetPermission(owner, repo, user, perm)
	}
	h.openPR(7, sha1)
	return h, clk
}

// runMoves puts the run on the fake as it now is and delivers its
// workflow_run event (requested, in_progress or completed).
func (h *harness) runMoves(action string, r githubtest.Run) {
	h.t.Helper()
	r.Owner, r.Repo = owner, repo
	r.Status = map[string]string{"requested": "queued", "in_progress": "in_progress", "completed": "completed"}[action]
	if r.Event == "" {
		r.Event = "workflow_dispatch"
	}
	h.gh.AddRun(r)
	run := map[string]any{
		"id": r.ID, "name": r.Name, "path": r.Path, "display_title": r.DisplayTitle, "event": r.Event,
		"head_sha": r.HeadSHA, "head_branch": r.HeadBranch, "status": r.Status, "pull_requests": []any{}, "run_attempt": 1,
		"head_repository": map[string]any{"full_name": owner + "/" + repo}, "repository": repository(),
		"run_started_at": "2026-12-02T10:01:00Z", "html_url": fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", owner, repo, r.ID),
	}
	if action == "completed" {
		run["conclusion"] = r.Conclusion
	}
	h.deliver("workflow_run", fmt.Sprintf("run-%d-%s", r.ID, action), map[string]any{
		"action": action, "repository": repository(), "installation": installation(), "workflow_run": run,
	})
}

// replies returns planwarden's command replies on PR 7, oldest first.
func (h *harness) replies() []githubtest.Comment {
	var out []githubtest.Comment
	for _, c := range h.gh.Comments(owner, repo, 7) {
		if _, ok := comment.ParseReplyMarker(c.Body); ok && c.User == githubtest.BotLogin {
			out = append(out, c)
		}
	}
	return out
}

// onlyReply is the one reply there must be.
func (h *harness) onlyReply() githubtest.Comment {
	h.t.Helper()
	r := h.replies()
	if len(r) != 1 {
		h.t.Fatalf("%d replies, want 1: %+v", len(r), r)
	}
	return r[0]
}

// latestCheckNamed is the newest check run of that name on sha1: the one
// branch protection reads.
func (h *harness) latestCheckNamed(name string) githubtest.CheckRun {
	h.t.Helper()
	var last *githubtest.CheckRun
	for _, c := range h.gh.CheckRuns(owner, repo, sha1) {
		if c.Name == name {
			last = &c
		}
	}
	if last == nil {
		h.t.Fatalf("no check run %s on %s", name, sha1)
	}
	return *last
}

func wantIn(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, body)
		}
	}
}

// planArtifacts uploads a plan per declared project to run id.
func (h *harness) planArtifacts(id int64, aksPlan, sagemakerPlan string) {
	h.t.Helper()
	h.gh.AddArtifact(owner, repo, id, "planwarden-aks-gpu", zipOf(h.t, entry{"plan.json", examplePlan(h.t, aksPlan)}, metadata("aks-gpu", "prod")))
	h.gh.AddArtifact(owner, repo, id, "planwarden-sagemaker", zipOf(h.t, entry{"plan.json", examplePlan(h.t, sagemakerPlan)}, metadata("sagemaker", "staging")))
}

func TestPlanCommandFollowsItsRun(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 501, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7", Conclusion: "success", PRs: []int{7}})
	h.planArtifacts(501, "aks-gpu-typo.json", "bucket-lifecycle.json")
	h.deliver("workflow_run", "first-plan", workflowRunEvent(501, 7, sha1, runOpt{}))
	if c := h.latestCheckNamed(port.CheckName); c.Conclusion != "failure" {
		t.Fatalf("first review: check %s, want failure", c.Conclusion)
	}

	cmd := h.command("alice", "/plan")
	thread := fmt.Sprintf("pw-7-%d", cmd)
	d := h.gh.Dispatches()
	if len(d) != 1 || d[0].Workflow != "planwarden-plan.yml" || d[0].Ref != "refs/heads/feature-7" ||
		d[0].Inputs["pr"] != "7" || d[0].Inputs["projects"] != "" || d[0].Inputs["correlation_id"] != thread {
		t.Fatalf("dispatches %+v, want planwarden-plan.yml on feature-7 with pr 7, every project, correlation_id %s", d, thread)
	}
	if got, want := slices.Sorted(maps.Keys(d[0].Inputs)), slices.Sorted(slices.Values(command.PlanInputs)); !slices.Equal(got, want) {
		t.Errorf("dispatch inputs %v, want command.PlanInputs %v (what the example workflow declares)", got, want)
	}
	check := h.latestCheckNamed(port.CheckName)
	if check.Status != "in_progress" || check.Title != "Re-planning requested by @alice" {
		t.Errorf("after /plan the check is %s %q, want in_progress \"Re-planning requested by @alice\"", check.Status, check.Title)
	}
	if r := h.gh.Reactions(); len(r) != 1 || r[0].Content != "rocket" || r[0].CommentID != cmd {
		t.Errorf("reactions %+v, want a rocket on the command", r)
	}
	reply := h.onlyReply()
	wantIn(t, "the reply", reply.Body, "requested by `alice` for every project", "Dispatched `planwarden-plan.yml` on `feature-7`")

	// GitHub starts the run the dispatch asked for; its run-name carries
	// the correlation id. The same reply follows it.
	run := githubtest.Run{ID: 502, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7",
		DisplayTitle: "planwarden plan #7 " + thread}
	h.runMoves("requested", run)
	wantIn(t, "the queued reply", h.onlyReply().Body, "[run 502]("+h.gh.URL+"/octo-org/ml-infra/actions/runs/502) of `planwarden-plan.yml` on `feature-7` is queued")
	h.runMoves("in_progress", run)
	wantIn(t, "the running reply", h.onlyReply().Body, "is in progress")

	h.planArtifacts(502, "bucket-lifecycle.json", "bucket-lifecycle.json")
	run.Conclusion = "success"
	h.runMoves("completed", run)
	final := h.onlyReply()
	wantIn(t, "the final reply", final.Body, "[run 502]", "succeeded", "Plan reviewed: ✅ **pass**")
	if final.ID != reply.ID || final.Edits != 3 {
		t.Errorf("reply %d edited %d times, want reply %d edited 3 times (queued, in progress, completed)", final.ID, final.Edits, reply.ID)
	}
	if c := h.latestCheckNamed(port.CheckName); c.ID != check.ID || c.Status != "completed" || c.Conclusion != "success" {
		t.Errorf("check %d %s/%s, want the re-planning check %d completed/success", c.ID, c.Status, c.Conclusion, check.ID)
	}
}

// /plan with project names passes them, once each, as the projects input.
func TestPlanNamesItsProjects(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.command("alice", "/plan sagemaker aks-gpu sagemaker")
	if d := h.gh.Dispatches(); len(d) != 1 || d[0].Inputs["projects"] != "sagemaker aks-gpu" {
		t.Fatalf("dispatches %+v, want projects \"sagemaker aks-gpu\"", d)
	}
	wantIn(t, "the reply", h.onlyReply().Body, "for projects `sagemaker`, `aks-gpu`")
}

// When GitHub has already created the run by the time the bot looks, the
// first reply links it.
func TestPlanReplyLinksARunThatAlreadyStarted(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	next := h.gh.AddComment(owner, repo, 7, "someone", "unrelated") + 1 // the id the command will get
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 900, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7",
		Event: "workflow_dispatch", Status: "queued", DisplayTitle: fmt.Sprintf("planwarden plan #7 pw-7-%d", next)})
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 901, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7",
		Event: "workflow_dispatch", Status: "queued", DisplayTitle: "planwarden plan #7 pw-7-1"})
	if id := h.command("alice", "/plan"); id != next {
		t.Fatalf("command got id %d, want %d", id, next)
	}
	wantIn(t, "the reply", h.onlyReply().Body, "for every project", "[run 900](", "is queued")
}

func TestPlanRefusals(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		user, body string
		fork       bool
		want       string
	}{
		"a reader":            {user: "rita", body: "/plan", want: "needs write access to `octo-org/ml-infra`; `rita` has `read`"},
		"someone unknown":     {user: "mallory", body: "/plan", want: "`mallory` has `none`"},
		"a fork's branch":     {user: "alice", body: "/plan", fork: true, want: "cannot run for a fork's branch (`mallory/ml-infra`)"},
		"an unknown project":  {user: "alice", body: "/plan aks-gpuu", want: "unknown project `aks-gpuu`; expected one of `aks-gpu`, `sagemaker` (did you mean `aks-gpu`?)"},
		"a name for a shell":  {user: "alice", body: "/plan $(curl)", want: "is not a project name"},
		"a typo of the verb":  {user: "alice", body: "/planwarden hepl", want: "knows one subcommand: `/planwarden help`"},
		"an unknown env name": {user: "alice", body: "/destroy-staging stagign", want: "neither an environment"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _ := newCmdHarness(t, cmdConfig)
			if tc.fork {
				h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, HeadRepo: "mallory/ml-infra"})
			}
			checks := len(h.gh.CheckRuns(owner, repo, sha1))
			cmd := h.command(tc.user, tc.body)
			if d := h.gh.Dispatches(); len(d) != 0 {
				t.Errorf("dispatched %+v, want nothing", d)
			}
			if n := len(h.gh.CheckRuns(owner, repo, sha1)); n != checks {
				t.Errorf("%d check runs after a refusal, want %d", n, checks)
			}
			if r := h.gh.Reactions(); len(r) != 1 || r[0].Content != "-1" || r[0].CommentID != cmd {
				t.Errorf("reactions %+v, want -1 on the command", r)
			}
			reply := h.onlyReply()
			if m, _ := comment.ParseReplyMarker(reply.Body); m.Command != "refused" {
				t.Errorf("reply marker %+v, want a refusal", m)
			}
			wantIn(t, "the refusal", reply.Body, tc.want)
		})
	}
}

// GitHub refuses a dispatch with inputs the workflow does not declare: the
// reply says what the workflow must declare.
func TestPlanDispatchRefusedByGitHub(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.gh.SetFile(owner, repo, "feature-7", ".github/workflows/planwarden-plan.yml",
		[]byte("on:\n  workflow_dispatch:\n    inputs:\n      pr: {required: true}\n"))
	cmd := h.command("alice", "/plan")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatches %+v, want GitHub to refuse", d)
	}
	if r := h.gh.Reactions(); len(r) != 1 || r[0].Content != "confused" || r[0].CommentID != cmd {
		t.Errorf("reactions %+v, want confused on the command", r)
	}
	wantIn(t, "the refusal", h.onlyReply().Body, "could not dispatch `planwarden-plan.yml` on `feature-7`", "declares the inputs `correlation_id, pr, projects`")
	if c := h.latestCheckNamed(port.CheckName); c.Title == "Re-planning requested by @alice" {
		t.Errorf("the check says re-planning, but nothing was dispatched")
	}
}

// destroyRun is the run a confirmed /destroy-staging starts: the destroy
// workflow, from the default branch.
func destroyRun(thread string) githubtest.Run {
	return githubtest.Run{ID: 700, Name: "destroy staging", Path: ".github/workflows/destroy-staging.yml", HeadSHA: "0000000000000000000000000000000000000abc",
		HeadBranch: "main", DisplayTitle: "destroy staging #7 " + thread}
}

func TestDestroyStagingIsConfirmedAndReportsBack(t *testing.T) {
	t.Parallel()
	h, clk := newCmdHarness(t, cmdConfig)
	zipData := zipOf(t, entry{"plan.json", examplePlan(t, "sagemaker-rename.json")}, metadata("sagemaker", "staging"))
	h.planRun("plan", 501, 7, sha1, zipData, runOpt{})

	ask := h.command("alice", "/destroy-staging")
	thread := fmt.Sprintf("pw-7-%d", ask)
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatched %+v before any confirmation", d)
	}
	reply := h.onlyReply()
	wantIn(t, "the request", reply.Body, "destroy environment `staging`", "What would be destroyed, from the latest plan ([run 501](",
		"`aws_sagemaker_endpoint.", "other than `alice` may confirm with `/destroy-staging confirm` until 10:10 UTC")

	clk.Pause(4 * time.Minute)
	h.command("alice", "/destroy-staging confirm") // confirm_by: other
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("the requester confirmed their own destroy: %+v", d)
	}
	wantIn(t, "the refusal", h.replies()[1].Body, "someone other than `alice` must confirm", "`confirm_by: other`")

	h.command("rita", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("a reader confirmed: %+v", d)
	}

	confirm := h.command("bob", "/destroy-staging confirm")
	d := h.gh.Dispatches()
	want := map[string]string{"pr": "7", "head_ref": "feature-7", "environment": "staging", "projects": "", "correlation_id": thread}
	if len(d) != 1 || d[0].Workflow != "destroy-staging.yml" || d[0].Ref != "refs/heads/main" || fmt.Sprint(d[0].Inputs) != fmt.Sprint(want) {
		t.Fatalf("dispatches %+v, want destroy-staging.yml on main (the default branch, not feature-7) with %v", d, want)
	}
	if got, want := slices.Sorted(maps.Keys(d[0].Inputs)), slices.Sorted(slices.Values(command.DestroyInputs)); !slices.Equal(got, want) {
		t.Errorf("dispatch inputs %v, want command.DestroyInputs %v", got, want)
	}
	if r := h.gh.Reactions(); r[len(r)-1].CommentID != confirm || r[len(r)-1].Content != "rocket" {
		t.Errorf("reactions %+v, want a rocket on bob's confirmation", r)
	}
	got := h.replies()[0]
	if got.ID != reply.ID {
		t.Fatalf("the thread's reply moved: %d, want %d", got.ID, reply.ID)
	}
	wantIn(t, "the confirmed reply", got.Body, "Confirmed by `bob`", "Dispatched `destroy-staging.yml` on `main`")

	run := destroyRun(thread)
	h.runMoves("in_progress", run)
	wantIn(t, "the running reply", h.replies()[0].Body, "[run 700](", "is in progress")
	run.Conclusion = "failure"
	h.runMoves("completed", run)
	wantIn(t, "the result", h.replies()[0].Body, "❌ [run 700]("+h.gh.URL+"/octo-org/ml-infra/actions/runs/700) of `destroy-staging.yml` on `main` concluded `failure`")
}

func TestDestroyStagingRefusals(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		config string
		body   string
		want   string
	}{
		"prod, whatever the arguments":   {cmdConfig, "/destroy-staging prod", "refuses the environment `prod`: it is protected"},
		"a prod project":                 {cmdConfig, "/destroy-staging aks-gpu", "project `aks-gpu` deploys to `prod`, not `staging`"},
		"an environment without destroy": {cmdConfig, "/destroy-staging dev", "the config on `main` gives it no `destroy_workflow`"},
		"an unknown project":             {cmdConfig, "/destroy-staging staging sagemakr", "unknown project `sagemakr`; expected one of `aks-gpu`, `sagemaker` (did you mean `sagemaker`?)"},
		"an unknown environment":         {"", "/destroy-staging qa", "refuses the environment `qa`: it is not an environment of this repository (`prod`, `staging`)"},
		"a confirmation of nothing":      {cmdConfig, "/destroy-staging confirm", "there is no `/destroy-staging` on this pull request waiting for a confirmation"},
		"a broken config on main":        {"version: 1\nenviroments: {}\n", "/destroy-staging", "the config `.github/planwarden.yml` on `main` cannot be used, so no command runs until it is fixed (`planwarden validate` shows the same): .github/planwarden.yml:2: unknown key \"enviroments\""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _ := newCmdHarness(t, tc.config)
			h.command("alice", tc.body)
			if d := h.gh.Dispatches(); len(d) != 0 {
				t.Errorf("dispatched %+v, want nothing", d)
			}
			wantIn(t, "the refusal", h.onlyReply().Body, tc.want)
		})
	}
}

// The default branch's config decides, not the PR's base: a PR into a
// branch whose config makes prod destroyable cannot destroy prod.
func TestDestroyObeysTheDefaultBranch(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, BaseRef: "lax"})
	h.gh.SetFile(owner, repo, "lax", ".github/planwarden.yml", []byte("version: 1\nenvironments:\n  prod: {destroy_workflow: destroy-prod.yml}\n"))
	h.command("alice", "/destroy-staging prod")
	wantIn(t, "the refusal", h.onlyReply().Body, "refuses the environment `prod`: it is protected")
}

func TestDestroyConfirmationExpires(t *testing.T) {
	t.Parallel()
	h, clk := newCmdHarness(t, cmdConfig)
	h.command("alice", "/destroy-staging")
	clk.Pause(10*time.Minute + time.Second)
	h.command("bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatched %+v after the confirmation window", d)
	}
	r := h.replies()
	if len(r) != 2 {
		t.Fatalf("%d replies, want the request and the refusal", len(r))
	}
	wantIn(t, "the request", r[0].Body, "⌛ Nobody confirmed before 10:10 UTC; nothing was destroyed", "(the config's projects in `staging`: `sagemaker`)")
	wantIn(t, "the refusal", r[1].Body, "the request of `alice` lapsed at 10:10 UTC")
	// A lapsed request stays lapsed.
	h.command("bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatched %+v on a second confirmation", d)
	}
}

// Anyone with write access, the requester included, confirms when the
// environment does not say confirm_by: other.
func TestDestroyConfirmedByTheRequester(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, strings.Replace(cmdConfig, ", confirm_by: other", "", 1))
	ask := h.command("alice", "/destroy-staging staging sagemaker")
	wantIn(t, "the request", h.onlyReply().Body, "(project `sagemaker`)", "There is no plan of this environment", "Anyone with write access (you included)")
	h.command("alice", "/destroy-staging confirm")
	d := h.gh.Dispatches()
	if len(d) != 1 || d[0].Inputs["projects"] != "sagemaker" || d[0].Inputs["correlation_id"] != fmt.Sprintf("pw-7-%d", ask) {
		t.Fatalf("dispatches %+v, want one for sagemaker", d)
	}
}

func TestHelpListsWhatTheConfigAllows(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.command("rita", "/planwarden help")
	body := h.onlyReply().Body
	wantIn(t, "the help", body, "from `.github/planwarden.yml` on `main`", "projects: `aks-gpu`, `sagemaker`",
		"`/destroy-staging staging [project...]`", "someone else with write access confirms",
		"`/override gpu-sku-loss [ADDRESS] -- reason`", "`carol`", "never touches: `prod`")
	if strings.Contains(body, "/destroy-staging dev") {
		t.Errorf("help offers to destroy dev, which has no destroy_workflow:\n%s", body)
	}
}

func TestOlderRepliesAreMinimized(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		config string
		hidden bool
	}{
		"by default":          {cmdConfig, true},
		"not when turned off": {cmdConfig + "minimize_outdated: false\n", false},
	} {
		t.Run(name, func(t *testing.T) {
			h, _ := newCmdHarness(t, tc.config)
			h.command("rita", "/plan")             // refused
			h.command("alice", "/destroy-staging") // waits for a confirmation
			h.command("alice", "/planwarden help") // supersedes the refusal
			r := h.replies()
			if len(r) != 3 {
				t.Fatalf("%d replies, want 3", len(r))
			}
			if r[0].Minimized != tc.hidden || tc.hidden && r[0].MinimizedReason != "OUTDATED" {
				t.Errorf("the refusal: minimized %v (%s), want %v as OUTDATED", r[0].Minimized, r[0].MinimizedReason, tc.hidden)
			}
			if r[1].Minimized {
				t.Errorf("the destroy request still waiting for a confirmation was minimized")
			}
			if r[2].Minimized {
				t.Errorf("the newest reply was minimized")
			}
			calls := h.gh.GraphQLCalls()
			if want := map[bool]int{true: 1, false: 0}[tc.hidden]; len(calls) != want {
				t.Errorf("%d GraphQL calls, want %d", len(calls), want)
			}
		})
	}
}

func TestCheckPerProject(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig+"check_per_project: true\n")
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 501, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7", Conclusion: "success", PRs: []int{7}})
	h.gh.AddArtifact(owner, repo, 501, "planwarden-aks-gpu", zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}, metadata("aks-gpu", "prod")))
	h.gh.AddArtifact(owner, repo, 501, "planwarden-sagemaker", zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}, metadata("sagemaker", "staging")))
	h.deliver("workflow_run", "plan", workflowRunEvent(501, 7, sha1, runOpt{}))

	main := h.latestCheckNamed(port.CheckName)
	if main.Conclusion != "failure" {
		t.Errorf("planwarden concluded %s, want failure", main.Conclusion)
	}
	wantIn(t, "the check summary", main.Summary, "### Projects", "| `aks-gpu` | `prod` | ❌ fail |", "| `sagemaker` | `staging` | ✅ pass |", "[run 501](")
	for project, want := range map[string]string{"aks-gpu": "failure", "sagemaker": "success"} {
		c := h.latestCheckNamed("planwarden/" + project)
		if c.Status != "completed" || c.Conclusion != want {
			t.Errorf("planwarden/%s is %s/%s %q, want completed/%s", project, c.Status, c.Conclusion, c.Title, want)
		}
	}

	// "Re-run" on a project's check reviews the same run again.
	sm := h.latestCheckNamed("planwarden/sagemaker")
	h.deliver("check_run", "rerun-sagemaker", map[string]any{
		"action": "rerequested", "repository": repository(), "installation": installation(), "sender": map[string]any{"login": "alice"},
		"check_run": map[string]any{"id": sm.ID, "name": "planwarden/sagemaker", "head_sha": sha1, "external_id": sm.ExternalID,
			"pull_requests": []any{map[string]any{"number": 7}}},
	})
	if n := h.gh.CallCount("GET", "/actions/runs/501/artifacts"); n != 2 {
		t.Errorf("artifacts listed %d times, want 2 (the run, then the re-run of planwarden/sagemaker)", n)
	}
	if c := h.latestCheckNamed("planwarden/sagemaker"); c.ID != sm.ID || c.Updates <= sm.Updates || c.Conclusion != "success" {
		t.Errorf("planwarden/sagemaker after the re-run: %+v, want the same check completed again", c)
	}

	h.command("alice", "/plan sagemaker")
	if c := h.latestCheckNamed("planwarden/sagemaker"); c.Status != "in_progress" {
		t.Errorf("after /plan sagemaker, planwarden/sagemaker is %s, want in_progress", c.Status)
	}
	if c := h.latestCheckNamed("planwarden/aks-gpu"); c.Status != "completed" {
		t.Errorf("after /plan sagemaker, planwarden/aks-gpu is %s, want it left completed", c.Status)
	}
}

// A new review (a push, a new plan) supersedes the replies of finished
// commands; a /plan whose run is the one reviewed keeps its reply, which
// gets the verdict.
func TestANewReviewHidesFinishedReplies(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.command("rita", "/plan") // refused, so finished
	cmd := h.command("alice", "/plan")
	run := githubtest.Run{ID: 502, Name: "planwarden plan", Path: planPath, HeadSHA: sha1, HeadBranch: "feature-7",
		DisplayTitle: fmt.Sprintf("planwarden plan #7 pw-7-%d", cmd), Conclusion: "success"}
	h.planArtifacts(502, "bucket-lifecycle.json", "bucket-lifecycle.json")
	h.runMoves("completed", run)
	r := h.replies()
	if len(r) != 2 || !r[0].Minimized || r[1].Minimized {
		t.Fatalf("replies %+v, want the refusal minimized and the /plan reply shown", r)
	}
	wantIn(t, "the /plan reply", r[1].Body, "Plan reviewed: ✅ **pass**")

	// The next push's plan supersedes the finished /plan too.
	h.planRun("next", 503, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}, metadata("aks-gpu", "prod")), runOpt{})
	if r := h.replies(); !r[1].Minimized || r[1].MinimizedReason != "OUTDATED" {
		t.Errorf("after a newer review the finished /plan reply is minimized=%v (%s), want OUTDATED", r[1].Minimized, r[1].MinimizedReason)
	}
}

// One destroy request waits at a time: a newer one replaces it, and only
// the newer one can be confirmed.
func TestANewDestroyRequestReplacesTheWaitingOne(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.command("alice", "/destroy-staging")
	second := h.command("bob", "/destroy-staging staging sagemaker")
	r := h.replies()
	if len(r) != 2 {
		t.Fatalf("%d replies, want 2", len(r))
	}
	wantIn(t, "the first request", r[0].Body, "A newer `/destroy-staging` replaced this request")
	if !r[0].Minimized || r[1].Minimized {
		t.Errorf("minimized: first %v, second %v; want the replaced one hidden, the waiting one shown", r[0].Minimized, r[1].Minimized)
	}
	h.command("alice", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 1 || d[0].Inputs["correlation_id"] != fmt.Sprintf("pw-7-%d", second) || d[0].Inputs["projects"] != "sagemaker" {
		t.Fatalf("dispatches %+v, want bob's request (sagemaker)", d)
	}
}

// A request nobody confirmed in time says so when a newer reply hides it.
func TestALapsedRequestIsHiddenAsExpired(t *testing.T) {
	t.Parallel()
	h, clk := newCmdHarness(t, cmdConfig)
	h.command("alice", "/destroy-staging")
	clk.Pause(11 * time.Minute)
	h.command("rita", "/planwarden help")
	r := h.replies()
	if len(r) != 2 || !r[0].Minimized {
		t.Fatalf("replies %+v, want the lapsed request minimized", r)
	}
	wantIn(t, "the lapsed request", r[0].Body, "⌛ Nobody confirmed before 10:10 UTC")
	h.command("bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatched %+v for a lapsed request", d)
	}
	wantIn(t, "the refusal", h.replies()[2].Body, "there is no `/destroy-staging` on this pull request waiting for a confirmation")
}

// A run only moves the thread it was dispatched for: another workflow, or
// the right workflow on another branch or from another event, that names
// the thread's id in its title changes nothing.
func TestOnlyTheDispatchedRunMovesTheThread(t *testing.T) {
	t.Parallel()
	for name, run := range map[string]githubtest.Run{
		"another workflow":   {Path: ".github/workflows/other.yml", HeadBranch: "feature-7", Event: "workflow_dispatch"},
		"another branch":     {Path: planPath, HeadBranch: "main", Event: "workflow_dispatch"},
		"a pull_request run": {Path: planPath, HeadBranch: "feature-7", Event: "pull_request"},
	} {
		t.Run(name, func(t *testing.T) {
			h, _ := newCmdHarness(t, cmdConfig)
			cmd := h.command("alice", "/plan")
			run.ID, run.Name, run.HeadSHA, run.DisplayTitle = 610, "look-alike", sha1, fmt.Sprintf("look-alike pw-7-%d", cmd)
			h.runMoves("in_progress", run)
			if r := h.onlyReply(); r.Edits != 0 || strings.Contains(r.Body, "run 610") {
				t.Errorf("the reply followed %s: %d edits\n%s", name, r.Edits, r.Body)
			}
		})
	}
}

// The config is read again at the confirmation: a destroy workflow that
// changed since the request is not dispatched.
func TestDestroyConfirmationRereadsTheConfig(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, cmdConfig)
	h.command("alice", "/destroy-staging")
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(strings.Replace(cmdConfig, "destroy-staging.yml", "teardown.yml", 1)))
	h.command("bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 0 {
		t.Fatalf("dispatched %+v after the destroy workflow changed", d)
	}
	wantIn(t, "the refusal", h.replies()[1].Body, "the destroy workflow of `staging` changed since the request (now `teardown.yml`)")
}

// A job that fails after its dispatch is retried (SQS delivers it again)
// without dispatching twice: the retry only writes what is missing.
func TestARetriedCommandDispatchesOnce(t *testing.T) {
	t.Parallel()
	h, _ := newCmdHarness(t, strings.Replace(cmdConfig, ", confirm_by: other", "", 1))
	retry := func(id int64, user, body string) {
		t.Helper()
		j := appjob.Job{DeliveryID: fmt.Sprintf("retry-%d", id), Event: "issue_comment", InstallationID: instID, Owner: owner, Repo: repo, PR: 7,
			ReceivedAt: time.Now(), IssueComment: &appjob.IssueComment{CommentID: id, Body: body, Sender: user}}
		if err := h.app.Process(context.Background(), j); err != nil {
			t.Fatalf("retry of %q: %v", body, err)
		}
	}

	h.gh.Fail(githubtest.Fault{Method: "POST", Path: "/issues/7/comments", Times: 1, Status: 422})
	plan := h.command("alice", "/plan")
	if d := h.gh.Dispatches(); len(d) != 1 || len(h.replies()) != 0 {
		t.Fatalf("first attempt: %d dispatches, %d replies; want 1 and none (the reply failed)", len(d), len(h.replies()))
	}
	retry(plan, "alice", "/plan")
	if d := h.gh.Dispatches(); len(d) != 1 {
		t.Errorf("%d dispatches after the retry, want still 1", len(d))
	}
	wantIn(t, "the reply", h.onlyReply().Body, "Dispatched `planwarden-plan.yml`")

	h.command("alice", "/destroy-staging")
	h.gh.Fail(githubtest.Fault{Method: "PATCH", Path: "/issues/comments/", Times: 1, Status: 422})
	confirm := h.command("bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 2 {
		t.Fatalf("%d dispatches after the confirmation, want 2", len(d))
	}
	retry(confirm, "bob", "/destroy-staging confirm")
	if d := h.gh.Dispatches(); len(d) != 2 {
		t.Errorf("%d dispatches after the retried confirmation, want still 2", len(d))
	}
	r := h.replies()
	wantIn(t, "the destroy reply", r[len(r)-1].Body, "Confirmed by `bob`")
	if strings.Contains(r[len(r)-1].Body, "no `/destroy-staging` on this pull request waiting") {
		t.Errorf("the retry was refused as if nothing was waiting:\n%s", r[len(r)-1].Body)
	}
}
