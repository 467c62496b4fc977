package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/githubtest"
)

// The gate fails closed: what planwarden cannot see or cannot judge never
// turns the `planwarden` check green. Each of the seventeen ways a pull
// request author turned it green anyway (seven causes), end to end
// against the fake GitHub, with its honest twin: the same pull request
// without the trick gets the right verdict.

// clean is a trusted plan that passes under stackConfig("prod").
func clean(t *testing.T) []artifact {
	return []artifact{plan(t, "stack", "bucket-lifecycle.json", "")}
}

// prWith puts PR 7 at sha on the fake, changing files (with their head
// blob SHAs, when given as path@sha), and announces it.
func (h *harness) prWith(sha string, action string, files ...string) {
	h.t.Helper()
	var fs []githubtest.PRFile
	for _, f := range files {
		p, blob, _ := strings.Cut(f, "@")
		fs = append(fs, githubtest.PRFile{Filename: p, SHA: blob})
	}
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha, Files: fs})
	h.deliver("pull_request", fmt.Sprintf("pr-%s-%s", action, sha), pullRequestEvent(action, 7, sha))
}

// Cause 2: "no infrastructure changes" from path globs, before any plan.
// A root module reads files outside its directory: only an explicit
// allow-list (no_plan_paths, documentation by default) passes without a
// plan, and a pull request no trusted plan workflow will run for fails at
// once saying what to do.
func TestGateNoSuccessWithoutAPlan(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nprojects:\n  - {name: stack, directory: infra, environment: prod}\n"
	t.Run("a module the root module calls waits for the plan, and its plan decides", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg)
		h.open(7, sha1, "", "modules/gpu-pool/main.tf")
		if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
			t.Fatalf("a PR changing only a called module: check %s/%s %q, want in_progress until its plan", c.Status, c.Conclusion, c.Title)
		}
		h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
		h.wantCheck(sha1, "failure", "the module's GPU-to-CPU change, planned")
	})
	t.Run("a fork's PR changing only the module never passes on its own", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg)
		h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, HeadRepo: "mallory/ml-infra", Files: githubtest.Changed("modules/gpu-pool/main.tf")})
		h.deliver("pull_request", "fork-7", pullRequestEvent("opened", 7, sha1))
		h.run(runSpec{id: 501, sha: sha1, headRepo: "mallory/ml-infra", artifacts: clean(t)})
		if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
			t.Errorf("a fork's module-only PR: check %s/%s %q, want in_progress until a trusted plan", c.Status, c.Conclusion, c.Title)
		}
	})
	t.Run("twin: documentation only passes at once", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg)
		h.open(7, sha1, "", "README.md", "docs/gpu.md", "infra/README.md")
		c := h.wantCheck(sha1, "success", "docs only")
		if c.Title != "No infrastructure changes" {
			t.Errorf("docs only: title %q", c.Title)
		}
	})
	t.Run("application code: one no_plan_paths line away from passing", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg+"no_plan_paths: [\"**/*.md\", \"app/**\"]\n")
		h.open(7, sha1, "", "app/server.go", "README.md")
		h.wantCheck(sha1, "success", "app/** listed under no_plan_paths")
	})
}

// Never pending forever: when the trusted plan workflow's on: filters
// match none of the pull request's files, the check says so at once and
// fails with what to do.
func TestGateNoPlanWillComeFailsAtOnce(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nprojects:\n  - {name: stack, directory: infra, environment: prod}\n"
	const wf = "on:\n  pull_request:\n    paths: [\"infra/**\"]\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    steps:\n      - run: terraform plan\n"
	t.Run("application code outside the workflow's paths", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg)
		h.gh.SetFile(owner, repo, "main", planWorkflow, []byte(wf))
		h.open(7, sha1, "", "app/server.go")
		c := h.wantCheck(sha1, "failure", "no trusted plan will come")
		if c.Title != "No plan will come" || !strings.Contains(c.Summary, "no_plan_paths") || !strings.Contains(c.Summary, "matches none") {
			t.Errorf("the check does not say why and what to do: %q %q", c.Title, c.Summary)
		}
	})
	t.Run("twin: a file the workflow's paths match waits for its run", func(t *testing.T) {
		h := newHarness(t)
		h.config("main", cfg)
		h.gh.SetFile(owner, repo, "main", planWorkflow, []byte(wf))
		h.open(7, sha1, "", "infra/main.tf")
		if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
			t.Errorf("a PR the plan workflow runs for: check %s/%s %q, want in_progress", c.Status, c.Conclusion, c.Title)
		}
	})
}

