package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

func TestGPUIncrease(t *testing.T) {
	t.Parallel()
	skuP5 := infra.SKU{Cloud: "aws", Name: "p5.48xlarge", GPUCount: 8, GPUModel: "NVIDIA H100 80GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}
	p5 := func(n int) *infra.Resource {
		return vm("aws_eks_node_group.p5", nil, side(skuP5, named("p5"), nodes(n, n, n)))
	}
	runRuleCases(t, RuleGPUIncrease, map[string]ruleCase{
		"a new min-0 A100 pool adds its maximum at maximum scale": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.burst", nil, side(skuA100, named("burst"), nodes(0, 0, 10)))},
			want: []string{"warn gpu-increase azurerm_kubernetes_cluster_node_pool.burst: node pool `burst` can add 10 GPUs at maximum scale (0 -> 10 A100)"},
		},
		"its honest twin: a min-0 pool of 8 stays under the threshold": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.burst", nil, side(skuA100, named("burst"), nodes(0, 0, 8)))},
		},
		"two p5.48xlarge add 16 GPUs: a warning, not a pass": {
			res:  []*infra.Resource{p5(2)},
			want: []string{"warn gpu-increase aws_eks_node_group.p5: VM `p5` adds 16 GPUs at the expected scale (0 -> 16) and up to 16 at maximum scale (0 -> 16 H100)"},
		},
		"nine p5.48xlarge (72 GPUs) block in a protected environment": {
			res:  []*infra.Resource{p5(9)},
			want: []string{"block gpu-increase aws_eks_node_group.p5: VM `p5` adds 72 GPUs at the expected scale (0 -> 72) and up to 72 at maximum scale (0 -> 72 H100)"},
		},
		"and only warn elsewhere": {
			res: []*infra.Resource{p5(9)}, env: "staging",
			want: []string{"warn gpu-increase aws_eks_node_group.p5: VM `p5` adds 72 GPUs at the expected scale (0 -> 72) and up to 72 at maximum scale (0 -> 72 H100)"},
		},
		"thresholds from the config": {
			cfg: "version: 1\nrules:\n  gpu-increase: {warn: 100, block: 200}\n",
			res: []*infra.Resource{p5(9)},
		},
		"a scale-out of an existing pool counts from its old maximum": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.a100", side(skuA100, named("a100"), nodes(0, 2, 5)), side(skuA100, named("a100"), nodes(0, 2, 40)))},
			want: []string{"warn gpu-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can add 35 GPUs at maximum scale (5 -> 40 A100)"},
		},
		"GPUs going away are gpu-sku-loss's, not an increase": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gpu"), nodes(20, 20, 20)), side(skuD16, named("gpu"), nodes(20, 20, 20)))},
		},
		"many pools that each stay under add up": {
			res: []*infra.Resource{
				pool("azurerm_kubernetes_cluster_node_pool.a", nil, side(skuA100, named("a"), nodes(6, 6, 6))),
				pool("azurerm_kubernetes_cluster_node_pool.b", nil, side(skuA100, named("b"), nodes(6, 6, 6))),
			},
			want: []string{"warn gpu-increase : the changes of project `ml` together add 12 GPUs at the expected scale and 12 at maximum scale, over 2 resources"},
		},
		"an unknown SKU's GPUs are not guessed": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.x", nil, side(skuMystic, named("x"), nodes(50, 50, 50)))},
		},
	})
}
