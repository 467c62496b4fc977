package rules

import (
	stdcmp "cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/par"
)

// Fixture projects for verdicts and ordering.
var (
	typoPool = pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gpu"), taints("sku=gpu:NoSchedule")),
		side(skuD16, named("gpu"), taints("sku=gpu:NoSchedule")))
	untaintedPool = pool("azurerm_kubernetes_cluster_node_pool.infer", nil, side(skuNC6, named("infer"), tags("cost-center", "ml")))
	cleanPool     = pool("azurerm_kubernetes_cluster_node_pool.cpu", side(skuD4), side(skuD16))
)

func TestVerdict(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)
	tests := map[string]struct {
		res       []*infra.Resource
		errored   bool
		overrides []Override
		want      Verdict
	}{
		"nothing to say":                    {res: []*infra.Resource{cleanPool}, want: VerdictPass},
		"only a warning":                    {res: []*infra.Resource{untaintedPool}, want: VerdictWarn},
		"a blocking finding":                {res: []*infra.Resource{typoPool, untaintedPool}, want: VerdictFail},
		"every block overridden":            {res: []*infra.Resource{typoPool}, overrides: []Override{{Rule: RuleGPUSKULoss, By: "a", At: at}, {Rule: RuleGPUPoolSKU, By: "a", At: at}}, want: VerdictWarn},
		"one of two overridden":             {res: []*infra.Resource{typoPool}, overrides: []Override{{Rule: RuleGPUSKULoss, By: "a", At: at}}, want: VerdictFail},
		"override of other address":         {res: []*infra.Resource{typoPool}, overrides: []Override{{Rule: RuleGPUSKULoss, Address: "x.y", By: "a"}, {Rule: RuleGPUPoolSKU, By: "a"}}, want: VerdictFail},
		"override of other project":         {res: []*infra.Resource{typoPool}, overrides: []Override{{Rule: RuleGPUSKULoss, Project: "web", By: "a"}, {Rule: RuleGPUPoolSKU, By: "a"}}, want: VerdictFail},
		"errored plan cannot be overridden": {errored: true, overrides: []Override{{Rule: RulePlanErrored, By: "a"}}, want: VerdictFail},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := Project{Name: "ml", Environment: "prod", Resources: tc.res, Plan: plan(t, tc.errored)}
			res := DefaultConfig().Evaluate([]Project{p}, tc.overrides)
			if res.Verdict != tc.want {
				t.Errorf("verdict = %s, want %s; findings:\n%v", res.Verdict, tc.want, lines(res.Findings))
			}
		})
	}
}

func TestOverrideIsRecorded(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)
	o := Override{Rule: RuleGPUSKULoss, Address: typoPool.Address, Project: "ml", By: "alice", At: at, Reason: "planned move to A100"}
	res := DefaultConfig().Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: []*infra.Resource{typoPool}}}, []Override{o})
	fs := only(RuleGPUSKULoss, res.Findings)
	if len(fs) != 1 || fs[0].Override == nil {
		t.Fatalf("findings %v, want one overridden gpu-sku-loss", lines(fs))
	}
	if diff := cmp.Diff(o, *fs[0].Override); diff != "" {
		t.Errorf("recorded override (-want +got):\n%s", diff)
	}
	if fs[0].Severity != SeverityBlock {
		t.Errorf("overridden finding severity = %s, want it to stay block", fs[0].Severity)
	}
}

