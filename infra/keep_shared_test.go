package infra

import (
	"fmt"
	"testing"
)

// Sides share an equal group (analysis.keep looks it up by a hash of a
// few fields), and only an equal one: two node pools of one SKU nobody
// knows, unpriced for the same reason, one of 0 nodes and one whose count
// the plan leaves out, keep their own counts ("0 / 0 / 0" and "known
// after apply" in the comment) in either order; an on-demand and a spot
// instance of such a SKU keep their own spot marks.
func TestKeepSharesOnlyEqualGroups(t *testing.T) {
	t.Parallel()
	pool := func(extra map[string]any) map[string]any {
		m := map[string]any{"name": "gpu", "vm_size": "zz-unknown"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	zero, omitted := pool(map[string]any{"node_count": 0}), pool(nil)
	onDemand := map[string]any{"instance_type": "zz9.mega"}
	spot := map[string]any{"instance_type": "zz9.mega", "instance_market_options": []any{map[string]any{"market_type": "spot"}}}
	for name, tc := range map[string]struct {
		typ           string
		first, second map[string]any
		check         func(g Group) string // what a reader sees of the group
		want          [2]string
	}{
		"a pool of 0 nodes, then one of a count left out": {
			typ: "azurerm_kubernetes_cluster_node_pool", first: zero, second: omitted,
			check: scaleSeen, want: [2]string{"0/0/0", "known after apply"},
		},
		"a pool of a count left out, then one of 0 nodes": {
			typ: "azurerm_kubernetes_cluster_node_pool", first: omitted, second: zero,
			check: scaleSeen, want: [2]string{"known after apply", "0/0/0"},
		},
		"an on-demand instance, then a spot one": {
			typ: "aws_instance", first: onDemand, second: spot,
			check: spotSeen, want: [2]string{"on-demand", "spot"},
		},
	} {
		tp := tplan{changes: []rc{
			{addr: tc.typ + ".a", actions: []string{"create"}, after: tc.first},
			{addr: tc.typ + ".b", actions: []string{"create"}, after: tc.second},
		}}
		rs := analyze(t, tp, Options{})
		if len(rs) != 2 {
			t.Fatalf("%s: %d resources; want 2", name, len(rs))
		}
		for i, r := range rs {
			g := r.After.Groups[0]
			if got := tc.check(g); got != tc.want[i] || g.Hourly != nil {
				t.Errorf("%s: %s is %s (hourly %v); want %s, unpriced", name, r.Address, got, g.Hourly, tc.want[i])
			}
		}
	}
}

func scaleSeen(g Group) string {
	if g.Scale.Unknown {
		return "known after apply"
	}
	return fmt.Sprintf("%d/%d/%d", g.Scale.Min, g.Scale.Expected, g.Scale.Max)
}

func spotSeen(g Group) string {
	if g.Spot {
		return "spot"
	}
	return "on-demand"
}