// Cause 3: an override of plan-workflow-changed survives a new workflow.
// The finding carries the changed files' blob SHAs at the head, so a
// grant given after reading one version of the script does not cover the
// next.
func TestGateAnOverrideIsBoundToTheScriptItRead(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nprojects:\n  - {name: stack, environment: prod}\noverrides:\n  plan-workflow-changed: {users: [alice]}\n"
	const wf = "on: pull_request\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./ci/plan.sh\n"
	const harmless, forger = "1111111111111111111111111111111111111aaa", "2222222222222222222222222222222222222bbb"
	for name, tc := range map[string]struct {
		next string
		want string
	}{
		"a push that changes the script again": {forger, "failure"},
		"twin: a push that leaves the script":  {harmless, "success"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.config("main", cfg)
			h.gh.SetFile(owner, repo, "main", planWorkflow, []byte(wf))
			h.prWith(sha1, "opened", "ci/plan.sh@"+harmless, "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: clean(t)})
			h.wantCheck(sha1, "failure", "the PR changes the plan script")
			h.command("alice", "/override plan-workflow-changed -- read the new plan.sh, it only adds a log line")
			h.wantCheck(sha1, "success", "alice overrode it")
			h.prWith(sha2, "synchronize", "ci/plan.sh@"+tc.next, "infra/main.tf")
			h.run(runSpec{id: 502, sha: sha2, artifacts: clean(t)})
			h.wantCheck(sha2, tc.want, "after the push")
		})
	}
}

// Cause 7: run files the workflow reader did not follow. Each plan
// workflow (on the base branch) runs a repository file in a shape the
// reader used to drop; a pull request changing that file gets
// plan-workflow-changed, and one changing only Terraform passes.
func TestGateEveryRunFileOfThePlanWorkflowIsFollowed(t *testing.T) {
	t.Parallel()
	steps := func(s string) string {
		return "on: pull_request\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" + s
	}
	for name, tc := range map[string]struct {
		workflow string
		base     map[string]string // other files of the base branch
		changed  string            // what the trick changes
	}{
		"a matrix working-directory": {workflow: "on: pull_request\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        dir: [infra, serving]\n    steps:\n      - uses: actions/checkout@v4\n      - working-directory: ${{ matrix.dir }}\n        run: ./plan.sh\n",
			changed: "serving/plan.sh"},
		"a command under timeout": {workflow: steps("      - run: timeout 900 ci/tf-plan\n"), changed: "ci/tf-plan"},
		"bash -c":                 {workflow: steps("      - run: bash -c \"./ci/plan\"\n"), changed: "ci/plan"},
		"sudo -E":                 {workflow: steps("      - run: sudo -E ./ci/plan\n"), changed: "ci/plan"},
		"go run of a package":     {workflow: steps("      - run: go run ./tools/x\n"), changed: "tools/x/main.go"},
		"python -m":               {workflow: steps("      - run: python -m tools.plan\n"), changed: "tools/plan.py"},
		"a script sourced by a script": {workflow: steps("      - run: ./ci/plan.sh\n"),
			base: map[string]string{"ci/plan.sh": "#!/bin/sh\n. ./ci/lib.sh\nterraform plan\n"}, changed: "ci/lib.sh"},
		"uses: ./": {workflow: steps("      - uses: ./\n"),
			base: map[string]string{"action.yml": "name: plan\nruns:\n  using: composite\n  steps:\n    - run: ./ci/plan.sh\n      shell: bash\n"}, changed: "ci/plan.sh"},
		"github-script requiring a repository file": {workflow: steps("      - uses: actions/github-script@v7\n        with:\n          script: |\n            const plan = require('./ci/plan.js')\n            await plan(github)\n"),
			changed: "ci/plan.js"},
		"npm run": {workflow: steps("      - run: npm run plan\n"),
			base: map[string]string{"package.json": `{"scripts": {"plan": "node ci/plan.js"}}`}, changed: "ci/plan.js"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, trick := range []bool{true, false} {
				h := newHarness(t)
				h.config("main", stackConfig("prod"))
				h.gh.SetFile(owner, repo, "main", planWorkflow, []byte(tc.workflow))
				for p, c := range tc.base {
					h.gh.SetFile(owner, repo, "main", p, []byte(c))
				}
				files := []string{"infra/main.tf"}
				if trick {
					files = append(files, tc.changed)
				}
				h.open(7, sha1, "", files...)
				h.run(runSpec{id: 501, sha: sha1, artifacts: clean(t)})
				if !trick {
					h.wantCheck(sha1, "success", "twin: the same workflow, the PR changes only Terraform")
					continue
				}
				h.wantCheck(sha1, "failure", "the PR changes "+tc.changed+", which the plan workflow runs")
				h.wantInReview("plan-workflow-changed", "the review does not name the rule")
			}
		})
	}
}