func TestFindingOrder(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)
	projects := []Project{
		{Name: "web", Environment: "prod", Resources: []*infra.Resource{untaintedPool, typoPool}},
		{Name: "ml", Environment: "staging", Resources: []*infra.Resource{untaintedPool, typoPool}, Plan: plan(t, true)},
	}
	overrides := []Override{{Rule: RuleGPUPoolSKU, Project: "web", By: "alice", At: at}}
	got := []string{}
	for _, f := range DefaultConfig().Evaluate(projects, overrides).Findings {
		s := string(f.Severity) + " " + f.Project + " " + f.Address + " " + f.Rule
		if f.Override != nil {
			s += " (overridden)"
		}
		got = append(got, s)
	}
	want := []string{
		"block ml  plan-errored",
		"block ml azurerm_kubernetes_cluster_node_pool.gpu gpu-pool-sku",
		"block ml azurerm_kubernetes_cluster_node_pool.gpu gpu-sku-loss",
		"block web azurerm_kubernetes_cluster_node_pool.gpu gpu-sku-loss",
		"block web azurerm_kubernetes_cluster_node_pool.gpu gpu-pool-sku (overridden)",
		"warn ml azurerm_kubernetes_cluster_node_pool.infer gpu-pool-taint",
		"warn web azurerm_kubernetes_cluster_node_pool.infer gpu-pool-taint",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	// The same input in another order gives the same output.
	again := DefaultConfig().Evaluate([]Project{projects[1], projects[0]}, overrides).Findings
	if diff := cmp.Diff(DefaultConfig().Evaluate(projects, overrides).Findings, again); diff != "" {
		t.Errorf("order depends on input order (-first +second):\n%s", diff)
	}
}

func TestProjectEnvironmentFromConfig(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, "version: 1\nprojects:\n  - name: serving\n    environment: staging\n")
	p := Project{Name: "serving", Plan: plan(t, false, renameLLM)}
	got := lines(cfg.Evaluate([]Project{p}, nil).Findings)
	want := []string{"warn endpoint-replacement aws_sagemaker_endpoint.llm: SageMaker endpoint `llm-prod` is destroyed and recreated (`name` \"llm-prod\" -> \"llm-prod-v2\" forces the replacement), so it stops serving until the new one is in service"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings for a project the config puts in staging (-want +got):\n%s", diff)
	}
}

func TestNilConfigEvaluatesDefaults(t *testing.T) {
	t.Parallel()
	var c *Config
	res := c.Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: []*infra.Resource{typoPool}}}, nil)
	if res.Verdict != VerdictFail || len(res.Findings) != 2 {
		t.Errorf("verdict %s, findings %v; want fail with the typo's two findings", res.Verdict, lines(res.Findings))
	}
}

func TestOverrideHint(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		cfg, rule, env string
		want           string
	}{
		"no one": {
			rule: RuleIAMAdmin, env: "prod",
			want: "No one may override iam-admin in prod: list who may under overrides.iam-admin in .github/planwarden.yml on the base branch.",
		},
		"users and teams": {
			cfg:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice, bob]\n    teams: [acme/security]\n",
			rule: RuleIAMAdmin, env: "prod",
			want: "To accept it anyway, users alice, bob or team acme/security may comment `/override iam-admin`.",
		},
		"label only": {
			cfg:  "version: 1\noverrides:\n  iam-admin:\n    labels: [iam-approved]\n",
			rule: RuleIAMAdmin, env: "prod",
			want: "To accept it anyway, add the pull request label `iam-approved`.",
		},
		"rule policy merged with *": {
			cfg:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n  \"*\":\n    users: [root]\n",
			rule: RuleIAMAdmin, env: "prod",
			want: "To accept it anyway, users alice, root may comment `/override iam-admin`.",
		},
		"policy limited to another environment": {
			cfg:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n    environments: [staging]\n",
			rule: RuleIAMAdmin, env: "prod",
			want: "No one may override iam-admin in prod: list who may under overrides.iam-admin in planwarden.yml on the base branch.",
		},
		"plan-errored": {
			cfg:  "version: 1\noverrides:\n  \"*\":\n    users: [root]\n",
			rule: RulePlanErrored, env: "prod",
			want: "This cannot be overridden.",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := mustConfig(t, tc.cfg).overrideHint(tc.rule, tc.env); got != tc.want {
				t.Errorf("hint:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestWarningsHaveNoOverrideHint(t *testing.T) {
	t.Parallel()
	fs := DefaultConfig().Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: []*infra.Resource{untaintedPool}}}, nil).Findings
	want := []string{"Add a taint such as sku=gpu:NoSchedule to the pool, and a matching toleration to the GPU workloads."}
	var got []string
	for _, f := range fs {
		got = append(got, f.Remedy)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("remedies (-want +got):\n%s", diff)
	}
}

