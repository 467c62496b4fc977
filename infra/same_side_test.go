package infra

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// An unchanged value is read once for both sides (analysis.resource), but
// only where a side is made from its own value: an unchanged node pool
// whose parent cluster moves region between prior_state and planned_values
// still gets each side's own region.
func TestUnchangedPoolKeepsEachSidesParentRegion(t *testing.T) {
	t.Parallel()
	pool := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 1, "kubernetes_cluster_id": clusterID}
	tp := tplan{
		changes: []rc{{addr: "azurerm_kubernetes_cluster_node_pool.a100", actions: []string{"no-op"}, before: pool, after: pool}},
		prior:   map[string]map[string]any{"azurerm_kubernetes_cluster.main": {"id": clusterID, "location": "westeurope", "name": "ml"}},
		planned: map[string]map[string]any{"azurerm_kubernetes_cluster.main": {"id": clusterID, "location": "eastus", "name": "ml"}},
	}
	r := analyze(t, tp, Options{})[0]
	if r.Before.Region != "westeurope" || r.After.Region != "eastus" {
		t.Errorf("regions %q -> %q; want westeurope -> eastus (each side's own parent cluster)", r.Before.Region, r.After.Region)
	}
}

// An unchanged instance's sides read the same (one read serves both), but
// the same bytes under other sensitivity marks are not the same value: a
// Name tag marked sensitive after the change is not read on the after side
// (and, a secret now, is hidden on the before side too).
func TestUnchangedInstanceSides(t *testing.T) {
	t.Parallel()
	const v = `{"instance_type":"g5.xlarge","availability_zone":"us-east-1a","tags":{"Name":"trainer"}}`
	for _, tc := range []struct {
		name, afterSens, wantBefore, wantAfter string
	}{
		{"same marks", `{}`, "trainer", "trainer"},
		{"tags sensitive after", `{"tags":true}`, "(sensitive)", ""},
	} {
		p, err := planparse.Parse("same.json", []byte(`{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
			"provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["no-op"],"before":`+v+`,"after":`+v+`,"before_sensitive":{},"after_sensitive":`+tc.afterSens+`}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze(p, DefaultCatalog(), Options{})[0]
		if r.Before.Name != tc.wantBefore || r.After.Name != tc.wantAfter {
			t.Errorf("%s: names %q -> %q; want %q -> %q", tc.name, r.Before.Name, r.After.Name, tc.wantBefore, tc.wantAfter)
		}
		if r.Before.SKU != "g5.xlarge" || r.After.SKU != "g5.xlarge" || r.Before.Region != "us-east-1" || r.After.Region != "us-east-1" {
			t.Errorf("%s: sides %q in %q -> %q in %q; want g5.xlarge in us-east-1 on both", tc.name, r.Before.SKU, r.Before.Region, r.After.SKU, r.After.Region)
		}
	}
}
