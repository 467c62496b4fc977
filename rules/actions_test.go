package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
)

func TestActionInvocation(t *testing.T) {
	t.Parallel()
	plan := storyProject(t, "eks-gpu-drain-action", "prod").Plan
	drain := "action.aws_lambda_invoke.drain: applying this runs action `action.aws_lambda_invoke.drain` (`aws_lambda_invoke` of provider `hashicorp/aws`) before `aws_eks_node_group.gpu` is updated; on failure: halt"
	notify := "action.aws_sns_publish.notify: applying this runs action `action.aws_sns_publish.notify` (`aws_sns_publish` of provider `hashicorp/aws`) after `aws_eks_node_group.gpu` is updated; on failure: continue"
	block := "version: 1\nrules:\n  action-invocation:\n    environments: {prod: block}\n"
	tests := map[string]struct {
		cfg, env string
		plan     *planparse.Plan
		want     []string
		verdict  Verdict
	}{
		"warns by default": {env: "prod", plan: plan, want: []string{"warn action-invocation " + drain, "warn action-invocation " + notify}, verdict: VerdictWarn},
		"blocks where the config says": {cfg: block, env: "prod", plan: plan,
			want: []string{"block action-invocation " + drain, "block action-invocation " + notify}, verdict: VerdictFail},
		"the prod setting leaves staging at warn": {cfg: block, env: "staging", plan: plan,
			want: []string{"warn action-invocation " + drain, "warn action-invocation " + notify}, verdict: VerdictWarn},
		"turned off":             {cfg: "version: 1\nrules:\n  action-invocation: {severity: off}\n", env: "prod", plan: plan, want: []string{}, verdict: VerdictPass},
		"a plan without actions": {env: "prod", plan: mustPlan(t, `{"format_version":"1.2"}`), want: []string{}, verdict: VerdictPass},
		"deferred actions alone are no finding": {env: "prod", want: []string{}, verdict: VerdictPass,
			plan: mustPlan(t, `{"format_version":"1.2","deferred_action_invocations":[{"reason":"absent_prereq","action_invocation":{"address":"action.a.b","type":"a","invoke_action_trigger":{}}}]}`)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res := mustConfig(t, tc.cfg).Evaluate([]Project{{Name: "eks", Environment: tc.env, Plan: tc.plan}}, nil)
			got := lines(only(RuleActionInvocation, res.Findings))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict = %s, want %s (findings %v)", res.Verdict, tc.verdict, lines(res.Findings))
			}
		})
	}
}

func mustPlan(t *testing.T, js string) *planparse.Plan {
	t.Helper()
	p, err := planparse.Parse("p.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