func TestHandBuiltConfigKeepsTheBuiltInEnvironments(t *testing.T) {
	t.Parallel()
	c := &Config{Version: 1}
	got := []any{c.IsProtected("prod"), workflow(c.DestroyWorkflow("staging")),
		c.Evaluate([]Project{{Name: "ml", Environment: "prod", Plan: plan(t, false, renameLLM)}}, nil).Verdict}
	want := []any{true, DefaultDestroyWorkflow, VerdictFail}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prod protected, staging destroy, verdict of a prod rename (-want +got):\n%s", diff)
	}
}

// An override naming a finding's digest covers that finding only: the same
// rule at the same address saying something else is not covered.
func TestConcludeWithDigest(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	a := Finding{Rule: RuleGPUSKULoss, Severity: SeverityBlock, Project: "ml", Address: "azurerm_kubernetes_cluster_node_pool.gpu", Message: "goes from Standard_NC24ads_A100_v4 to Standard_D4s_v5"}
	b := a
	b.Message = "goes from Standard_NC24ads_A100_v4 to Standard_D8s_v5"
	extra := Finding{Rule: RulePlanWorkflowChanged, Severity: SeverityBlock, Project: "ml", Address: ".github/workflows/planwarden-plan.yml", Message: "changed"}
	res := c.Conclude([]Finding{a, b, extra}, []Override{
		{Rule: RuleGPUSKULoss, Project: "ml", Address: a.Address, By: "alice", Digest: FindingDigest(a)},
		{Rule: RulePlanWorkflowChanged, Project: "ml", Address: extra.Address, By: "bob", Digest: FindingDigest(extra)},
	})
	if res.Verdict != VerdictFail {
		t.Errorf("verdict %s, want fail: the second gpu-sku-loss finding is not overridden", res.Verdict)
	}
	covered := map[string]string{}
	for _, f := range res.Findings {
		if f.Override != nil {
			covered[f.Message] = f.Override.By
		}
	}
	want := map[string]string{a.Message: "alice", extra.Message: "bob"}
	if diff := cmp.Diff(want, covered); diff != "" {
		t.Errorf("overridden findings (-want +got):\n%s", diff)
	}
	if FindingDigest(a) == FindingDigest(b) {
		t.Errorf("two findings that say different things have one digest")
	}
}

// TestEvaluateWithIsConcludeOfEvaluate holds EvaluateWith (one pass, as
// review.Build calls it) to what it stands for: the plans' findings and
// the extra ones concluded together.
func TestEvaluateWithIsConcludeOfEvaluate(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)
	projects := []Project{
		{Name: "ml", Environment: "prod", Resources: []*infra.Resource{typoPool, untaintedPool, cleanPool}},
		{Name: "web", Environment: "dev", Resources: []*infra.Resource{typoPool}},
	}
	extra := []Finding{
		{Rule: RuleMissingPlan, Severity: SeverityBlock, Project: "api", Message: "no plan"},
		{Rule: RuleGPUSKULoss, Severity: SeverityBlock, Project: "ml", Address: typoPool.Address, Message: "from outside"},
	}
	overrides := []Override{{Rule: RuleGPUSKULoss, Project: "ml", By: "alice", At: at}}
	cfg := DefaultConfig()
	want := cfg.Conclude(append(cfg.Evaluate(projects, nil).Findings, extra...), overrides)
	got := cfg.EvaluateWith(projects, extra, overrides)
	if len(got.Findings) < 5 {
		t.Fatalf("only %d findings; the case should have several of each kind:\n%v", len(got.Findings), lines(got.Findings))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EvaluateWith differs from Conclude(Evaluate + extra) (-want +got):\n%s", diff)
	}
}