// A step planwarden cannot place at all is a finding of its own
// (plan-workflow-unreadable), unless plan_workflow_inputs covers it.
func TestGateAStepPlanwardenCannotPlaceBlocks(t *testing.T) {
	t.Parallel()
	const wf = "on: pull_request\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./ci/${{ vars.PLAN_TOOL }} plan\n"
	for name, tc := range map[string]struct {
		extra string
		want  string
	}{
		"a script path built at run time":                 {"", "failure"},
		"twin: plan_workflow_inputs covers its directory": {"plan_workflow_inputs: [\"ci/**\"]\n", "success"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.config("main", stackConfig("prod")+tc.extra)
			h.gh.SetFile(owner, repo, "main", planWorkflow, []byte(wf))
			h.open(7, sha1, "", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: clean(t)})
			h.wantCheck(sha1, tc.want, name)
			if tc.want == "failure" {
				h.wantInReview("plan-workflow-unreadable", "the review does not name the rule")
			}
		})
	}
}

// tfPlan is a Terraform plan of one resource change.
func tfPlan(t *testing.T, address, action string, before, after, unknown map[string]any) []byte {
	t.Helper()
	typ, name, _ := strings.Cut(address, ".")
	ch := map[string]any{"actions": []string{action}, "before": before, "after": after, "after_unknown": unknown}
	if before == nil {
		ch["before"] = nil
	}
	data, err := jsonMarshal(map[string]any{
		"format_version": "1.2", "terraform_version": "1.9.0",
		"resource_changes": []any{map[string]any{"address": address, "mode": "managed", "type": typ, "name": name,
			"provider_name": "registry.terraform.io/hashicorp/aws", "change": ch}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Cause 1: an unknown SKU is never judged. A SKU known only after apply,
// on a resource that had GPUs, on a pool that declares itself GPU, or
// where an allow-list applies, is sku-unknown: the check fails in prod
// instead of going neutral on an unpriced-sku warning.
func TestGateAnUnknownSKUIsAFinding(t *testing.T) {
	t.Parallel()
	unknown := map[string]any{"instance_type": true}
	for name, tc := range map[string]struct {
		cfg       string
		plan      func(t *testing.T) []byte
		want, why string
	}{
		"a GPU instance whose type becomes known after apply": {plan: func(t *testing.T) []byte {
			return tfPlan(t, "aws_instance.train", "update", map[string]any{"instance_type": "p4d.24xlarge"}, map[string]any{}, unknown)
		}, want: "failure", why: "sku-unknown"},
		"twin: the same instance becoming an m5.large": {plan: func(t *testing.T) []byte {
			return tfPlan(t, "aws_instance.train", "update", map[string]any{"instance_type": "p4d.24xlarge"}, map[string]any{"instance_type": "m5.large"}, nil)
		}, want: "failure", why: "gpu-sku-loss"},
		"a tainted GPU pool whose vm_size becomes unknown": {plan: func(t *testing.T) []byte {
			return tfPlan(t, "azurerm_kubernetes_cluster_node_pool.pool", "update",
				map[string]any{"name": "batch", "vm_size": "Standard_D4s_v5", "node_taints": []any{"sku=gpu:NoSchedule"}},
				map[string]any{"name": "batch", "node_taints": []any{"sku=gpu:NoSchedule"}}, map[string]any{"vm_size": true})
		}, want: "failure", why: "sku-unknown"},
		"twin: the same pool without its GPU taint": {plan: func(t *testing.T) []byte {
			return tfPlan(t, "azurerm_kubernetes_cluster_node_pool.pool", "update",
				map[string]any{"name": "batch", "vm_size": "Standard_D4s_v5"}, map[string]any{"name": "batch"}, map[string]any{"vm_size": true})
		}, want: "neutral"},
		"a new VM of unknown size where allowed_skus is set": {
			cfg: "version: 1\nprojects:\n  - {name: stack, environment: prod}\nenvironments:\n  prod: {protected: true, allowed_skus: [Standard_NC*]}\n",
			plan: func(t *testing.T) []byte {
				return tfPlan(t, "azurerm_linux_virtual_machine.box", "create", nil, map[string]any{"name": "box"}, map[string]any{"size": true})
			}, want: "failure", why: "sku-unknown"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", orDefault(tc.cfg, stackConfig("prod")))
			h.open(7, sha1, "", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{{"planwarden-stack", zipOf(t, entry{"plan.json", tc.plan(t)})}}})
			h.wantCheck(sha1, tc.want, name)
			if tc.why != "" {
				h.wantInReview(tc.why, "the review does not name the rule")
			}
		})
	}
}

// commandAs posts a PR comment by user, an account of GitHub's type typ
// (User, Bot), and delivers its issue_comment.
func (h *harness) commandAs(user, typ, body string) int64 {
	h.t.Helper()
	id := h.gh.AddComment(owner, repo, 7, user, body)
	h.deliver("issue_comment", fmt.Sprintf("cmd-%d", id), map[string]any{
		"action": "created", "repository": repository(), "installation": installation(),
		"issue":   map[string]any{"number": 7, "pull_request": map[string]any{"url": "https://api.github.com/repos/x/y/pulls/7"}},
		"comment": map[string]any{"id": id, "body": body},
		"sender":  map[string]any{"login": user, "type": typ},
	})
	return id
}

// Cause 5: a bot-added label counted. Labels and commands of bots and
// Apps never approve unless the base config lists the bot under
// approving_bots; github-actions[bot] acts for whoever triggered the
// workflow (the author too) and is refused even when listed... it cannot
// be listed at all.
func TestGateOnlyPeopleApprove(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		by, extra string
		want      string
	}{
		"github-actions[bot] adds the override label":       {by: "github-actions[bot]", want: "failure"},
		"an App's bot the config does not list":             {by: "renovate[bot]", want: "failure"},
		"twin: a person adds the label":                     {by: "carol", want: "success"},
		"twin: a bot the config lists under approving_bots": {by: "renovate[bot]", extra: "approving_bots: [\"renovate[bot]\"]\n", want: "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := typoPR(t)
			h.config("main", overrideConfig+tc.extra)
			h.gh.Label(owner, repo, 7, tc.by, acceptLabel)
			h.rerunBy("reviewer", sha1)
			h.wantCheck(sha1, tc.want, name)
			if tc.want == "failure" && !strings.Contains(h.review().Body, "Only people approve") {
				t.Errorf("the review does not say why the bot's label does not count:\n%s", h.review().Body)
			}
		})
	}
	t.Run("a bot's /override is refused; a person's counts", func(t *testing.T) {
		t.Parallel()
		h := typoPR(t)
		h.config("main", strings.ReplaceAll(overrideConfig, "users: [alice]", "users: [alice, \"github-actions[bot]\"]"))
		id := h.commandAs("github-actions[bot]", "Bot", "/override gpu-sku-loss -- the workflow says so")
		if r := h.reaction(id); r != "-1" || !strings.Contains(h.lastReply(), "Only people approve") {
			t.Errorf("github-actions[bot]'s /override: reaction %q reply %q, want a refusal", r, h.lastReply())
		}
		h.wantCheck(sha1, "failure", "after the bot's /override")
		h.overrideBoth("alice")
		h.wantCheck(sha1, "success", "twin: alice overrides both")
	})
}

