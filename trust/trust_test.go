package trust

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

const head = "1111111111111111111111111111111111111111"

func config(t *testing.T, yml string) *rules.Config {
	t.Helper()
	c, err := rules.ParseConfig(".github/planwarden.yml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPlanRun(t *testing.T) {
	cfg := config(t, "version: 1\nplan_workflows: [.github/workflows/plan.yml, .github/workflows/plan-ml.yml]\n")
	pr := PullRequest{Number: 7, Repo: "octo/infra", HeadSHA: head}
	good := record.Run{ID: 5, Path: ".github/workflows/plan.yml", Event: "pull_request", HeadRepo: "octo/infra", HeadSHA: head}
	tests := map[string]struct {
		run  func(r *record.Run)
		want string
	}{
		"the plan workflow on the head":              {func(*record.Run) {}, ""},
		"the second plan workflow, from /plan":       {func(r *record.Run) { r.Path, r.Event = ".github/workflows/plan-ml.yml", "workflow_dispatch" }, ""},
		"the merge queue":                            {func(r *record.Run) { r.Event = "merge_group" }, ""},
		"a workflow the pull request added":          {func(r *record.Run) { r.Path = ".github/workflows/planwarden-plan-2.yml" }, "run 5 is of .github/workflows/planwarden-plan-2.yml, which is not a plan workflow (plan_workflows: .github/workflows/plan.yml, .github/workflows/plan-ml.yml)"},
		"a workflow whose path differs only in case": {func(r *record.Run) { r.Path = ".github/workflows/Plan.yml" }, "run 5 is of .github/workflows/Plan.yml, which is not a plan workflow (plan_workflows: .github/workflows/plan.yml, .github/workflows/plan-ml.yml)"},
		"a push run":                   {func(r *record.Run) { r.Event = "push" }, "run 5 was triggered by push; only pull_request, workflow_dispatch, merge_group runs make trusted plans"},
		"a pull_request_target run":    {func(r *record.Run) { r.Event = "pull_request_target" }, "run 5 was triggered by pull_request_target; only pull_request, workflow_dispatch, merge_group runs make trusted plans"},
		"a fork":                       {func(r *record.Run) { r.HeadRepo = "mallory/infra" }, "run 5 ran on a commit of mallory/infra, not of octo/infra"},
		"another commit":               {func(r *record.Run) { r.HeadSHA = "2222222222" }, "run 5 is of commit 2222222, not of the pull request's head 1111111"},
		"a run that names no workflow": {func(r *record.Run) { r.Path = "" }, "run 5 is of an unknown one, which is not a plan workflow (plan_workflows: .github/workflows/plan.yml, .github/workflows/plan-ml.yml)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := good
			tc.run(&r)
			ok, why := PlanRun(cfg, pr, r)
			if ok != (tc.want == "") || why != tc.want {
				t.Errorf("PlanRun = %v, %q; want %q", ok, why, tc.want)
			}
		})
	}
	if ok, why := PlanRun(rules.DefaultConfig(), pr, record.Run{ID: 1, Path: rules.DefaultPlanWorkflow, Event: "pull_request", HeadRepo: "octo/infra", HeadSHA: head}); !ok {
		t.Errorf("the default plan workflow is refused without a config: %s", why)
	}
}

