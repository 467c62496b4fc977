package rules

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// storyProject reads one of the example plans through planparse and infra,
// as `planwarden review` does.
func storyProject(t *testing.T, name, env string) Project {
	t.Helper()
	file := filepath.Join("..", "examples", "plans", name+".json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return Project{Name: name, Environment: env, Plan: p, Resources: infra.Analyze(p, infra.DefaultCatalog(), infra.Options{})}
}

// The seeds' stories, end to end from the example plans.
func TestStories(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)
	tests := map[string]struct {
		plan, env string
		cfg       string
		overrides []Override
		verdict   Verdict
		want      []string
	}{
		"the $4,000 typo: GPU pool to a CPU SKU": {
			plan: "aks-gpu-typo", env: "prod", verdict: VerdictFail,
			want: []string{
				"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` declares itself GPU (name gpu, label hardware=gpu, taint sku=gpu:NoSchedule) but gets Standard_D16s_v5, which has no GPU",
				"block gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` loses its GPUs: Standard_NC6s_v3 (1 x V100) -> Standard_D16s_v5 (no GPU)",
			},
		},
		"the $4,000 typo, overridden by the ML platform lead": {
			plan: "aks-gpu-typo", env: "prod", verdict: VerdictWarn,
			cfg: "version: 1\noverrides:\n  \"*\":\n    users: [alice]\n",
			overrides: []Override{
				{Rule: RuleGPUSKULoss, Address: "azurerm_kubernetes_cluster_node_pool.gpu", By: "alice", At: at, Reason: "moving training to the A100 pool"},
				{Rule: RuleGPUPoolSKU, By: "alice", At: at},
			},
			want: []string{
				"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` declares itself GPU (name gpu, label hardware=gpu, taint sku=gpu:NoSchedule) but gets Standard_D16s_v5, which has no GPU [overridden by alice]",
				"block gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` loses its GPUs: Standard_NC6s_v3 (1 x V100) -> Standard_D16s_v5 (no GPU) [overridden by alice]",
			},
		},
		"a new A100 VM without cost-center": {
			plan: "a100-vm-no-tags", env: "prod", verdict: VerdictFail,
			want: []string{
				"block required-tags azurerm_linux_virtual_machine.trainer: GPU VM `trainer-01` on Standard_NC24ads_A100_v4 (1 x A100 PCIe) is created without the required `cost-center` tag",
			},
		},
		"a production SageMaker endpoint replaced by a rename": {
			plan: "sagemaker-rename", env: "prod", verdict: VerdictFail,
			want: []string{
				"block endpoint-replacement aws_sagemaker_endpoint.llm: SageMaker endpoint `llm-prod` is destroyed and recreated (`name` \"llm-prod\" -> \"llm-prod-v2\" forces the replacement), so it stops serving until the new one is in service",
			},
		},
		"the same rename in staging warns": {
			plan: "sagemaker-rename", env: "staging", verdict: VerdictWarn,
			want: []string{
				"warn endpoint-replacement aws_sagemaker_endpoint.llm: SageMaker endpoint `llm-prod` is destroyed and recreated (`name` \"llm-prod\" -> \"llm-prod-v2\" forces the replacement), so it stops serving until the new one is in service",
			},
		},
		"a lifecycle-only change to the artifact bucket passes": {
			plan: "bucket-lifecycle", env: "prod", verdict: VerdictPass,
			want: []string{},
		},
		"35 more A100 nodes at max warns out of the box": {
			plan: "a100-scale-out", env: "prod", verdict: VerdictWarn,
			want: []string{
				// 512 GiB Premium SSD OS disks (P20) ride along with each node.
				"warn cost-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can cost $132.07/h more at maximum scale ($18.87/h -> $150.93/h; max 5 -> 40 x Standard_NC24ads_A100_v4 (1 x A100 PCIe))",
				"warn gpu-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can add 35 GPUs at maximum scale (5 -> 40 A100 PCIe)",
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res := mustConfig(t, tc.cfg).Evaluate([]Project{storyProject(t, tc.plan, tc.env)}, tc.overrides)
			if diff := cmp.Diff(tc.want, lines(res.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict = %s, want %s", res.Verdict, tc.verdict)
			}
		})
	}
}

// A reviewer must learn from each blocking finding how to fix it and who
// may let it pass.
func TestStoryRemedies(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, "version: 1\noverrides:\n  endpoint-replacement:\n    teams: [acme/ml-serving]\n    labels: [accept-endpoint-downtime]\n")
	tests := map[string]struct {
		plan, env, rule string
		want            string
	}{
		"typo": {
			plan: "aks-gpu-typo", env: "prod", rule: RuleGPUSKULoss,
			want: "If GPU workloads still run there, choose a current GPU SKU (Standard_NC6s_v3 was retired on 2025-09-30, so going back to it is not an option); if dropping the GPUs is intended, move those workloads first and say so in the pull request. No one may override gpu-sku-loss in prod: list who may under overrides.gpu-sku-loss in planwarden.yml on the base branch.",
		},
		"untagged VM": {
			plan: "a100-vm-no-tags", env: "prod", rule: RuleRequiredTags,
			want: "Add `cost-center` to its tags (or the module's default tags) so its GPU spend is attributed. No one may override required-tags in prod: list who may under overrides.required-tags in planwarden.yml on the base branch.",
		},
		"rename": {
			plan: "sagemaker-rename", env: "prod", rule: RuleEndpointReplacement,
			want: "Keep the name \"llm-prod\": an endpoint cannot be renamed, so a new name is a new endpoint with a new URL that every caller must switch to. Keep the attribute that forces the replacement as it is; to roll out a new model, point the endpoint at a new endpoint configuration instead, which updates it in place without downtime. To accept it anyway, team acme/ml-serving may comment `/override endpoint-replacement`, or add the pull request label `accept-endpoint-downtime`.",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fs := only(tc.rule, cfg.Evaluate([]Project{storyProject(t, tc.plan, tc.env)}, nil).Findings)
			if len(fs) != 1 {
				t.Fatalf("%d %s findings, want 1: %v", len(fs), tc.rule, lines(fs))
			}
			if diff := cmp.Diff(tc.want, fs[0].Remedy); diff != "" {
				t.Errorf("remedy (-want +got):\n%s", diff)
			}
		})
	}
}
