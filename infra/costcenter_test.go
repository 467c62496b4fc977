package infra

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The roll-up by cost center: each side goes to the center its tags name
// (the first of the keys it carries, else (untagged)), the rows' figures
// add up to the plans' totals, and GPUs are counted by model at the
// expected and the maximum scale.
func TestCostCentersAddUp(t *testing.T) {
	t.Parallel()
	vm := func(size string, tags map[string]any) map[string]any {
		return map[string]any{"size": size, "location": "eastus", "tags": tags}
	}
	pool := func(tags map[string]any, lo, hi int) map[string]any {
		return map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "min_count": lo, "max_count": hi, "auto_scaling_enabled": true,
			"kubernetes_cluster_id": clusterID, "os_disk_type": "Ephemeral", "tags": tags}
	}
	cluster := map[string]any{"id": clusterID, "name": "ml-prod", "location": "eastus"}
	plan := tplan{changes: []rc{
		// nlp by its cost-center tag: an A100 pool of 0..10 nodes.
		{addr: "azurerm_kubernetes_cluster_node_pool.burst", actions: []string{"create"}, after: pool(map[string]any{"cost-center": "nlp"}, 0, 10)},
		// vision by the second key (team), an A100 VM.
		{addr: "azurerm_linux_virtual_machine.trainer", actions: []string{"create"}, after: vm("Standard_NC24ads_A100_v4", map[string]any{"team": "vision"})},
		// moved from nlp to vision: its before figure is nlp's, its after vision's.
		{addr: "azurerm_linux_virtual_machine.moved", actions: []string{"update"},
			before: vm("Standard_NC24ads_A100_v4", map[string]any{"cost-center": "nlp"}), after: vm("Standard_NC24ads_A100_v4", map[string]any{"cost-center": "vision"})},
		// a SKU nobody knows: left out of the figures, its GPUs unknown, not 0.
		{addr: "azurerm_linux_virtual_machine.future", actions: []string{"create"}, after: vm("Standard_ND999zz_v9", map[string]any{"team": "vision"})},
		// no tag at all: its own row.
		{addr: "azurerm_linux_virtual_machine.box", actions: []string{"create"}, after: vm("Standard_D4s_v5", nil)},
	}, prior: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}
	rs := analyze(t, plan, Options{})
	rows := CostCenters([]string{"cost-center", "team"}, rs)
	var got []string
	var before, after, maxAfter float64
	for _, c := range rows {
		gpus := func(l []GPUCount) string {
			var s []string
			for _, g := range l {
				s = append(s, fmt.Sprintf("%v/%v %s", g.Count, g.AtMost, ShortModel(g.Model)))
			}
			return strings.Join(s, ",")
		}
		got = append(got, fmt.Sprintf("%s: %s -> %s; %.4f -> %.4f (max %.4f); %d resources, %d unpriced, %d with GPUs unknown",
			c.Value, gpus(c.GPUsBefore), gpus(c.GPUsAfter), c.HourlyBefore, c.HourlyAfter, c.MaxHourlyAfter, c.Resources, c.Unpriced, c.GPUsUnknown))
		before, after, maxAfter = before+c.HourlyBefore, after+c.HourlyAfter, maxAfter+c.MaxHourlyAfter
	}
	want := []string{
		"nlp: 1/1 A100 PCIe -> 0/10 A100 PCIe; 3.6730 -> 0.0000 (max 36.7300); 1 resources, 0 unpriced, 0 with GPUs unknown",
		"vision:  -> 2/2 A100 PCIe; 0.0000 -> 7.3460 (max 7.3460); 3 resources, 1 unpriced, 1 with GPUs unknown",
		"(untagged):  -> ; 0.0000 -> 0.1920 (max 0.1920); 1 resources, 0 unpriced, 0 with GPUs unknown",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	sum := Sum(rs)
	for _, x := range []struct {
		name string
		rows float64
		plan *float64
	}{{"hourly before", before, sum.HourlyBefore}, {"hourly after", after, sum.HourlyAfter}, {"max hourly after", maxAfter, sum.MaxHourlyAfter}} {
		if x.plan == nil || math.Abs(x.rows-*x.plan) > 1e-6 {
			t.Errorf("%s: the rows add up to %v, the plan's total is %v", x.name, x.rows, fmtPtr(x.plan))
		}
	}
}
