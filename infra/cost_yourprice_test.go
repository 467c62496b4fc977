package infra

import "testing"

// The plan's totals under an organisation's pricing: the comment says how
// many resources are at "your price" and shows the list total beside.
func TestSumCountsResourcesAtYourPrice(t *testing.T) {
	vm := func(addr, size string) rc {
		return rc{addr: addr, actions: []string{"create"}, after: map[string]any{"size": size, "location": "eastus"}}
	}
	tp := tplan{changes: []rc{
		vm("azurerm_linux_virtual_machine.a100", "Standard_NC24ads_A100_v4"),
		vm("azurerm_linux_virtual_machine.cpu", "Standard_D4s_v5"),
		vm("azurerm_linux_virtual_machine.a100b", "Standard_NC24ads_A100_v4"),
	}}
	pc := Sum(analyze(t, tp, Options{Pricing: Pricing{Prices: map[string]float64{"Standard_NC24ads_A100_v4": 2.90}}}))
	if pc.YourPrice != 2 || pc.Priced != 3 {
		t.Errorf("Sum: %d of %d priced resources at your price, want 2 of 3", pc.YourPrice, pc.Priced)
	}
	// 2 x 2.90 + 0.192 yours; 2 x 3.673 + 0.192 at list.
	if got, list := fmtPtr(pc.HourlyAfter), fmtPtr(pc.ListHourlyAfter); got != "5.992" || list != "7.538" {
		t.Errorf("Sum: hourly after %s (list %s), want 5.992 (list 7.538)", got, list)
	}
}
