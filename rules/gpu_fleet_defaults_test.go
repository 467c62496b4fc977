package rules

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// The defaults are sized for GPU fleets, priced end to end from the
// catalog: two p5.48xlarge (+$110/h, 16 H100) block in prod on cost and
// warn on GPUs; one (+$55/h, 8 H100) only warns on cost, and stays under
// gpu-increase's threshold; a new pool of 0..10 A100s warns on its GPUs at
// maximum scale although it costs nothing at the expected scale.
func TestGPUFleetDefaults(t *testing.T) {
	t.Parallel()
	p5 := func(name string) map[string]any {
		return map[string]any{"address": "aws_instance." + name, "mode": "managed", "type": "aws_instance", "name": name,
			"provider_name": "registry.terraform.io/hashicorp/aws", "change": map[string]any{"actions": []string{"create"}, "before": nil,
				"after": map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a", "tags": map[string]any{"Name": name, "cost-center": "ml"}}}}
	}
	burst := map[string]any{"address": "azurerm_kubernetes_cluster_node_pool.burst", "mode": "managed", "type": "azurerm_kubernetes_cluster_node_pool", "name": "burst",
		"provider_name": "registry.terraform.io/hashicorp/azurerm", "change": map[string]any{"actions": []string{"create"}, "before": nil,
			"after": map[string]any{"name": "burst", "vm_size": "Standard_NC24ads_A100_v4", "auto_scaling_enabled": true, "min_count": 0, "max_count": 10,
				"os_disk_type": "Ephemeral", "node_taints": []string{"nvidia.com/gpu=true:NoSchedule"}, "tags": map[string]any{"cost-center": "ml"},
				"kubernetes_cluster_id": "/subscriptions/0/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/ml"}}}
	tests := map[string]struct {
		changes []any
		want    []string
	}{
		"two p5.48xlarge: +$110/h blocks, 16 H100 warn": {
			changes: []any{p5("a"), p5("b")},
			want: []string{
				"block cost-increase : the changes of project `ml` together can cost $110.08/h more at the expected scale, over 2 resources",
				"warn cost-increase aws_instance.a: VM `a` can cost $55.04/h more at the expected scale ($0.00/h -> $55.04/h)",
				"warn cost-increase aws_instance.b: VM `b` can cost $55.04/h more at the expected scale ($0.00/h -> $55.04/h)",
				"warn gpu-increase : the changes of project `ml` together add 16 GPUs at the expected scale and 16 at maximum scale, over 2 resources",
			},
		},
		"its twin: one p5.48xlarge warns on cost, 8 GPUs do not": {
			changes: []any{p5("a")},
			want:    []string{"warn cost-increase aws_instance.a: VM `a` can cost $55.04/h more at the expected scale ($0.00/h -> $55.04/h)"},
		},
		"a new pool of 0..10 A100s warns on its GPUs at maximum scale": {
			changes: []any{burst},
			want:    []string{"warn gpu-increase azurerm_kubernetes_cluster_node_pool.burst: node pool `burst` can add 10 GPUs at maximum scale (0 -> 10 A100 PCIe)"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(map[string]any{"format_version": "1.2", "terraform_version": "1.9.8", "resource_changes": tc.changes})
			if err != nil {
				t.Fatal(err)
			}
			p, err := planparse.Parse("fleet.json", b)
			if err != nil {
				t.Fatal(err)
			}
			proj := Project{Name: "ml", Environment: "prod", Plan: p, Resources: infra.Analyze(p, infra.DefaultCatalog(), infra.Options{})}
			fs := mustConfig(t, "").Evaluate([]Project{proj}, nil).Findings
			got := lines(append(only(RuleCostIncrease, fs), only(RuleGPUIncrease, fs)...))
			if got == nil {
				got = []string{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
