package infra

import "testing"

// A GKE pool created with autoscaling: an unset minimum is GKE's 0, and
// until node_count is known the pool starts at initial_node_count per zone.
// Before, both shapes were unpriced as "known only after apply".
func TestGKEAutoscalingDefaults(t *testing.T) {
	t.Parallel()
	pool := func(as map[string]any) tplan {
		return tplan{changes: []rc{{addr: "google_container_node_pool.l4", actions: []string{"create"},
			after: map[string]any{"name": "l4", "location": "us-central1", "node_locations": []any{"us-central1-a", "us-central1-b"},
				"node_count": nil, "initial_node_count": 1, "autoscaling": []any{as},
				"node_config": []any{map[string]any{"machine_type": "g2-standard-4"}}},
			unknown: map[string]any{"node_count": true}}}}
	}
	side := &sview{SKU: "g2-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: auto(0, 2, 8),
		GPUs: 2, MaxGPUs: 8, GPUModel: "NVIDIA L4 24GB", Name: "l4"}
	runAdapterCases(t, map[string]adapterCase{
		"total maximum only": {
			plan: pool(map[string]any{"total_max_node_count": 8, "total_min_node_count": nil}),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 1.413664 (max 5.654656)", Overlap: "nil", After: side},
		},
		"per-zone maximum only": {
			plan: pool(map[string]any{"max_node_count": 4, "min_node_count": nil}),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 1.413664 (max 5.654656)", Overlap: "nil", After: side},
		},
	})
}
