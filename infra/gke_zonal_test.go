package infra

import "testing"

// A zonal GKE cluster's node_locations name only its additional zones (the
// provider leaves the cluster's own zone out), so a pool that inherits them
// runs in one zone more than the list has.
func TestGKEPoolInZonalClusterCountsTheClusterZone(t *testing.T) {
	t.Parallel()
	plan := func(clusterLocs []any) tplan {
		pool := map[string]any{"name": "l4", "cluster": "ml", "location": "us-central1-a", "node_count": 2,
			"node_config": []any{map[string]any{"machine_type": "g2-standard-4"}}}
		cl := map[string]any{"id": "projects/p/locations/us-central1-a/clusters/ml", "name": "ml", "location": "us-central1-a",
			"node_locations": clusterLocs}
		return tplan{changes: []rc{
			{addr: "google_container_cluster.ml", actions: []string{"no-op"}, before: cl, after: cl},
			{addr: "google_container_node_pool.l4", actions: []string{"create"}, after: pool}}}
	}
	side := func(n int) *sview {
		return &sview{SKU: "g2-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: fixed(n),
			GPUs: float64(n), MaxGPUs: float64(n), GPUModel: "NVIDIA L4 24GB", Name: "l4"}
	}
	runAdapterCases(t, map[string]adapterCase{
		"one additional zone: two zones of two nodes": {
			plan: plan([]any{"us-central1-b"}),
			addr: "google_container_node_pool.l4",
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 2.827328 (max 2.827328)", Overlap: "nil", After: side(4)},
		},
		"a list that names the cluster's zone too is counted as it is": {
			plan: plan([]any{"us-central1-a", "us-central1-b"}),
			addr: "google_container_node_pool.l4",
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 2.827328 (max 2.827328)", Overlap: "nil", After: side(4)},
		},
		"no additional zones: the cluster's zone alone": {
			plan: plan([]any{}),
			addr: "google_container_node_pool.l4",
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 1.413664 (max 1.413664)", Overlap: "nil", After: side(2)},
		},
	})
}