func TestRecordOrdersByRunNotByPlan(t *testing.T) {
	plan, other := ".github/workflows/plan.yml", ".github/workflows/plan-ml.yml"
	var runs []record.Run
	steps := []struct {
		run  record.Run
		want bool
	}{
		{record.Run{ID: 10, Path: plan, Conclusion: "success"}, true},
		{record.Run{ID: 9, Path: plan, Conclusion: "failure"}, false},              // an older failed run arrives late
		{record.Run{ID: 8, Path: plan, Conclusion: "success"}, true},               // an older run may hold a project's newest plan
		{record.Run{ID: 10, Attempt: 2, Path: plan, Conclusion: "failure"}, true},  // re-run of the same run
		{record.Run{ID: 10, Attempt: 2, Path: plan, Conclusion: "failure"}, false}, // redelivered
		{record.Run{ID: 10, Path: plan, Conclusion: "success"}, false},             // the earlier attempt, late
		{record.Run{ID: 3, Path: other, Conclusion: "failure"}, true},              // another workflow keeps its own newest run
		{record.Run{ID: 4, Path: other, Conclusion: "success"}, true},              // and drops its failed run, no longer its newest
	}
	for i, s := range steps {
		var ok bool
		runs, ok = Record(runs, s.run)
		if ok != s.want {
			t.Errorf("step %d: Record(%+v) = %v, want %v", i, s.run, ok, s.want)
		}
	}
	want := []record.Run{{ID: 4, Path: other, Conclusion: "success"}, {ID: 8, Path: plan, Conclusion: "success"}, {ID: 10, Attempt: 2, Path: plan, Conclusion: "failure"}}
	if diff := cmp.Diff(want, runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	cfg := config(t, "version: 1\nplan_workflows: [.github/workflows/plan.yml, .github/workflows/plan-ml.yml]\n")
	if !Reported(cfg, runs) || Reported(cfg, runs[1:]) {
		t.Errorf("Reported: want true with both workflows' runs, false with one")
	}
	if !Superseded(runs, runs[1]) || Superseded(runs, runs[2]) || Superseded(runs, runs[0]) {
		t.Errorf("Superseded: want only run 8 superseded (by run 10) in %+v", runs)
	}
}

func TestKeepDropsRunsWithoutANewestPlan(t *testing.T) {
	plan, other := ".github/workflows/plan.yml", ".github/workflows/plan-ml.yml"
	r7, r8, r9, r5 := record.Run{ID: 7, Path: plan}, record.Run{ID: 8, Path: plan}, record.Run{ID: 9, Path: plan}, record.Run{ID: 5, Path: other}
	a := Assignment{Plans: []Assigned{{Plan: Plan{Run: r8}, Project: "ml"}, {Plan: Plan{Run: r9}, Project: "gpu"}}}
	// r7 holds no reviewed plan and is not its workflow's newest: dropped.
	// r8 holds ml's, r9 is the newest of its workflow and r5 of the other.
	got := Keep([]record.Run{r9, r7, r5, r8}, a)
	if diff := cmp.Diff([]record.Run{r5, r8, r9}, got); diff != "" {
		t.Errorf("Keep (-want +got):\n%s", diff)
	}
}

func TestAssign(t *testing.T) {
	cfg := config(t, `version: 1
projects:
  - {name: aks-gpu, environment: prod, artifact: planwarden-gpu}
  - {name: sagemaker, environment: prod}
`)
	r1, r2 := record.Run{ID: 1}, record.Run{ID: 2}
	a := Assign(cfg, []Plan{
		{Run: r1, Artifact: "planwarden-gpu", File: "plan.json", Single: true, Project: "gpu", Environment: "staging"},
		{Run: r1, Artifact: "planwarden-sagemaker", File: "plan.json", Single: true, Project: "sagemaker", Environment: "PROD"},
		{Run: r2, Artifact: "planwarden-sagemaker", File: "plan.json", Single: true, Project: "sagemaker"},
		{Run: r2, Artifact: "planwarden-evil", File: "plan.json", Single: true, Project: "evil", Environment: "staging"},
	})
	var got []string
	for _, p := range a.Plans {
		got = append(got, p.Project+" in "+p.Environment+" from run "+string(rune('0'+p.Run.ID)))
	}
	want := []string{"aks-gpu in prod from run 1", "sagemaker in prod from run 2", "evil in default from run 2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plans (-want +got):\n%s", diff)
	}
	if len(a.Findings) != 1 || a.Findings[0].Rule != rules.RuleUnknownProject || a.Findings[0].Project != "evil" || a.Findings[0].Severity != rules.SeverityBlock {
		t.Errorf("findings %+v, want one blocking unknown-project for evil", a.Findings)
	}
	wantNotes := []string{
		`The artifact planwarden-gpu names environment "staging" for project "aks-gpu"; the base branch's config says "prod", which applies.`,
		`The artifact planwarden-sagemaker names environment "PROD" for project "sagemaker"; the base branch's config says "prod", which applies.`,
		`Project "sagemaker" is planned by run 1 and by the newer run 2; the newer plan is reviewed.`,
		`The artifact planwarden-evil names environment "staging" for project "evil"; the base branch's config says "default", which applies.`,
	}
	if diff := cmp.Diff(wantNotes, a.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}

	// Without declared projects the claim names the project, never its environment.
	a = Assign(rules.DefaultConfig(), []Plan{{Run: r1, Artifact: "planwarden-ml", File: "plan.json", Single: true, Project: "ml", Environment: "staging"}})
	if len(a.Plans) != 1 || a.Plans[0].Project != "ml" || a.Plans[0].Environment != rules.DefaultEnvironmentName || len(a.Findings) != 0 {
		t.Errorf("without projects: %+v", a)
	}

	// Two plans of one project in one run: which is applied is unknown.
	a = Assign(cfg, []Plan{
		{Run: r1, Artifact: "planwarden-all", File: "a.json", Project: "sagemaker"},
		{Run: r1, Artifact: "planwarden-all", File: "b.json", Project: "sagemaker"},
	})
	if len(a.Findings) != 1 || !strings.Contains(a.Findings[0].Message, "two plans for project") {
		t.Errorf("two plans of one project in one run: findings %+v", a.Findings)
	}
}

