package infra

import "testing"

// The list-price figure beside "your price" counts every instance: a
// scale set of 3 A100 VMs at your price of 2.90 an hour lists at 3 x
// 3.673 (Standard_NC24ads_A100_v4 in eastus).
func TestListHourlyCountsInstances(t *testing.T) {
	t.Parallel()
	tp := tplan{changes: []rc{{addr: "azurerm_linux_virtual_machine_scale_set.gpu", actions: []string{"create"},
		after: map[string]any{"sku": "Standard_NC24ads_A100_v4", "instances": 3, "location": "eastus"}}}}
	r := analyze(t, tp, Options{Pricing: Pricing{Prices: map[string]float64{"Standard_NC24ads_A100_v4": 2.90}}})[0]
	if got, list := fmtPtr(r.Cost.HourlyAfter), fmtPtr(r.Cost.ListHourlyAfter); got != "8.7" || list != "11.019" {
		t.Errorf("hourly after %s (list %s); want 8.7 (list 11.019)", got, list)
	}
}
