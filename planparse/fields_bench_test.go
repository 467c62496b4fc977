package planparse

import (
	"testing"
)

// BenchmarkFields reads a node pool's dozen attributes of the kind infra
// reads, most of them present, by Fields.
func BenchmarkFields(b *testing.B) {
	p, err := Parse("plan.json", []byte(`{"format_version":"1.2","resource_changes":[{"address":"azurerm_kubernetes_cluster_node_pool.gpu","mode":"managed","type":"azurerm_kubernetes_cluster_node_pool","name":"gpu",
"change":{"actions":["update"],"before":null,"after":{"name":"gpu0","vm_size":"Standard_NC24ads_A100_v4","node_count":1,"auto_scaling_enabled":true,"min_count":0,"max_count":8,"kubernetes_cluster_id":"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/Microsoft.ContainerService/managedClusters/aks-0","node_labels":{"accelerator":"nvidia"},"node_taints":["nvidia.com/gpu=present:NoSchedule"],"tags":{"cost-center":"ml"}},"after_unknown":{}}}]}`))
	if err != nil {
		b.Fatal(err)
	}
	v := p.Changes[0].After()
	keys := []string{"vm_size", "enable_auto_scaling", "auto_scaling_enabled", "node_count", "min_count", "max_count",
		"priority", "os_type", "name", "node_taints", "only_critical_addons_enabled", "kubernetes_cluster_id"}
	out := make([]Value, len(keys))
	b.ReportAllocs()
	for b.Loop() {
		v.Fields(keys, out)
	}
	if s, _ := out[0].Str(); s != "Standard_NC24ads_A100_v4" {
		b.Fatalf("vm_size = %q", s)
	}
}