// Cause 6: a stale report reached another pull request. A run of a
// commit pull request 7 has moved on from is stale for 7; when the commit
// is still the head of pull request 8, whose review failed, its check
// keeps 8's failure: a commit heading several open pull requests gets the
// strictest of their current results.
func TestGateAStaleReportNeverLoosensAnotherPR(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		other bool
		want  string
	}{
		"the commit still heads another PR whose review failed": {true, "failure"},
		"twin: no other PR heads it: the stale plan is neutral": {false, "neutral"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", stackConfig("prod"))
			if tc.other {
				h.open(8, sha1, "main", "infra/main.tf")
				h.run(runSpec{id: 501, pr: 8, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
				h.wantCheck(sha1, "failure", "PR 8's review of the GPU typo")
			}
			h.open(7, sha2, "main", "infra/main.tf")
			h.run(runSpec{id: 502, pr: 7, sha: sha1, artifacts: clean(t)})
			if c := h.latestCheck(sha1); c.Conclusion != tc.want {
				t.Errorf("check of %s after PR 7's stale run: %s/%s %q, want %s", sha1[:7], c.Status, c.Conclusion, c.Title, tc.want)
			}
		})
	}
}

// reconcile runs the App's reconciler once, as serve does every five
// minutes and the Lambda worker on its schedule.
func (h *harness) reconcile() error {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return h.app.Reconcile(ctx)
}