func TestTouchedAndMissing(t *testing.T) {
	cfg := config(t, `version: 1
projects:
  - {name: aks-gpu, directory: infra/aks, environment: prod}
  - {name: sagemaker, environment: prod, paths: ["ml/**/*.tf", modules/endpoint/**]}
`)
	tests := map[string]struct {
		ch   Changes
		want []string
		any  bool
	}{
		"docs only":                      {Changes{Files: []string{"README.md", "docs/x.md"}, Complete: true}, nil, false},
		"under a directory":              {Changes{Files: []string{"README.md", "infra/aks/main.tf"}, Complete: true}, []string{"aks-gpu"}, true},
		"a glob with **":                 {Changes{Files: []string{"ml/serving/a/b.tf"}, Complete: true}, []string{"sagemaker"}, true},
		"a file the glob does not match": {Changes{Files: []string{"ml/serving/readme.md", "infra/aksx/main.tf"}, Complete: true}, nil, false},
		"an incomplete list touches all": {Changes{Files: []string{"README.md"}}, []string{"aks-gpu", "sagemaker"}, true},
		"both":                           {Changes{Files: []string{"modules/endpoint/x.tf", "infra/aks/y.tf"}, Complete: true}, []string{"aks-gpu", "sagemaker"}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, anyTouched := Touched(cfg, tc.ch)
			if diff := cmp.Diff(tc.want, got); diff != "" || anyTouched != tc.any {
				t.Errorf("Touched = %v, %v; want %v, %v", got, anyTouched, tc.want, tc.any)
			}
		})
	}
	if _, anyTouched := Touched(rules.DefaultConfig(), Changes{Files: []string{"README.md"}, Complete: true}); !anyTouched {
		t.Errorf("with no projects declared, a pull request must count as touching infrastructure")
	}
	a := Assignment{Plans: []Assigned{{Project: "aks-gpu"}}}
	m := Missing(cfg, a, []string{"aks-gpu", "sagemaker"}, []record.Run{{ID: 4}})
	if len(m) != 1 || m[0].Rule != rules.RuleMissingPlan || m[0].Project != "sagemaker" || m[0].Address != "planwarden-sagemaker" {
		t.Errorf("missing %+v, want one missing-plan for sagemaker", m)
	}
}

