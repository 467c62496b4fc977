package infra

import "testing"

// A resource priced through another (an ASG through its launch template
// or launch configuration, a GKE pool through its cluster) finds it when
// the plan does not change it: in prior_state for the fleet as it is, in
// planned_values for the fleet as it will be. The comment shows the SKU
// and the price that come from it.
func TestParentsFoundOutsideTheChanges(t *testing.T) {
	asg := func(extra map[string]any) map[string]any {
		m := map[string]any{"name": "train", "min_size": 1, "max_size": 1, "desired_capacity": 1}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	ltRef := []map[string]any{{"address": "aws_autoscaling_group.gpu", "mode": "managed", "type": "aws_autoscaling_group", "name": "gpu",
		"expressions": map[string]any{"launch_template": []any{map[string]any{"id": map[string]any{
			"references": []any{"aws_launch_template.gpu.id", "aws_launch_template.gpu"}}}}}}}
	gkeCluster := "projects/p/locations/us-central1-a/clusters/c"
	tests := map[string]struct {
		plan                  tplan
		before, after, region string
		unpriced              string
	}{
		"launch template by id, only in prior_state": {
			plan: tplan{providers: awsProvider("us-east-1"),
				prior: map[string]map[string]any{"aws_launch_template.gpu": {"id": "lt-0abc", "name": "gpu-lt", "instance_type": "g5.xlarge"}},
				changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"create"},
					after: asg(map[string]any{"launch_template": []any{map[string]any{"id": "lt-0abc"}}})}}},
			after: "g5.xlarge", region: "us-east-1",
		},
		"launch template by name, only in prior_state": {
			plan: tplan{providers: awsProvider("us-east-1"),
				prior: map[string]map[string]any{"aws_launch_template.gpu": {"id": "lt-0abc", "name": "gpu-lt", "instance_type": "g5.2xlarge"}},
				changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"create"},
					after: asg(map[string]any{"launch_template": []any{map[string]any{"name": "gpu-lt"}}})}}},
			after: "g5.2xlarge", region: "us-east-1",
		},
		"launch template by reference: prior_state before, planned_values after": {
			plan: tplan{providers: awsProvider("us-east-1"), config: ltRef,
				prior:   map[string]map[string]any{"aws_launch_template.gpu": {"instance_type": "g5.xlarge"}},
				planned: map[string]map[string]any{"aws_launch_template.gpu": {"instance_type": "g5.2xlarge"}},
				changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"update"},
					before: asg(map[string]any{"launch_template": []any{map[string]any{"version": "1"}}}),
					after:  asg(map[string]any{"launch_template": []any{map[string]any{"version": "2"}}})}}},
			before: "g5.xlarge", after: "g5.2xlarge", region: "us-east-1",
		},
		"launch configuration in the changes": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_launch_configuration.gpu", actions: []string{"create"}, after: map[string]any{"name": "lc-gpu", "instance_type": "g5.xlarge"}},
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: asg(map[string]any{"launch_configuration": "lc-gpu"})}}},
			after: "g5.xlarge", region: "us-east-1",
		},
		"launch configuration nowhere in the plan": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: asg(map[string]any{"launch_configuration": "lc-gone"})}}},
			region: "us-east-1", unpriced: "after: launch configuration not found in the plan",
		},
		"neither template nor configuration": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: asg(nil)}}},
			region: "us-east-1", unpriced: "after: no launch template or configuration in the plan",
		},
		"GKE pool whose cluster, by id, is only in prior_state: its zone and region": {
			plan: tplan{
				prior: map[string]map[string]any{"google_container_cluster.c": {"id": gkeCluster, "name": "c", "location": "us-central1-a"}},
				changes: []rc{{addr: "google_container_node_pool.l4", actions: []string{"create"},
					after: map[string]any{"cluster": gkeCluster, "node_count": 1, "node_config": []any{map[string]any{"machine_type": "g2-standard-4"}}}}}},
			after: "g2-standard-4", region: "us-central1",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tc.plan, Options{})
			r := rs[len(rs)-1]
			sku := func(s *Side) string {
				if s == nil || len(s.Groups) == 0 {
					return ""
				}
				return s.Groups[0].SKU.Name
			}
			var unpriced string
			for _, u := range r.Cost.Unpriced {
				unpriced += u.Side + ": " + u.Reason
			}
			if b, a := sku(r.Before), sku(r.After); b != tc.before || a != tc.after || r.After.Region != tc.region || unpriced != tc.unpriced {
				t.Errorf("%s: SKU %q -> %q in %q, unpriced %q; want %q -> %q in %q, unpriced %q",
					r.Address, b, a, r.After.Region, unpriced, tc.before, tc.after, tc.region, tc.unpriced)
			}
		})
	}
}

// Many groups name a few launch templates: each side gets its own
// template's instance type (prior_state before, planned_values after),
// whether it names the template by id or by name, however many ask.
func TestSharedLaunchTemplates(t *testing.T) {
	t.Parallel()
	asg := func(lt map[string]any) map[string]any {
		return map[string]any{"name": "g", "min_size": 1, "max_size": 1, "desired_capacity": 1, "launch_template": []any{lt}}
	}
	byID := func(id string) map[string]any { return asg(map[string]any{"id": id}) }
	tp := tplan{providers: awsProvider("us-east-1"),
		prior: map[string]map[string]any{
			"aws_launch_template.a": {"id": "lt-a", "name": "a", "instance_type": "g5.xlarge"},
			"aws_launch_template.b": {"id": "lt-b", "name": "b", "instance_type": "g5.2xlarge"}},
		planned: map[string]map[string]any{
			"aws_launch_template.a": {"id": "lt-a", "name": "a", "instance_type": "g5.4xlarge"}},
		changes: []rc{
			{addr: "aws_autoscaling_group.a1", actions: []string{"update"}, before: byID("lt-a"), after: byID("lt-a")},
			{addr: "aws_autoscaling_group.b1", actions: []string{"update"}, before: byID("lt-b"), after: byID("lt-b")},
			{addr: "aws_autoscaling_group.a2", actions: []string{"update"}, before: byID("lt-a"), after: byID("lt-a")},
			{addr: "aws_autoscaling_group.n1", actions: []string{"create"}, after: asg(map[string]any{"name": "a"})},
			{addr: "aws_autoscaling_group.n2", actions: []string{"delete"}, before: asg(map[string]any{"name": "a"})},
		}}
	want := map[string][2]string{
		"aws_autoscaling_group.a1": {"g5.xlarge", "g5.4xlarge"},
		"aws_autoscaling_group.b1": {"g5.2xlarge", "g5.2xlarge"},
		"aws_autoscaling_group.a2": {"g5.xlarge", "g5.4xlarge"},
		"aws_autoscaling_group.n1": {"", "g5.4xlarge"},
		"aws_autoscaling_group.n2": {"g5.xlarge", ""},
	}
	sku := func(s *Side) string {
		if s == nil {
			return ""
		}
		return s.Groups[0].SKU.Name
	}
	rs := analyze(t, tp, Options{})
	if len(rs) != len(want) {
		t.Fatalf("%d resources, want %d", len(rs), len(want))
	}
	for _, r := range rs {
		if got := [2]string{sku(r.Before), sku(r.After)}; got != want[r.Address] {
			t.Errorf("%s: %q -> %q, want %q -> %q", r.Address, got[0], got[1], want[r.Address][0], want[r.Address][1])
		}
	}
}
