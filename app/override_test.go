package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
)

// overrideConfig is the base branch's config of the override stories.
const overrideConfig = `version: 1
projects:
  - {name: stack, environment: prod}
overrides:
  gpu-sku-loss:
    users: [alice]
    teams: [octo-org/ml-platform]
    labels: [planwarden/accept-gpu-change]
  gpu-pool-sku:
    users: [alice]
    teams: [octo-org/ml-platform]
    labels: [planwarden/accept-gpu-change]
`

const gpuPool = "azurerm_kubernetes_cluster_node_pool.gpu"

// typoPR is the AKS GPU typo story, reviewed and blocked: gpu-sku-loss and
// gpu-pool-sku both block the prod pool.
func typoPR(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, func(c *app.Config) { c.Now = func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) } })
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(overrideConfig))
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}, metadata("stack", "prod")), runOpt{})
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Fatalf("before any override the check is %q, want failure", c.Conclusion)
	}
	return h
}

// command posts a PR comment by user and delivers its issue_comment.
func (h *harness) command(user, body string) int64 {
	h.t.Helper()
	id := h.gh.AddComment(owner, repo, 7, user, body)
	h.deliver("issue_comment", fmt.Sprintf("cmd-%d", id), map[string]any{
		"action": "created", "repository": repository(), "installation": installation(),
		"issue":   map[string]any{"number": 7, "pull_request": map[string]any{"url": "https://api.github.com/repos/x/y/pulls/7"}},
		"comment": map[string]any{"id": id, "body": body},
		"sender":  map[string]any{"login": user, "type": "User"},
	})
	return id
}

// review is the bot's review comment; lastReply the newest comment.
func (h *harness) review() githubtest.Comment {
	h.t.Helper()
	for _, c := range h.gh.Comments(owner, repo, 7) {
		if c.User == githubtest.BotLogin && strings.HasPrefix(c.Body, "<!-- planwarden:comment") {
			return c
		}
	}
	h.t.Fatal("no review comment")
	return githubtest.Comment{}
}

func (h *harness) lastReply() string {
	cs := h.gh.Comments(owner, repo, 7)
	return cs[len(cs)-1].Body
}

func (h *harness) reaction(id int64) string {
	for _, r := range h.gh.Reactions() {
		if r.CommentID == id {
			return r.Content
		}
	}
	return ""
}

func TestAnAuthorizedOverrideTurnsTheCheckGreen(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	id := h.command("alice", "/override gpu-sku-loss -- moving the training jobs to the CPU pool on purpose")
	if r := h.reaction(id); r != "+1" {
		t.Errorf("reaction %q, want +1", r)
	}
	if reply := h.lastReply(); !strings.Contains(reply, "`alice` overrode `gpu-sku-loss`") {
		t.Errorf("reply %q, want it to say alice overrode gpu-sku-loss", reply)
	}
	// gpu-pool-sku still blocks the same pool.
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("with gpu-pool-sku still blocking the check is %q, want failure", c.Conclusion)
	}
	body := h.review().Body
	for _, want := range []string{"**Overridden** by `alice` on 2026-12-02 10:00 UTC", "moving the training jobs to the CPU pool on purpose", "given on 1111111"} {
		if !strings.Contains(body, want) {
			t.Errorf("review comment does not say %q:\n%s", want, body)
		}
	}

	h.command("alice", "/override gpu-pool-sku "+gpuPool+" -- it is a CPU pool now")
	c := h.planwardenCheck(sha1)
	if c.Conclusion != "success" {
		t.Errorf("with both blocking findings overridden the check is %q %q, want success", c.Conclusion, c.Title)
	}
	rev := h.review()
	if strings.Count(rev.Body, "**Overridden** by `alice`") != 2 {
		t.Errorf("review comment shows %d overrides by alice, want 2:\n%s", strings.Count(rev.Body, "**Overridden** by `alice`"), rev.Body)
	}
	if n := len(h.gh.Comments(owner, repo, 7)); n != 5 { // review, 2 commands, 2 replies
		t.Errorf("%d comments, want the one review edited in place", n)
	}
	if n := h.gh.CallCount("POST", "/memberships/"); n != 0 {
		t.Errorf("%d membership calls for a listed user", n)
	}
}