func TestLocalUses(t *testing.T) {
	wf := `
on: pull_request
jobs:
  plan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: ./.github/actions/setup-terraform
      - uses: "./.github/actions/setup-terraform/"
      - uses: docker://alpine:3
      - run: terraform plan
  reusable:
    uses: ./.github/workflows/plan-common.yml
`
	got, _, err := WorkflowUses([]byte(wf))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".github/actions/setup-terraform", ".github/workflows/plan-common.yml"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WorkflowUses local uses (-want +got):\n%s", diff)
	}
	if _, _, err := WorkflowUses([]byte("jobs: [")); err == nil {
		t.Errorf("broken YAML: no error")
	}
}

func TestWorkflowChanges(t *testing.T) {
	cfg := rules.DefaultConfig()
	used := []Used{{Path: ".github/actions/setup", Via: "a local action used by .github/workflows/planwarden-plan.yml"}}
	ch := Changes{Complete: true, Files: []string{
		"infra/main.tf", ".github/workflows/planwarden-plan.yml", ".github/actions/setup/action.yml", ".github/actions/setupx/action.yml", ".github/workflows/lint.yml",
	}}
	var got []string
	for _, f := range WorkflowChanges(cfg, ch, used, "ml") {
		if f.Rule != rules.RulePlanWorkflowChanged || f.Severity != rules.SeverityBlock || f.Project != "ml" {
			t.Errorf("finding %+v", f)
		}
		got = append(got, f.Address+": "+f.Message)
	}
	want := []string{
		".github/workflows/planwarden-plan.yml: this pull request changes the plan workflow .github/workflows/planwarden-plan.yml, and its plan was made by the pull request's own version of it, so the plan artifact cannot be trusted.",
		".github/actions/setup/action.yml: this pull request changes .github/actions/setup/action.yml, a local action used by .github/workflows/planwarden-plan.yml, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if f := WorkflowChanges(cfg, Changes{Files: []string{"infra/main.tf"}}, nil, "ml"); len(f) != 1 {
		t.Errorf("an incomplete list of changes: %d findings, want 1", len(f))
	}
}

