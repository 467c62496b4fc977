package trust

import (
	"testing"
	"time"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Humans approve: a label or a command by a bot or an App never counts
// unless the base config lists that bot; github-actions[bot] (which acts
// for whoever triggered a workflow, the author included) never does. The
// twins: a person's counts, and a listed bot's.
func TestMayApprove(t *testing.T) {
	t.Parallel()
	plain := config(t, "version: 1\n")
	listed := config(t, "version: 1\napproving_bots: [\"renovate[bot]\"]\n")
	tests := map[string]struct {
		cfg  *rules.Config
		a    Actor
		want string
	}{
		"a person":                             {plain, Actor{Login: "alice", Type: "User"}, ""},
		"a person GitHub gives no type":        {plain, Actor{Login: "alice"}, ""},
		"github-actions[bot]":                  {plain, Actor{Login: "github-actions[bot]", Type: "Bot"}, "github-actions[bot] acts for whoever triggered the workflow, so it never approves"},
		"github-actions[bot], in another case": {plain, Actor{Login: "GitHub-Actions[bot]"}, "github-actions[bot] acts for whoever triggered the workflow, so it never approves"},
		"an App by its login":                  {plain, Actor{Login: "renovate[bot]"}, "renovate[bot] is a bot, and the base branch's config does not list it under approving_bots"},
		"a bot by its type":                    {plain, Actor{Login: "ci-machine", Type: "Bot"}, "ci-machine is a bot, and the base branch's config does not list it under approving_bots"},
		"a listed bot":                         {listed, Actor{Login: "renovate[bot]", Type: "Bot"}, ""},
		"another bot where one is listed":      {listed, Actor{Login: "dependabot[bot]", Type: "Bot"}, "dependabot[bot] is a bot, and the base branch's config does not list it under approving_bots"},
		"no one GitHub names":                  {plain, Actor{}, "GitHub does not say who did it"},
	}
	for name, tc := range tests {
		ok, why := MayApprove(tc.cfg, tc.a)
		if ok != (tc.want == "") || why != tc.want {
			t.Errorf("%s: MayApprove = %v, %q; want %q", name, ok, why, tc.want)
		}
	}
}

// The re-authorization of recorded overrides refuses a bot's grant even
// where the override policy names it, and counts the same grant by a
// person; the pull request's author never overrides plan-runs-pr-code or
// plan-workflow-unreadable, allow_author or not.
func TestJudgeRefusesBotsAndAuthors(t *testing.T) {
	t.Parallel()
	cfg := config(t, `version: 1
projects: [{name: gpu, environment: prod}]
overrides:
  "*":
    users: ["renovate[bot]", alice, erin]
    allow_author: true
`)
	gpu := rules.Finding{Rule: rules.RuleGPUSKULoss, Severity: rules.SeverityBlock, Project: "gpu", Address: "pool.gpu", Message: "A100 to D4s"}
	code := rules.Finding{Rule: rules.RulePlanRunsPRCode, Severity: rules.SeverityBlock, Project: "gpu", Address: "infra/main.tf", Message: "data.external.x is new", BlobSHAs: []string{"aaa"}}
	unread := rules.Finding{Rule: rules.RulePlanWorkflowUnreadable, Severity: rules.SeverityBlock, Project: "gpu", Address: ".github/workflows/plan.yml", Message: "step runs $TOOL"}
	subjects := Subjects(cfg, []rules.Finding{gpu, code, unread}, map[string]string{"gpu": "prod"})
	grant := func(f rules.Finding, by string) record.Grant {
		return record.Grant{Rule: f.Rule, Project: f.Project, Address: f.Address, Environment: "prod", Digest: rules.FindingDigest(f), By: by, Reason: "checked", At: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	}
	people := People{Author: "erin", Types: map[string]string{"renovate[bot]": "Bot"}}
	tests := map[string]struct {
		g    record.Grant
		want string
	}{
		"a bot the policy names":                                  {grant(gpu, "renovate[bot]"), "renovate[bot] is a bot, and the base branch's config does not list it under approving_bots"},
		"twin: a person the policy names":                         {grant(gpu, "alice"), ""},
		"the author, on plan-runs-pr-code":                        {grant(code, "erin"), "erin wrote this pull request, and its author never overrides plan-runs-pr-code"},
		"the author, on plan-workflow-unreadable":                 {grant(unread, "erin"), "erin wrote this pull request, and its author never overrides plan-workflow-unreadable"},
		"twin: the author on their own gpu finding, allow_author": {grant(gpu, "erin"), ""},
		"twin: another person on plan-runs-pr-code":               {grant(code, "alice"), ""},
	}
	for name, tc := range tests {
		d := Judge(cfg, subjects, []record.Grant{tc.g}, people)
		if got := d.Standing[0].Why; got != tc.want || d.Standing[0].Counts != (tc.want == "") {
			t.Errorf("%s: standing %v %q, want %q", name, d.Standing[0].Counts, got, tc.want)
		}
		if (len(d.Overrides) == 1) != (tc.want == "") {
			t.Errorf("%s: %d overrides applied", name, len(d.Overrides))
		}
	}
}

// Bound to content: a grant given for plan-runs-pr-code on one content of
// a file does not cover another content of it, and still covers the same.
func TestJudgeBindsGrantsToContent(t *testing.T) {
	t.Parallel()
	cfg := config(t, "version: 1\nprojects: [{name: gpu, environment: prod}]\noverrides:\n  plan-workflow-changed: {users: [alice]}\n")
	f := func(sha string) rules.Finding {
		return rules.Finding{Rule: rules.RulePlanWorkflowChanged, Severity: rules.SeverityBlock, Project: "gpu", Address: "ci/plan.sh",
			Message: "this pull request changes ci/plan.sh", BlobSHAs: []string{sha}}
	}
	given := record.Grant{Rule: rules.RulePlanWorkflowChanged, Project: "gpu", Address: "ci/plan.sh", Environment: "prod",
		Digest: rules.FindingDigest(f("harmless")), By: "alice", Reason: "read it"}
	for name, tc := range map[string]struct {
		sha    string
		counts bool
	}{
		"the content it was given for": {"harmless", true},
		"a later push's content":       {"uploads-any-plan", false},
	} {
		d := Judge(cfg, Subjects(cfg, []rules.Finding{f(tc.sha)}, map[string]string{"gpu": "prod"}), []record.Grant{given}, People{Author: "mallory"})
		if d.Standing[0].Counts != tc.counts || (len(d.Overrides) == 1) != tc.counts {
			t.Errorf("%s: counts %v (%s), %d overrides; want counts %v", name, d.Standing[0].Counts, d.Standing[0].Why, len(d.Overrides), tc.counts)
		}
	}
}

// CheckApprover answers as Check for everyone MayApprove lets approve: a
// person, a listed bot, the author, one the policy does not name, one
// without a reason, a finding nobody may override. Only Check refuses a
// bot the config does not list (an /override's commenter is asked
// MayApprove first), and it says first that a finding nobody may override
// cannot be.
func TestCheckApproverAnswersAsCheckForAnApprover(t *testing.T) {
	t.Parallel()
	cfg := config(t, `version: 1
projects: [{name: gpu, environment: prod}]
approving_bots: ["renovate[bot]"]
overrides:
  "*":
    users: ["renovate[bot]", "dependabot[bot]", alice, erin]
`)
	gpu := record.Blocking{Rule: rules.RuleGPUSKULoss, Project: "gpu", Address: "pool.gpu", Environment: "prod"}
	errored := record.Blocking{Rule: rules.RulePlanErrored, Project: "gpu", Address: "pool.gpu", Environment: "prod"}
	people := People{Author: "erin"}
	bot := "dependabot[bot] is a bot, and the base branch's config does not list it under approving_bots"
	tests := map[string]struct {
		f        record.Blocking
		by       string
		reason   string
		approver bool // MayApprove lets by approve
		want     string
	}{
		"a person the policy names":      {gpu, "alice", "checked", true, ""},
		"a listed bot the policy names":  {gpu, "renovate[bot]", "checked", true, ""},
		"the author":                     {gpu, "erin", "checked", true, "erin wrote this pull request, and the config does not let authors override their own findings (allow_author)"},
		"a person the policy leaves out": {gpu, "mallory", "checked", true, "mallory may not override gpu-sku-loss in prod under the base branch's config"},
		"no reason":                      {gpu, "alice", " ", true, "it gives no reason (write /override RULE [ADDRESS] -- reason)"},
		"a finding nobody overrides":     {errored, "alice", "checked", true, "plan-errored cannot be overridden"},
		"an unlisted bot":                {gpu, "dependabot[bot]", "checked", false, bot},
		"an unlisted bot, plan-errored":  {errored, "dependabot[bot]", "checked", false, "plan-errored cannot be overridden"},
	}
	for name, tc := range tests {
		if ok, _ := MayApprove(cfg, Actor{Login: tc.by}); ok != tc.approver {
			t.Fatalf("%s: MayApprove(%s) = %v", name, tc.by, ok)
		}
		if got := Check(cfg, tc.f, tc.by, tc.reason, people); got != tc.want {
			t.Errorf("%s: Check = %q, want %q", name, got, tc.want)
		}
		if got := CheckApprover(cfg, tc.f, tc.by, tc.reason, people); tc.approver && got != tc.want {
			t.Errorf("%s: CheckApprover = %q, want %q", name, got, tc.want)
		}
	}
}