func TestAnUnauthorizedOverrideIsRefused(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	before := h.review()
	updates := h.planwardenCheck(sha1).Updates
	id := h.command("mallory", "/override gpu-sku-loss -- trust me")
	if r := h.reaction(id); r != "-1" {
		t.Errorf("reaction %q, want -1", r)
	}
	reply := h.lastReply()
	t.Logf("refusal: %s", reply)
	for _, want := range []string{"`mallory` may not override `gpu-sku-loss`", "`alice`", "`octo-org/ml-platform`", "`planwarden/accept-gpu-change`"} {
		if !strings.Contains(reply, want) {
			t.Errorf("refusal %q does not say %q", reply, want)
		}
	}
	after := h.review()
	if after.Edits != before.Edits || after.Body != before.Body {
		t.Errorf("the review comment changed after a refused override")
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" || c.Updates != updates {
		t.Errorf("check %s after %d updates (was %d), want failure untouched", c.Conclusion, c.Updates, updates)
	}
	// Nothing was recorded: a later re-review still blocks.
	h.command("alice", "/override gpu-pool-sku -- accepted in review")
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q: mallory's override must not have been recorded", c.Conclusion)
	}
	if strings.Contains(h.review().Body, "mallory") {
		t.Errorf("the review comment names mallory")
	}
}

func TestATeamMemberMayOverride(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	h.gh.SetTeamMember("octo-org", "ml-platform", "bob", "active")
	h.gh.SetTeamMember("octo-org", "ml-platform", "carol", "pending")
	refused := h.command("carol", "/override gpu-sku-loss -- accepted in review")
	if r := h.reaction(refused); r != "-1" {
		t.Errorf("a pending team member: reaction %q, want -1", r)
	}
	ok1 := h.command("bob", "/override gpu-sku-loss -- approved in #ml-platform")
	ok2 := h.command("bob", "/override gpu-pool-sku -- accepted in review")
	if h.reaction(ok1) != "+1" || h.reaction(ok2) != "+1" {
		t.Errorf("a team member's overrides: reactions %q %q, want +1", h.reaction(ok1), h.reaction(ok2))
	}
	// Asked at each command and again at each review: authority is
	// checked at every review, not once.
	if n := h.gh.CallCount("GET", "/orgs/octo-org/teams/ml-platform/memberships/bob"); n != 4 {
		t.Errorf("bob's membership asked %d times, want once per command and once per review", n)
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "success" {
		t.Errorf("check %q after bob overrode both findings, want success", c.Conclusion)
	}
	if body := h.review().Body; !strings.Contains(body, "**Overridden** by `bob`") || strings.Contains(body, "carol") {
		t.Errorf("review comment should show bob's overrides and not carol:\n%s", body)
	}

	// bob leaves the team: at the next review his overrides stop counting.
	h.gh.SetTeamMember("octo-org", "ml-platform", "bob", "pending")
	h.rerun(sha1)
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q after bob left the team, want failure", c.Conclusion)
	}
	if body := h.review().Body; strings.Contains(body, "**Overridden** by `bob`") || !strings.Contains(body, "bob no longer counts") {
		t.Errorf("review comment should drop bob's overrides and say so:\n%s", body)
	}
}