func TestJudge(t *testing.T) {
	cfg := config(t, `version: 1
projects:
  - {name: gpu, environment: prod}
  - {name: lab, environment: staging}
overrides:
  gpu-sku-loss:
    users: [alice, bob, carol]
    environments: [prod]
  endpoint-replacement:
    users: [dave]
    environments: [staging]
  iam-admin:
    users: [alice]
    teams: [acme/security]
    approvals: 2
  stateful-delete:
    users: [erin]
    allow_author: true
  plan-workflow-changed:
    users: [erin]
    allow_author: true
`)
	gpu := rules.Finding{Rule: rules.RuleGPUSKULoss, Severity: rules.SeverityBlock, Project: "gpu", Address: "pool.gpu", Message: "A100 to D4s"}
	ep := rules.Finding{Rule: rules.RuleEndpointReplacement, Severity: rules.SeverityBlock, Project: "gpu", Address: "aws_sagemaker_endpoint.main", Message: "replaced"}
	iam := rules.Finding{Rule: rules.RuleIAMAdmin, Severity: rules.SeverityBlock, Project: "gpu", Address: "aws_iam_role.ci", Message: "admin"}
	del := rules.Finding{Rule: rules.RuleStatefulDelete, Severity: rules.SeverityBlock, Project: "gpu", Address: "aws_s3_bucket.data", Message: "deleted"}
	wfc := rules.Finding{Rule: rules.RulePlanWorkflowChanged, Severity: rules.SeverityBlock, Project: "gpu", Address: ".github/workflows/planwarden-plan.yml", Message: "changed"}
	envs := map[string]string{"gpu": "prod", "lab": "staging"}
	subjects := Subjects(cfg, []rules.Finding{gpu, ep, iam, del, wfc}, envs)
	grant := func(f rules.Finding, env, by string) record.Grant {
		return record.Grant{Rule: f.Rule, Project: f.Project, Address: f.Address, Environment: env, Digest: rules.FindingDigest(f), By: by, Reason: "accepted in review", At: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	}
	changed := gpu
	changed.Message = "A100 to D8s"
	noReason := grant(gpu, "prod", "bob")
	noReason.Reason = " "
	people := People{Author: "erin", Teams: map[string][]string{"frank": {"acme/security"}}}

	tests := map[string]struct {
		grants     []record.Grant
		overridden []string // rule on address by
		why        []string // per grant
	}{
		"an allowed user's override counts": {
			grants: []record.Grant{grant(gpu, "prod", "alice")}, overridden: []string{"gpu-sku-loss on pool.gpu by alice"}, why: []string{""},
		},
		"an override given in staging does not cover prod": {
			grants: []record.Grant{grant(ep, "staging", "dave")},
			why:    []string{"it was given in staging, and the finding is in prod now"},
		},
		"an override lapses when a push changes the finding": {
			grants: []record.Grant{grant(changed, "prod", "alice")},
			why:    []string{"the gpu-sku-loss finding on pool.gpu it was given for is gone or says something else now"},
		},
		"a revoked user's override stops counting": {
			grants: []record.Grant{grant(gpu, "prod", "mallory")},
			why:    []string{"mallory may not override gpu-sku-loss in prod under the base branch's config"},
		},
		"the author may not override their own findings": {
			grants: []record.Grant{grant(gpu, "prod", "erin")},
			why:    []string{"erin wrote this pull request, and the config does not let authors override their own findings (allow_author)"},
		},
		"allow_author lets the author": {
			grants: []record.Grant{grant(del, "prod", "Erin")}, overridden: []string{"stateful-delete on aws_s3_bucket.data by Erin"}, why: []string{""},
		},
		"never plan-workflow-changed, even with allow_author": {
			grants: []record.Grant{grant(wfc, "prod", "erin")},
			why:    []string{"erin wrote this pull request, and its author never overrides plan-workflow-changed"},
		},
		"one of two approvals is not enough": {
			grants: []record.Grant{grant(iam, "prod", "alice"), grant(iam, "prod", "ALICE")},
			why:    []string{"", ""},
		},
		"two approvals, one through a team": {
			grants: []record.Grant{grant(iam, "prod", "alice"), grant(iam, "prod", "frank")}, overridden: []string{"iam-admin on aws_iam_role.ci by alice, frank"}, why: []string{"", ""},
		},
		"a reason is required": {
			grants: []record.Grant{noReason},
			why:    []string{"it gives no reason (write /override RULE [ADDRESS] -- reason)"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := Judge(cfg, subjects, tc.grants, people)
			var got []string
			for _, o := range d.Overrides {
				got = append(got, o.Rule+" on "+o.Address+" by "+o.By)
			}
			if diff := cmp.Diff(tc.overridden, got); diff != "" {
				t.Errorf("overrides (-want +got):\n%s", diff)
			}
			var why []string
			for _, s := range d.Standing {
				why = append(why, s.Why)
				if s.Counts != (s.Why == "") {
					t.Errorf("standing %+v: counts and why disagree", s)
				}
			}
			if diff := cmp.Diff(tc.why, why); diff != "" {
				t.Errorf("standing (-want +got):\n%s", diff)
			}
			// Applying the decision overrides exactly those findings.
			res := cfg.Conclude([]rules.Finding{gpu, ep, iam, del, wfc}, d.Overrides)
			n := 0
			for _, f := range res.Findings {
				if f.Override != nil {
					n++
				}
			}
			if n != len(tc.overridden) || res.Verdict != rules.VerdictFail {
				t.Errorf("conclude: %d overridden (want %d), verdict %s (want fail: others remain)", n, len(tc.overridden), res.Verdict)
			}
		})
	}
	d := Judge(cfg, subjects, []record.Grant{grant(iam, "prod", "alice")}, people)
	if diff := cmp.Diff([]string{"iam-admin on aws_iam_role.ci has 1 of the 2 approvals it needs"}, d.Waiting); diff != "" {
		t.Errorf("waiting (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{"alice": {"acme/security"}, "frank": {"acme/security"}}, TeamsToAsk(cfg, []record.Grant{grant(iam, "prod", "Alice"), grant(iam, "prod", "frank"), grant(gpu, "prod", "bob")})); diff != "" {
		t.Errorf("teams to ask (-want +got):\n%s", diff)
	}
}