// laxGPUConfig turns the GPU rules off: the typo passes under it.
const laxGPUConfig = "version: 1\nprojects:\n  - {name: stack, environment: prod}\nrules:\n  gpu-sku-loss: {severity: off}\n  gpu-pool-sku: {severity: off}\n"

// Cause 4: retargeting rested on one delivery. A pull request reviewed
// green under a lax base and retargeted at main while its `edited`
// delivery was lost is decided again under main by the reconciler: the
// base is a fact of every decision.
func TestGateARetargetWhoseDeliveryWasLostIsDecidedAgain(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		retarget bool
		want     string
	}{
		"retargeted at main, the delivery lost":    {true, "failure"},
		"twin: still into lax: nothing is decided": {false, "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", stackConfig("prod"))
			h.config("lax", laxGPUConfig)
			h.open(7, sha1, "lax", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
			h.wantCheck(sha1, "success", "the GPU typo under lax")
			if tc.retarget {
				h.gh.SetBase(owner, repo, 7, "main") // its pull_request edited got 503; GitHub does not retry
			}
			before := len(h.gh.CheckRuns(owner, repo, sha1))
			if err := h.reconcile(); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if c := h.latestCheck(sha1); c.Conclusion != tc.want {
				t.Errorf("after the reconciler: check %s/%s %q, want %s", c.Status, c.Conclusion, c.Title, tc.want)
			}
			if !tc.retarget {
				if n := len(h.gh.CheckRuns(owner, repo, sha1)); n != before || h.latestCheck(sha1).Updates != 1 {
					t.Errorf("the reconciler touched a check decided under the PR's own base: %d check runs (was %d), %d updates", n, before, h.latestCheck(sha1).Updates)
				}
			}
		})
	}
}

// Issue 29: an outage longer than a job's attempts left the check in
// progress (the job and its give-up failed). Once GitHub answers again the
// reconciler concludes it from the finished run whose review gave up.
func TestGateTheReconcilerConcludesACheckWhoseJobsGaveUp(t *testing.T) {
	t.Parallel()
	for name, outage := range map[string]bool{"GitHub down through every attempt": true, "twin: no outage": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", stackConfig("prod"))
			h.open(7, sha1, "", "infra/main.tf")
			if outage {
				h.gh.Fail(githubtest.Fault{Path: "/repos/", Times: 1 << 20, Status: 502})
			}
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
			h.gh.Recover()
			if c := h.latestCheck(sha1); outage && c.Status != "in_progress" {
				t.Fatalf("after the outage: check %s/%s, want still in progress (the give-up failed too)", c.Status, c.Conclusion)
			}
			updates := h.latestCheck(sha1).Updates
			if err := h.reconcile(); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			c := h.wantCheck(sha1, "failure", "the GPU typo, concluded")
			if !outage && c.Updates != updates {
				t.Errorf("the reconciler wrote a check that was concluded: %d updates, was %d", c.Updates, updates)
			}
		})
	}
}