func TestAnOverrideLabel(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	label := func(action string) {
		if action == "labeled" {
			h.gh.Label(owner, repo, 7, "carol", "planwarden/accept-gpu-change")
		} else {
			h.gh.Unlabel(owner, repo, 7, "carol", "planwarden/accept-gpu-change")
		}
		ev := pullRequestEvent(action, 7, sha1)
		ev["label"] = map[string]any{"name": "planwarden/accept-gpu-change"}
		ev["sender"] = map[string]any{"login": "carol"}
		if code := h.deliver("pull_request", "label-"+action, ev); code != http.StatusAccepted {
			t.Fatalf("%s delivery: status %d", action, code)
		}
	}
	label("labeled")
	if c := h.planwardenCheck(sha1); c.Conclusion != "success" {
		t.Errorf("with the override label the check is %q %q, want success", c.Conclusion, c.Title)
	}
	if body := h.review().Body; strings.Count(body, "**Overridden** by `label:planwarden/accept-gpu-change (added by carol)` on ") != 2 {
		t.Errorf("review comment should show both findings overridden by the label, added by carol:\n%s", body)
	}
	label("unlabeled")
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("with the label removed the check is %q, want failure again", c.Conclusion)
	}
	if strings.Contains(h.review().Body, "**Overridden**") {
		t.Errorf("the review still shows an override after the label went")
	}

	// A label the config does not name does nothing at all.
	arts, checks := h.gh.CallCount("GET", "/artifacts"), h.gh.CallCount("PATCH", "/check-runs/")
	h.gh.SetLabels(owner, repo, 7, "documentation")
	ev := pullRequestEvent("labeled", 7, sha1)
	ev["label"] = map[string]any{"name": "documentation"}
	h.deliver("pull_request", "label-docs", ev)
	if h.gh.CallCount("GET", "/artifacts") != arts || h.gh.CallCount("PATCH", "/check-runs/") != checks {
		t.Errorf("an unrelated label reviewed the plan again")
	}
}

func TestPlanErroredCannotBeOverridden(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte("version: 1\noverrides:\n  \"*\":\n    users: [alice]\n"))
	id := h.command("alice", "/override plan-errored -- accepted in review")
	if r := h.reaction(id); r != "-1" {
		t.Errorf("reaction %q, want -1", r)
	}
	if reply := h.lastReply(); !strings.Contains(reply, "`plan-errored` cannot be overridden") {
		t.Errorf("reply %q, want it to say plan-errored cannot be overridden", reply)
	}
	if id := h.command("alice", "/override no-such-rule -- accepted in review"); h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "not a rule of this repo") {
		t.Errorf("an unknown rule: reaction %q reply %q", h.reaction(id), h.lastReply())
	}
}

func TestOverrideAloneListsWhoMay(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	id := h.command("mallory", "/override")
	if r := h.reaction(id); r != "eyes" {
		t.Errorf("reaction %q, want eyes", r)
	}
	reply := h.lastReply()
	t.Logf("list: %s", reply)
	for _, want := range []string{"`gpu-sku-loss` on `" + gpuPool + "`", "`gpu-pool-sku` on `" + gpuPool + "`", "the user `alice`, or members of `octo-org/ml-platform`, or the pull request label `planwarden/accept-gpu-change`"} {
		if !strings.Contains(reply, want) {
			t.Errorf("list %q does not say %q", reply, want)
		}
	}
}

func TestAnOverrideOutlivesAPushAndSaysSo(t *testing.T) {
	t.Parallel()
	const sha2 = "2222222222222222222222222222222222222222"
	h := typoPR(t)
	h.command("alice", "/override gpu-sku-loss -- accepted in review")
	h.command("alice", "/override gpu-pool-sku -- accepted in review")
	h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha2})
	h.deliver("pull_request", "sync-2", pullRequestEvent("synchronize", 7, sha2))
	h.planRun("run-2", 502, 7, sha2, zipOf(t, entry{"plan.json", examplePlan(t, "aks-gpu-typo.json")}, metadata("stack", "prod")), runOpt{})
	if c := h.planwardenCheck(sha2); c.Conclusion != "success" {
		t.Errorf("the new head's check is %q, want success: the overrides stay", c.Conclusion)
	}
	if body := h.review().Body; strings.Count(body, "given on 1111111, before the latest push") != 2 {
		t.Errorf("review comment should say both overrides predate the push:\n%s", body)
	}
}

func TestOverrideBeforeAnyReviewIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(overrideConfig))
	h.openPR(7, sha1)
	id := h.command("alice", "/override gpu-sku-loss -- accepted in review")
	if h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "no review of 1111111") {
		t.Errorf("reaction %q reply %q, want a refusal saying there is no review yet", h.reaction(id), h.lastReply())
	}
	if c := h.planwardenCheck(sha1); c.Status != "in_progress" {
		t.Errorf("check %s, want still waiting", c.Status)
	}
}

func TestARevokedOverrideBlocksAgain(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	h.command("alice", "/override gpu-sku-loss -- accepted in review")
	h.command("alice", "/override gpu-pool-sku -- accepted in review")
	if c := h.planwardenCheck(sha1); c.Conclusion != "success" {
		t.Fatalf("check %q after both overrides, want success", c.Conclusion)
	}
	h.gh.SetPermission(owner, repo, "dave", "read")
	if id := h.command("dave", "/override --revoke gpu-sku-loss"); h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "needs write access") {
		t.Errorf("a reader's revoke: reaction %q reply %q, want a refusal", h.reaction(id), h.lastReply())
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "success" {
		t.Errorf("check %q after a refused revoke, want success still", c.Conclusion)
	}
	h.gh.SetPermission(owner, repo, "bob", "write")
	if id := h.command("bob", "/override --revoke gpu-sku-loss "+gpuPool); h.reaction(id) != "+1" {
		t.Errorf("a writer's revoke: reaction %q reply %q, want +1", h.reaction(id), h.lastReply())
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q after the revoke, want failure again", c.Conclusion)
	}
	if body := h.review().Body; strings.Count(body, "**Overridden** by `alice`") != 1 {
		t.Errorf("review comment should show only the gpu-pool-sku override left:\n%s", body)
	}
}

func TestALabelAloneDoesNotRecordAnOverride(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	h.gh.SetLabels(owner, repo, 7, "planwarden/accept-gpu-change")
	id := h.command("mallory", "/override gpu-sku-loss -- the label says so")
	if h.reaction(id) != "eyes" || !strings.Contains(h.lastReply(), "already overrides") {
		t.Errorf("reaction %q reply %q, want a note that the label already overrides it", h.reaction(id), h.lastReply())
	}
	// The label goes: nothing of mallory's stayed behind.
	h.gh.SetLabels(owner, repo, 7)
	h.command("alice", "/override gpu-pool-sku -- accepted in review")
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q: gpu-sku-loss must block again once the label is gone", c.Conclusion)
	}
	if strings.Contains(h.review().Body, "mallory") {
		t.Errorf("the review comment names mallory")
	}
}

func TestAnOverrideIsCheckedPerEnvironment(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(`version: 1
projects:
  - {name: stack, environment: prod}
overrides:
  gpu-sku-loss:
    users: [alice]
    labels: [planwarden/accept-gpu-change]
    environments: [staging]
`))
	id := h.command("alice", "/override gpu-sku-loss -- accepted in review")
	if h.reaction(id) != "-1" || !strings.Contains(h.lastReply(), "in `prod`: no one may override it") {
		t.Errorf("a staging-only overrider on a prod finding: reaction %q reply %q, want a refusal naming prod", h.reaction(id), h.lastReply())
	}
	// A staging-only label does not override in prod either.
	h.gh.Label(owner, repo, 7, "carol", "planwarden/accept-gpu-change")
	ev := pullRequestEvent("labeled", 7, sha1)
	ev["label"] = map[string]any{"name": "planwarden/accept-gpu-change"}
	h.deliver("pull_request", "label-staging-only", ev)
	if strings.Contains(h.review().Body, "**Overridden**") {
		t.Errorf("a staging-only label overrode a prod finding")
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q, want failure", c.Conclusion)
	}
}
