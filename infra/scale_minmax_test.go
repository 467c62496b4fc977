package infra

import "testing"

// A maximum below the minimum never puts the expected count under the
// minimum: at least min nodes run, so expected is min.
func TestScaleMaxBelowMin(t *testing.T) {
	t.Parallel()
	ng := tplan{changes: []rc{{addr: "aws_eks_node_group.gpu", actions: []string{"create"},
		after: map[string]any{"node_group_name": "gpu", "instance_types": []any{"g5.xlarge"}, "region": "us-east-1",
			"scaling_config": []any{map[string]any{"min_size": 3, "desired_size": 2, "max_size": 1}}}}}}
	runAdapterCases(t, map[string]adapterCase{
		"EKS min 3, desired 2, max 1": {
			plan: ng,
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 3.02622 (max 3.02622)", Overlap: "nil",
				After: &sview{SKU: "g5.xlarge", Region: "us-east-1", Source: RegionFromResource, Scale: fixed(3), GPUs: 3, MaxGPUs: 3,
					GPUModel: "NVIDIA A10G 24GB", Name: "gpu"}},
		},
	})
}