// A merge group carries a pull request's result over only when it was
// decided under the branch the merge group merges into.
func TestGateAMergeGroupCarriesOverOnlyTheResultOfItsBase(t *testing.T) {
	t.Parallel()
	const mergeSHA = "9999999999999999999999999999999999999999"
	for name, tc := range map[string]struct {
		base, want string
	}{
		"the PR was decided under lax, the queue merges into main": {"main", "failure"},
		"twin: the queue merges into lax":                          {"lax", "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", stackConfig("prod"))
			h.config("lax", laxGPUConfig)
			h.open(7, sha1, "lax", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
			h.wantCheck(sha1, "success", "the GPU typo under lax")
			h.deliver("merge_group", "mg-"+tc.base, map[string]any{
				"action": "checks_requested", "repository": repository(), "installation": installation(),
				"merge_group": map[string]any{"head_sha": mergeSHA, "head_ref": "refs/heads/gh-readonly-queue/" + tc.base + "/pr-7-" + sha1, "base_ref": "refs/heads/" + tc.base},
			})
			if c := h.planwardenCheck(mergeSHA); c.Conclusion != tc.want {
				t.Errorf("merge group into %s: check %s/%s %q, want %s", tc.base, c.Status, c.Conclusion, c.Title, tc.want)
			}
		})
	}
}

// dispatchConfig is a base config with plan_source: dispatch.
const dispatchConfig = "version: 1\nplan_source: dispatch\nprojects:\n  - {name: stack, environment: prod}\n"

// mainSHA is the default branch's commit a dispatched plan runs on.
const mainSHA = "ababababababababababababababababababab01"

// dispatchMode is a harness whose base config sets plan_source: dispatch,
// with the example dispatch workflow as the plan workflow on main.
func dispatchMode(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	h.config("main", dispatchConfig)
	wf, err := os.ReadFile("../examples/workflows/planwarden-plan-dispatch.yml")
	if err != nil {
		t.Fatal(err)
	}
	h.gh.SetFile(owner, repo, "main", planWorkflow, wf)
	return h
}

// dispatchedRun is a finished run of the plan workflow on the default
// branch, its title naming the plan of PR 7 at head, triggered by actor
// on branch; its workflow_run is delivered.
func (h *harness) dispatchedRun(id int64, head, actor, branch string, arts []artifact) {
	h.t.Helper()
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: id, Name: "planwarden plan", Path: planWorkflow, Event: "workflow_dispatch",
		HeadSHA: mainSHA, HeadBranch: branch, Actor: actor, Conclusion: "success", DisplayTitle: "planwarden plan #7 pwp-7-" + head})
	for _, a := range arts {
		h.gh.AddArtifact(owner, repo, id, a.name, a.zip)
	}
	ev := workflowRunEvent(id, 7, mainSHA, runOpt{noPRs: true})
	ev["workflow_run"].(map[string]any)["event"] = "workflow_dispatch"
	h.deliver("workflow_run", fmt.Sprintf("dispatched-%d", id), ev)
}

