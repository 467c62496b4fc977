package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

func replaced(r *infra.Resource, order planparse.ReplaceOrder) *infra.Resource {
	r.Action, r.ReplaceOrder = planparse.ActionReplace, order
	return r
}

func acted(r *infra.Resource, a planparse.Action) *infra.Resource { r.Action = a; return r }

func TestGPUCapacityGap(t *testing.T) {
	t.Parallel()
	gpuPool := func(addr, name string, k infra.SKU, n int) *infra.Side { return side(k, named(name), nodes(n, n, n)) }
	runRuleCases(t, RuleGPUCapacityGap, map[string]ruleCase{
		"GPU pool replaced delete-first in prod": {
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.a100", gpuPool("", "a100", skuA100, 4), gpuPool("", "a100", skuA100, 4)), planparse.DeleteThenCreate)},
			want: []string{"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` is replaced delete-first (the plan does not say which attribute forces it): " +
				"its 4 A100 GPUs (4 x Standard_NC24ads_A100_v4) go away from the delete until the new node pool's nodes are ready, and the plan leaves no other GPUs running meanwhile"},
		},
		"the same in staging warns": {
			env: "staging",
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.a100", gpuPool("", "a100", skuA100, 4), gpuPool("", "a100", skuA100, 4)), planparse.DeleteThenCreate)},
			want: []string{"warn gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` is replaced delete-first (the plan does not say which attribute forces it): " +
				"its 4 A100 GPUs (4 x Standard_NC24ads_A100_v4) go away from the delete until the new node pool's nodes are ready, and the plan leaves no other GPUs running meanwhile"},
		},
		"create before destroy is no gap": {
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.a100", gpuPool("", "a100", skuA100, 4), gpuPool("", "a100", skuA100, 4)), planparse.CreateThenDelete)},
		},
		"GPU pool deleted while another is created": {
			res: []*infra.Resource{
				acted(pool("azurerm_kubernetes_cluster_node_pool.v100", gpuPool("", "v100", skuNC6, 2), nil), planparse.ActionDelete),
				acted(pool("azurerm_kubernetes_cluster_node_pool.a100", nil, gpuPool("", "a100", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.infer", gpuPool("", "infer", skuA100, 3), gpuPool("", "infer", skuA100, 3)), planparse.ActionNoop),
			},
			want: []string{"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.v100: node pool `v100` is deleted while node pool `a100` is created in the same plan, and Terraform does not order the two: " +
				"its 2 V100 GPUs (2 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready (3 other GPUs keep running)"},
		},
		"GPU pool deleted while two others are created names both": {
			res: []*infra.Resource{
				acted(pool("azurerm_kubernetes_cluster_node_pool.v100", gpuPool("", "v100", skuNC6, 2), nil), planparse.ActionDelete),
				acted(pool("azurerm_kubernetes_cluster_node_pool.a", nil, gpuPool("", "a", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.b", nil, gpuPool("", "b", skuA100, 2)), planparse.ActionCreate),
			},
			want: []string{"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.v100: node pool `v100` is deleted while node pool `a` and node pool `b` is created in the same plan, and Terraform does not order the two: " +
				"its 2 V100 GPUs (2 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready, and the plan leaves no other GPUs running meanwhile"},
		},
		"GPU pools deleted while many are created name three and count the rest, in each finding": {
			res: []*infra.Resource{
				acted(pool("azurerm_kubernetes_cluster_node_pool.v100", gpuPool("", "v100", skuNC6, 2), nil), planparse.ActionDelete),
				acted(pool("azurerm_kubernetes_cluster_node_pool.k80", gpuPool("", "k80", skuNC6, 1), nil), planparse.ActionDelete),
				acted(pool("azurerm_kubernetes_cluster_node_pool.a", nil, gpuPool("", "a", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.b", nil, gpuPool("", "b", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.c", nil, gpuPool("", "c", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.d", nil, gpuPool("", "d", skuA100, 2)), planparse.ActionCreate),
				acted(pool("azurerm_kubernetes_cluster_node_pool.e", nil, gpuPool("", "e", skuA100, 2)), planparse.ActionCreate),
			},
			want: []string{
				"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.k80: node pool `k80` is deleted while 5 GPU pools are created (node pool `a`, node pool `b`, node pool `c` and 2 more) in the same plan, and Terraform does not order the two: " +
					"its 1 V100 GPU (1 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready, and the plan leaves no other GPUs running meanwhile",
				"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.v100: node pool `v100` is deleted while 5 GPU pools are created (node pool `a`, node pool `b`, node pool `c` and 2 more) in the same plan, and Terraform does not order the two: " +
					"its 2 V100 GPUs (2 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready, and the plan leaves no other GPUs running meanwhile",
			},
		},
		"a GPU pool deleted with nothing to replace it is a removal, not a gap": {
			res: []*infra.Resource{acted(pool("azurerm_kubernetes_cluster_node_pool.v100", gpuPool("", "v100", skuNC6, 2), nil), planparse.ActionDelete)},
		},
		"a GPU pool replaced by a CPU one is a GPU loss, not a gap": {
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.gpu", gpuPool("", "gpu", skuNC6, 2), side(skuD16)), planparse.DeleteThenCreate)},
		},
		"a CPU pool replaced delete-first": {
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.cpu", side(skuD16), side(skuD16)), planparse.DeleteThenCreate)},
		},
		"a GPU VM replaced is not a pool": {
			res: []*infra.Resource{replaced(vm("azurerm_linux_virtual_machine.t", side(skuA100), side(skuA100)), planparse.DeleteThenCreate)},
		},
	})
}

// The EKS story: a GPU node group moving from g5.xlarge to g5.12xlarge is
// replaced, and every GPU node is drained before the new ones exist.
func TestGPUCapacityGapEKSResize(t *testing.T) {
	t.Parallel()
	ng := func(typ string) map[string]any {
		return map[string]any{"node_group_name": "gpu", "instance_types": []any{typ}, "region": "us-east-1",
			"scaling_config": []any{map[string]any{"desired_size": 2, "min_size": 1, "max_size": 4}}, "tags_all": map[string]any{"cost-center": "ml"}}
	}
	p := plan(t, false, change{addr: "aws_eks_node_group.gpu", actions: replace, replace: []string{"instance_types"},
		before: ng("g5.xlarge"), after: ng("g5.12xlarge")})
	proj := Project{Name: "ml", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}
	got := lines(only(RuleGPUCapacityGap, DefaultConfig().Evaluate([]Project{proj}, nil).Findings))
	want := "block gpu-capacity-gap aws_eks_node_group.gpu: node pool `gpu` is replaced delete-first (`instance_types` forces the replacement): " +
		"its 2 A10G GPUs (2 x g5.xlarge) go away from the delete until the new node pool's nodes are ready, and the plan leaves no other GPUs running meanwhile"
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
}

// Each gpu-capacity-gap remedy names its own kind of fleet, in a plan that
// replaces a node pool and a scale set.
func TestGPUCapacityGapRemedyNamesTheKind(t *testing.T) {
	t.Parallel()
	gpus := func() *infra.Side { return side(skuA100, nodes(2, 2, 2)) }
	res := []*infra.Resource{
		replaced(pool("azurerm_kubernetes_cluster_node_pool.a", gpus(), gpus()), planparse.DeleteThenCreate),
		replaced(&infra.Resource{Address: "azurerm_linux_virtual_machine_scale_set.b", Type: "azurerm_linux_virtual_machine_scale_set", Kind: infra.KindScaleSet,
			Before: gpus(), After: gpus()}, planparse.DeleteThenCreate),
		replaced(pool("azurerm_kubernetes_cluster_node_pool.c", gpus(), gpus()), planparse.DeleteThenCreate),
	}
	got := remedyLeads(only(RuleGPUCapacityGap, DefaultConfig().Evaluate([]Project{{Name: "ml", Environment: "dev", Resources: res}}, nil).Findings), " `create_before_destroy`")
	want := []string{
		"azurerm_kubernetes_cluster_node_pool.a: Create the new capacity first: give the node pool",
		"azurerm_kubernetes_cluster_node_pool.c: Create the new capacity first: give the node pool",
		"azurerm_linux_virtual_machine_scale_set.b: Create the new capacity first: give the scale set",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("remedies (-want +got):\n%s", diff)
	}
}
