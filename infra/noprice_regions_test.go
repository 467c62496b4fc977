package infra

import (
	"fmt"
	"strings"
	"testing"
)

// The reason an unpriced SKU gives (shown under "not priced" in the
// comment) names every region that has a price when there are up to five,
// and five of them with the count beyond that.
func TestNoPriceNamesTheRegionsThatHaveOne(t *testing.T) {
	regions := []string{"australiaeast", "brazilsouth", "canadacentral", "centralindia", "centralus", "eastus"}
	sku := func(name string, n int) string {
		var prices []string
		for _, r := range regions[:n] {
			prices = append(prices, fmt.Sprintf(`{"region":%q,"usd_per_hour":1}`, r))
		}
		return fmt.Sprintf(`{"cloud":"azure","name":%q,"prices":[%s]}`, name, strings.Join(prices, ","))
	}
	cat, err := ParseCatalog([]byte(`{"format":1,"skus":[` + sku("Standard_Five", 5) + "," + sku("Standard_Six", 6) + "," + sku("Standard_One", 1) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{
		"Standard_One":  "no price for Standard_One in norwayeast (the catalog prices it in australiaeast)",
		"Standard_Five": "no price for Standard_Five in norwayeast (the catalog prices it in australiaeast, brazilsouth, canadacentral, centralindia, centralus)",
		"Standard_Six":  "no price for Standard_Six in norwayeast (the catalog prices it in 6 other regions, such as australiaeast, brazilsouth, canadacentral, centralindia, centralus)",
	}
	for size, want := range tests {
		t.Run(size, func(t *testing.T) {
			tp := tplan{changes: []rc{{addr: "azurerm_linux_virtual_machine.vm", actions: []string{"create"},
				after: map[string]any{"size": size, "location": "norwayeast"}}}}
			r := Analyze(tp.parse(t), cat, Options{})[0]
			if len(r.Cost.Unpriced) != 1 || r.Cost.Unpriced[0].Reason != want {
				t.Errorf("unpriced %+v; want one item: %q", r.Cost.Unpriced, want)
			}
		})
	}
}