// plan_source: dispatch: planwarden dispatches the plan workflow on the
// default branch at every push, and only those runs count.
func TestGateDispatchModeTrustsOnlyItsOwnDispatches(t *testing.T) {
	t.Parallel()
	t.Run("a push is dispatched on the default branch with the PR and its head", func(t *testing.T) {
		t.Parallel()
		h := dispatchMode(t)
		h.open(7, sha1, "", "infra/main.tf")
		ds := h.gh.Dispatches()
		if len(ds) != 1 {
			t.Fatalf("%d dispatches, want 1: %+v", len(ds), ds)
		}
		d := ds[0]
		if d.Workflow != "planwarden-plan.yml" || d.Ref != "refs/heads/main" || d.Inputs["pr"] != "7" || d.Inputs["head_sha"] != sha1 || d.Inputs["correlation_id"] != "pwp-7-"+sha1 {
			t.Errorf("dispatch %+v, want planwarden-plan.yml on main with pr 7, head_sha and correlation_id pwp-7-<head>", d)
		}
	})
	for name, tc := range map[string]struct {
		run  func(h *harness, t *testing.T)
		want string
	}{
		"the PR's own pull_request run does not count": {func(h *harness, t *testing.T) {
			h.run(runSpec{id: 501, sha: sha1, artifacts: clean(t)})
		}, ""},
		"a dispatch the author made from their branch does not count": {func(h *harness, t *testing.T) {
			h.dispatchedRun(502, sha1, "octocat", "feature-7", clean(t))
		}, ""},
		"a dispatch on main by someone else does not count": {func(h *harness, t *testing.T) {
			h.dispatchedRun(503, sha1, "octocat", "main", clean(t))
		}, ""},
		"twin: planwarden's own dispatch is reviewed": {func(h *harness, t *testing.T) {
			h.dispatchedRun(504, sha1, githubtest.BotLogin, "main", clean(t))
		}, "success"},
		"twin: planwarden's own dispatch of a GPU typo fails": {func(h *harness, t *testing.T) {
			h.dispatchedRun(505, sha1, githubtest.BotLogin, "main", []artifact{plan(t, "stack", "aks-gpu-typo.json", "")})
		}, "failure"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := dispatchMode(t)
			h.open(7, sha1, "", "infra/main.tf")
			tc.run(h, t)
			c := h.planwardenCheck(sha1)
			if c.Conclusion != tc.want || tc.want == "" && c.Status != "in_progress" {
				t.Errorf("check %s/%s %q, want %q", c.Status, c.Conclusion, c.Title, tc.want)
			}
		})
	}
	t.Run("a fork's PR waits for an allowed person's /plan; docs pass at once", func(t *testing.T) {
		t.Parallel()
		h := dispatchMode(t)
		h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, HeadRepo: "mallory/ml-infra", Files: githubtest.Changed("infra/main.tf")})
		h.deliver("pull_request", "fork-7", pullRequestEvent("opened", 7, sha1))
		h.open(8, sha2, "", "README.md")
		if n := len(h.gh.Dispatches()); n != 0 {
			t.Errorf("%d dispatches for a fork's PR and a docs PR, want 0", n)
		}
		if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
			t.Errorf("the fork's PR: check %s/%s, want in progress", c.Status, c.Conclusion)
		}
		h.wantCheck(sha2, "success", "docs only")
	})
}

// plan_source: dispatch: what makes terraform plan run the pull request's
// own code is read from its files through GitHub (never from the
// artifact): plan-runs-pr-code.
func TestGateDispatchModeReadsWhatRunsThePRsCode(t *testing.T) {
	t.Parallel()
	const base = "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"artifacts\"\n}\n"
	for name, tc := range map[string]struct {
		head, want string
	}{
		"a new data \"external\"": {base + "data \"external\" \"x\" {\n  program = [\"./exfiltrate.sh\"]\n}\n", "failure"},
		"twin: a plain change":    {strings.ReplaceAll(base, "artifacts", "artifacts-v2"), "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := dispatchMode(t)
			h.gh.SetFile(owner, repo, "main", "infra/main.tf", []byte(base))
			h.gh.SetFile(owner, repo, sha1, "infra/main.tf", []byte(tc.head))
			h.prWith(sha1, "opened", "infra/main.tf@cafecafecafecafecafecafecafecafecafecafe")
			h.dispatchedRun(504, sha1, githubtest.BotLogin, "main", clean(t))
			h.wantCheck(sha1, tc.want, name)
			if tc.want == "failure" {
				h.wantInReview("plan-runs-pr-code", "the review does not name the rule")
			}
		})
	}
}

// plan_source: dispatch: a fork's pull request is planned only after a
// person with write access comments /plan; the plan runs on the default
// branch, for the fork's head.
func TestGateDispatchModePlansAForkOnlyOnAPersonsPlan(t *testing.T) {
	t.Parallel()
	h := dispatchMode(t)
	h.gh.SetPermission(owner, repo, "alice", "write")
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, HeadRepo: "mallory/ml-infra", Files: githubtest.Changed("infra/main.tf")})
	h.deliver("pull_request", "fork-7", pullRequestEvent("opened", 7, sha1))
	if n := len(h.gh.Dispatches()); n != 0 {
		t.Fatalf("%d dispatches before /plan, want 0", n)
	}
	h.command("alice", "/plan")
	ds := h.gh.Dispatches()
	if len(ds) != 1 || ds[0].Ref != "refs/heads/main" || ds[0].Inputs["head_sha"] != sha1 || !strings.HasPrefix(ds[0].Inputs["correlation_id"], "pwp-7-"+sha1+" pw-7-") {
		t.Fatalf("dispatches after alice's /plan: %+v, want one on main for the fork's head", ds)
	}
	h.dispatchedRun(504, sha1, githubtest.BotLogin, "main", []artifact{plan(t, "stack", "aks-gpu-typo.json", "")})
	if c := h.latestCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("the fork's GPU typo, planned on main: check %s/%s %q, want failure", c.Status, c.Conclusion, c.Title)
	}
}