// Findings alike in rank, project, address, rule and message keep the order
// they came in (their remedies tell them apart), and the keys order the
// rest, on more findings than a small sort handles by insertion.
func TestConcludeKeepsTheOrderOfLikeFindings(t *testing.T) {
	t.Parallel()
	var in, want []Finding
	for i := range 40 {
		f := Finding{Rule: RuleStatefulDelete, Severity: SeverityBlock, Project: "ml", Address: "aws_s3_bucket.b", Message: "deleted", Remedy: fmt.Sprint("remedy ", i)}
		if i%3 == 1 {
			f.Severity = SeverityWarn
		}
		in = append(in, f)
	}
	// The keys first (block before warn), then the input order among equals.
	for _, sev := range []Severity{SeverityBlock, SeverityWarn} {
		for _, f := range in {
			if f.Severity == sev {
				want = append(want, f)
			}
		}
	}
	// Interleave findings that sort before and after them by address.
	for i := range 20 {
		in = slices.Insert(in, 2*i, Finding{Rule: RuleIAMAdmin, Severity: SeverityBlock, Project: "ml", Address: fmt.Sprintf("aws_iam_role.r%02d", 19-i), Message: "admin"})
	}
	var roles []Finding
	for i := range 20 {
		roles = append(roles, Finding{Rule: RuleIAMAdmin, Severity: SeverityBlock, Project: "ml", Address: fmt.Sprintf("aws_iam_role.r%02d", i), Message: "admin"})
	}
	// aws_iam_role.* < aws_s3_bucket.b among the blocking findings.
	want = append(roles, want...)
	got := DefaultConfig().Conclude(in, nil).Findings
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// Conclude orders findings as Result documents, whatever their addresses
// share: held to a plain stable sort by the documented keys over findings
// of two projects, every rank, and addresses that share long prefixes, are
// prefixes of each other, differ only past their eighth distinct byte, or
// hold bytes above 0x7f and 0x00.
func TestConcludeOrdersLikeAStableSortByTheKeys(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(12, 2026))
	addrs := []string{"", "module.fleet.aws_instance.gpu", "module.fleet.aws_instance.gpu[1]", "module.fleet.aws_instance.gpu[10]",
		"module.fleet.aws_instance.gpu[9]", "module.fleet.aws_instance.gpuXXXXXXXXa", "module.fleet.aws_instance.gpuXXXXXXXXb",
		"module.fleet.aws_instance.gpu\x00", "module.fleet.aws_instance.gpú", "module.fleet.aws_s3_bucket.b", "module.flee",
		"aws_instance.a", "aws_s3_bucket.a"}
	var in []Finding
	for i := range 600 {
		f := Finding{Rule: []string{RuleCostIncrease, RuleIAMAdmin}[rng.IntN(2)], Severity: []Severity{SeverityBlock, SeverityWarn, SeverityInfo}[rng.IntN(3)],
			Project: []string{"web", "ml"}[rng.IntN(2)], Address: addrs[rng.IntN(len(addrs))], Message: []string{"b", "a"}[rng.IntN(2)], Remedy: fmt.Sprint(i)}
		if f.Severity == SeverityBlock && rng.IntN(3) == 0 {
			f.Override = &Override{Rule: f.Rule, By: "alice"}
		}
		in = append(in, f)
	}
	want := slices.Clone(in)
	slices.SortStableFunc(want, func(a, b Finding) int {
		return stdcmp.Or(stdcmp.Compare(rank(a), rank(b)), strings.Compare(a.Project, b.Project), strings.Compare(a.Address, b.Address),
			strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
	})
	for name, pol := range map[string]par.Policy{"one goroutine": {}, "two halves": par.Policy{Min: 2}} {
		got := slices.Clone(in)
		sortFindings(got, pol)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("order on %s (-stable sort +sortFindings):\n%s", name, diff)
		}
	}
}
