package rules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

func TestCustomRules(t *testing.T) {
	t.Parallel()
	h100 := infra.SKU{Cloud: "azure", Name: "Standard_ND96isr_H100_v5", GPUCount: 8, GPUModel: "NVIDIA H100 80GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}
	h100VM := withCost(vm("azurerm_linux_virtual_machine.big", nil, side(h100, named("big"), tags("cost-center", "ml"))),
		infra.Cost{HourlyAfter: usd(98.32), MaxHourlyAfter: usd(98.32)})
	tests := map[string]struct {
		cfg     string
		env     string
		res     []*infra.Resource
		changes []change
		want    []string
	}{
		"GPU facts and placeholders": {
			cfg: "version: 1\nenvironments:\n  dev: {}\ncustom_rules:\n  - id: no-h100-in-dev\n" +
				"    when: change.sku.gpu_model.contains('H100') && project.environment == 'dev'\n    severity: block\n" +
				"    message: \"{name} ({address}, {type}) gets {sku} by {action} in {project}/{environment}\"\n",
			env:  "dev",
			res:  []*infra.Resource{h100VM},
			want: []string{"block no-h100-in-dev azurerm_linux_virtual_machine.big: big (azurerm_linux_virtual_machine.big, azurerm_linux_virtual_machine) gets Standard_ND96isr_H100_v5 by create in ml/dev"},
		},
		"does not fire elsewhere": {
			cfg: "version: 1\ncustom_rules:\n  - id: no-h100-in-dev\n    when: change.sku.gpu_model.contains('H100') && project.environment == 'dev'\n    message: m\n",
			env: "prod",
			res: []*infra.Resource{h100VM},
		},
		"cost with has() and a default severity of warn": {
			cfg:  "version: 1\ncustom_rules:\n  - id: pricey\n    when: has(change.cost.hourly_delta) && change.cost.hourly_delta > 50\n    message: \"{address} is pricey\"\n",
			res:  []*infra.Resource{h100VM, withCost(vm("azurerm_linux_virtual_machine.small", nil, side(skuD4)), infra.Cost{HourlyAfter: usd(0.19)})},
			want: []string{"warn pricey azurerm_linux_virtual_machine.big: azurerm_linux_virtual_machine.big is pricey"},
		},
		"GPU count compared with an int": {
			cfg:  "version: 1\ncustom_rules:\n  - id: eight-gpus\n    when: change.sku.gpu_count >= 8 && change.gpus_max >= 8\n    severity: info\n    message: \"{address} has 8 GPUs\"\n",
			res:  []*infra.Resource{h100VM, vm("azurerm_linux_virtual_machine.a", nil, side(skuA100))},
			want: []string{"info eight-gpus azurerm_linux_virtual_machine.big: azurerm_linux_virtual_machine.big has 8 GPUs"},
		},
		"tags and labels": {
			cfg: "version: 1\ncustom_rules:\n  - id: ml\n    when: change.tags['cost-center'] == 'ml' || change.labels.team == 'ml'\n" +
				"    message: \"{address} is ml's\"\n",
			res: []*infra.Resource{h100VM, vm("azurerm_linux_virtual_machine.l", nil, side(skuD4, labels("team", "ml"))),
				vm("azurerm_linux_virtual_machine.o", nil, side(skuD4, tags("cost-center", "web"), labels("team", "web")))},
			want: []string{"warn ml azurerm_linux_virtual_machine.big: azurerm_linux_virtual_machine.big is ml's",
				"warn ml azurerm_linux_virtual_machine.l: azurerm_linux_virtual_machine.l is ml's"},
		},
		"plan attributes and action": {
			cfg: "version: 1\ncustom_rules:\n  - id: public-bucket\n    when: change.type == 'aws_s3_bucket_acl' && change.action != 'delete' && change.after.acl == 'public-read'\n" +
				"    severity: block\n    message: \"{address} makes a bucket public\"\n    remedy: Keep buckets private.\n",
			changes: []change{
				{addr: "aws_s3_bucket_acl.a", actions: create, after: map[string]any{"acl": "public-read"}},
				{addr: "aws_s3_bucket_acl.b", actions: create, after: map[string]any{"acl": "private"}},
				{addr: "aws_s3_bucket_acl.c", actions: del, before: map[string]any{"acl": "public-read"}},
			},
			want: []string{"block public-bucket aws_s3_bucket_acl.a: aws_s3_bucket_acl.a makes a bucket public"},
		},
		"severity per environment": {
			cfg: "version: 1\nenvironments:\n  dev: {}\ncustom_rules:\n  - id: any-replace\n    when: change.action == 'replace'\n    severity: block\n" +
				"    message: \"{address} is replaced\"\n    environments: {dev: warn}\n",
			env:     "dev",
			changes: []change{renameLLM},
			want:    []string{"warn any-replace aws_sagemaker_endpoint.llm: aws_sagemaker_endpoint.llm is replaced"},
		},
		"off in an environment": {
			cfg: "version: 1\nenvironments:\n  dev: {}\ncustom_rules:\n  - id: any-replace\n    when: change.action == 'replace'\n" +
				"    message: \"{address} is replaced\"\n    environments: {dev: \"off\"}\n",
			env:     "dev",
			changes: []change{renameLLM},
		},
		"replace paths": {
			cfg:     "version: 1\ncustom_rules:\n  - id: renamed\n    when: \"'name' in change.replace_paths\"\n    message: \"{address} is renamed\"\n",
			changes: []change{renameLLM, {addr: "aws_s3_bucket.b", actions: update, before: map[string]any{"bucket": "b"}, after: map[string]any{"bucket": "b"}}},
			want:    []string{"warn renamed aws_sagemaker_endpoint.llm: aws_sagemaker_endpoint.llm is renamed"},
		},
		"a change the expression cannot be evaluated on is reported": {
			cfg:     "version: 1\ncustom_rules:\n  - id: tagged\n    when: change.after.tags.team == 'ml'\n    message: \"{address}\"\n",
			changes: []change{{addr: "aws_s3_bucket.b", actions: create, after: map[string]any{"bucket": "b"}}},
			want:    []string{"warn tagged aws_s3_bucket.b: custom rule `tagged` could not be evaluated here: no such key: tags"},
		},
		"an evaluation error stays a warning for a blocking rule": {
			cfg:     "version: 1\ncustom_rules:\n  - id: tagged\n    when: change.after.tags.team == 'ml'\n    severity: block\n    message: \"{address}\"\n",
			changes: []change{{addr: "aws_s3_bucket.b", actions: create, after: map[string]any{"bucket": "b"}}},
			want:    []string{"warn tagged aws_s3_bucket.b: custom rule `tagged` could not be evaluated here: no such key: tags"},
		},
		"no-op changes are not evaluated": {
			cfg:     "version: 1\ncustom_rules:\n  - id: everything\n    when: \"true\"\n    message: \"{address}\"\n",
			changes: []change{{addr: "aws_s3_bucket.b", actions: noop, before: map[string]any{"bucket": "b"}, after: map[string]any{"bucket": "b"}}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := mustConfig(t, tc.cfg)
			env := tc.env
			if env == "" {
				env = "prod"
			}
			p := Project{Name: "ml", Environment: env, Resources: tc.res}
			if tc.changes != nil {
				p.Plan = plan(t, false, tc.changes...)
			}
			var custom []Finding
			for _, f := range cfg.Evaluate([]Project{p}, nil).Findings {
				if !isBuiltin(f.Rule) {
					custom = append(custom, f)
				}
			}
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, lines(custom)); diff != "" {
				t.Errorf("custom findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCustomRuleConfigErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		yml  string
		want []string
	}{
		"does not compile": {
			yml:  "version: 1\ncustom_rules:\n  - id: typo\n    when: chnage.type == 'aws_instance'\n    message: m\n",
			want: []string{`planwarden.yml:4: custom_rules[0].when: custom rule "typo" does not compile: undeclared reference to 'chnage' (did you mean 'change'?) (line 1, column 1 of the expression)`},
		},
		"syntax error": {
			yml:  "version: 1\ncustom_rules:\n  - id: ok\n    when: change.type == 'a'\n    message: m\n  - id: broken\n    when: change.type ==\n    message: m\n",
			want: []string{`planwarden.yml:7: custom_rules[1].when: custom rule "broken" does not compile: Syntax error: mismatched input '<EOF>' (line 1, column 15 of the expression)`},
		},
		"not a condition": {
			yml:  "version: 1\ncustom_rules:\n  - id: count\n    when: size(change.address)\n    message: m\n",
			want: []string{`planwarden.yml:4: custom_rules[0].when: custom rule "count" does not compile: expected a true/false expression, got one of type int`},
		},
		"duplicate id": {
			yml:  "version: 1\ncustom_rules:\n  - id: a\n    when: \"true\"\n    message: m\n  - id: a\n    when: \"false\"\n    message: m\n",
			want: []string{`planwarden.yml:6: custom_rules[1].id: custom rule "a" is declared twice (also custom_rules[0])`},
		},
		"override of a custom rule is fine, of an undeclared one is not": {
			yml:  "version: 1\ncustom_rules:\n  - id: a\n    when: \"true\"\n    message: m\noverrides:\n  a: {users: [x]}\n  b: {users: [x]}\n",
			want: []string{`planwarden.yml:8: overrides.b: unknown rule "b"; expected a rule id or *: *, a, action-invocation, allowed-skus, cost-increase, endpoint-replacement, gpu-capacity-gap, gpu-increase, gpu-pool-sku, gpu-pool-taint, gpu-sku-loss, iam-admin, plan-runs-pr-code, plan-workflow-changed, plan-workflow-unreadable, required-tags, retired-sku, sku-unknown, stateful-delete, unpriced-sku`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig("planwarden.yml", []byte(tc.yml))
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tc.want, strings.Split(err.Error(), "\n")); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
