package infra

import "testing"

// A related resource that lacks the side asked about lends its other side
// (pick): a node pool that Terraform keeps managing while its cluster is
// forgotten (a removed block without destroy; the cluster has no after
// side and runs on) is still in the cluster's region, priced there, with
// no prior_state in the plan to fall back on.
func TestPoolOfForgottenClusterKeepsItsRegion(t *testing.T) {
	t.Parallel()
	pool := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 1, "kubernetes_cluster_id": clusterID}
	grown := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 2, "kubernetes_cluster_id": clusterID}
	tp := tplan{changes: []rc{
		{addr: "azurerm_kubernetes_cluster.main", actions: []string{"forget"}, before: map[string]any{"id": clusterID, "location": "westeurope", "name": "ml"}},
		{addr: "azurerm_kubernetes_cluster_node_pool.a100", actions: []string{"update"}, before: pool, after: grown},
	}}
	for _, r := range analyze(t, tp, Options{}) {
		if r.Address != "azurerm_kubernetes_cluster_node_pool.a100" {
			continue
		}
		if r.Before.Region != "westeurope" || r.After.Region != "westeurope" || len(r.Cost.Unpriced) != 0 {
			t.Errorf("pool in %q -> %q, unpriced %v; want westeurope on both sides, priced", r.Before.Region, r.After.Region, r.Cost.Unpriced)
		}
		return
	}
	t.Fatal("no node pool in the analysis")
}
