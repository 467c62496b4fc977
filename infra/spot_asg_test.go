package infra

import "testing"

// An ASG whose capacity runs as spot is unpriced like any spot capacity,
// never shown at the on-demand price.
func TestAutoscalingGroupSpot(t *testing.T) {
	t.Parallel()
	mip := func(dist map[string]any) map[string]any {
		lt := map[string]any{"launch_template_specification": []any{map[string]any{"launch_template_name": "x"}},
			"override": []any{map[string]any{"instance_type": "p3.2xlarge"}}}
		m := map[string]any{"launch_template": []any{lt}}
		if dist != nil {
			m["instances_distribution"] = []any{dist}
		}
		return map[string]any{"name": "gpu", "min_size": 2, "max_size": 4, "desired_capacity": 2,
			"mixed_instances_policy": []any{m}}
	}
	asg := func(after map[string]any) tplan {
		return tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: after}}}
	}
	side := &sview{SKU: "p3.2xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: auto(2, 2, 4), GPUs: 2, MaxGPUs: 4,
		GPUModel: "NVIDIA V100 16GB", Name: "gpu"}
	spot := []string{"after: spot capacity: its price moves with the market and the config gives no spot price"}
	runAdapterCases(t, map[string]adapterCase{
		"all spot above a zero base": {
			plan: asg(mip(map[string]any{"on_demand_base_capacity": 0, "on_demand_percentage_above_base_capacity": 0})),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: spot, After: side},
		},
		"half spot above a base smaller than the maximum": {
			plan: asg(mip(map[string]any{"on_demand_base_capacity": 2, "on_demand_percentage_above_base_capacity": 50})),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: spot, After: side},
		},
		"a base covering the maximum is all on-demand": {
			plan: asg(mip(map[string]any{"on_demand_base_capacity": 4, "on_demand_percentage_above_base_capacity": 0})),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> 6.12 (max 12.24)", Overlap: "nil", After: side},
		},
		"on-demand at 100 percent": {
			plan: asg(mip(map[string]any{"on_demand_base_capacity": 0, "on_demand_percentage_above_base_capacity": 100})),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> 6.12 (max 12.24)", Overlap: "nil", After: side},
		},
		"a launch template that requests spot": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_launch_template.gpu", actions: []string{"create"}, after: map[string]any{"id": "lt-0abc", "instance_type": "p3.2xlarge",
					"instance_market_options": []any{map[string]any{"market_type": "spot"}}}},
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: map[string]any{"name": "gpu", "min_size": 2, "max_size": 4,
					"desired_capacity": 2, "launch_template": []any{map[string]any{"id": "lt-0abc"}}}}}},
			addr: "aws_autoscaling_group.gpu",
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: spot, After: side},
		},
	})
}

// An ASG whose mixed instances policy selects types by
// instance_requirements does not run the launch template's instance_type.
func TestAutoscalingGroupInstanceRequirements(t *testing.T) {
	t.Parallel()
	runAdapterCases(t, map[string]adapterCase{
		"instance_requirements override": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_launch_template.gpu", actions: []string{"create"}, after: map[string]any{"id": "lt-0abc", "instance_type": "p3.2xlarge"}},
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: map[string]any{"name": "gpu", "min_size": 2, "max_size": 4,
					"desired_capacity": 2, "mixed_instances_policy": []any{map[string]any{"launch_template": []any{map[string]any{
						"launch_template_specification": []any{map[string]any{"launch_template_id": "lt-0abc"}},
						"override": []any{map[string]any{"instance_requirements": []any{map[string]any{
							"vcpu_count": []any{map[string]any{"min": 4}}, "memory_mib": []any{map[string]any{"min": 16384}}}}}}}}}}}}}},
			addr: "aws_autoscaling_group.gpu",
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: instance_requirements: EC2 chooses the instance types at launch"},
				After:    &sview{Region: "us-east-1", Source: RegionFromProvider, Scale: auto(2, 2, 4), Name: "gpu"}},
		},
	})
}