// Cause 2, continued: a project's paths include the local modules its
// root module calls, learned from its trusted plans and kept with the pull
// request's state: a later push changing only such a module needs that
// project's plan (missing-plan when the run brings none).
func TestGateAModuleAProjectCallsNeedsItsPlan(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nprojects:\n  - {name: stack, directory: infra, environment: prod}\n  - {name: serving, directory: serving, environment: prod}\n"
	serving := func(t *testing.T) artifact {
		var p map[string]any
		if err := json.Unmarshal(tfPlan(t, "aws_s3_bucket.models", "update", map[string]any{"bucket": "models"}, map[string]any{"bucket": "models"}, nil), &p); err != nil {
			t.Fatal(err)
		}
		p["configuration"] = map[string]any{"root_module": map[string]any{"module_calls": map[string]any{
			"gpu": map[string]any{"source": "../modules/gpu-pool", "module": map[string]any{}}}}}
		data, _ := json.Marshal(p)
		return artifact{"planwarden-serving", zipOf(t, entry{"plan.json", data})}
	}
	for name, tc := range map[string]struct {
		next []string
		want string
	}{
		"a push changing only the module serving calls": {[]string{"infra/main.tf", "modules/gpu-pool/main.tf"}, "failure"},
		"twin: a push changing only stack":              {[]string{"infra/main.tf"}, "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", cfg)
			h.open(7, sha1, "", "infra/main.tf", "serving/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: append(clean(t), serving(t))})
			h.wantCheck(sha1, "success", "both projects planned")
			h.push(sha2, tc.next...)
			h.run(runSpec{id: 502, sha: sha2, artifacts: clean(t)}) // the workflow planned stack only
			h.wantCheck(sha2, tc.want, name)
			if tc.want == "failure" {
				h.wantInReview("missing-plan", "the review does not name the rule")
			}
		})
	}
}

// plan_source: dispatch: a dispatched plan whose workflow_run delivery was
// lost is found by the reconciler (its title names the PR and head).
func TestGateTheReconcilerFindsALostDispatchedPlan(t *testing.T) {
	t.Parallel()
	h := dispatchMode(t)
	h.open(7, sha1, "", "infra/main.tf")
	h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 504, Name: "planwarden plan", Path: planWorkflow, Event: "workflow_dispatch",
		HeadSHA: mainSHA, HeadBranch: "main", Actor: githubtest.BotLogin, Conclusion: "success", DisplayTitle: "planwarden plan #7 pwp-7-" + sha1})
	h.gh.AddArtifact(owner, repo, 504, "planwarden-stack", zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}))
	if err := h.reconcile(); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	h.wantCheck(sha1, "failure", "the lost dispatched plan, found and reviewed")
}

// The config is a fact of the decision too: a check decided under a base
// config that has changed since (a push to the base, which sends the pull
// request no event) is decided again by the reconciler.
func TestGateAChangedBaseConfigIsDecidedAgain(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		change bool
		want   string
	}{
		"main's config turns the GPU rules back on": {true, "failure"},
		"twin: main's config unchanged":             {false, "success"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.config("main", laxGPUConfig)
			h.open(7, sha1, "", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "aks-gpu-typo.json", "")}})
			h.wantCheck(sha1, "success", "the GPU typo under the lax config")
			if tc.change {
				h.config("main", stackConfig("prod"))
			}
			if err := h.reconcile(); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if c := h.latestCheck(sha1); c.Conclusion != tc.want {
				t.Errorf("after the reconciler: check %s/%s %q, want %s", c.Status, c.Conclusion, c.Title, tc.want)
			}
			if !tc.change && h.latestCheck(sha1).Updates != 1 {
				t.Errorf("the reconciler wrote a check decided under the config as it is: %d updates", h.latestCheck(sha1).Updates)
			}
		})
	}
}
