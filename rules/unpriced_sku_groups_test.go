package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// Spot pools of one SKU are one unpriced-sku finding that says how many,
// their ceiling, and names the pricing key that prices them.
func TestUnpricedSKUGroups(t *testing.T) {
	t.Parallel()
	spot := func(i int) *infra.Resource {
		addr := "azurerm_kubernetes_cluster_node_pool.spot" + string(rune('a'+i))
		return withCost(pool(addr, nil, side(skuA100, named("spot"+string(rune('a'+i))), nodes(0, 2, 10))),
			infra.Cost{Unpriced: []infra.Unpriced{{Address: addr, SKU: "Standard_NC24ads_A100_v4", Region: "eastus",
				Reason: infra.SpotUnpriced, Capacity: infra.CapacitySpot, Ceiling: 7.346}}})
	}
	var thirty []*infra.Resource
	for i := range 30 {
		thirty = append(thirty, spot(i%26))
	}
	cfg := mustConfig(t, "")
	fs := only(RuleUnpricedSKU, cfg.Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: thirty}}, nil).Findings)
	if len(fs) != 1 {
		t.Fatalf("%d findings for 30 spot pools of one SKU, want 1: %v", len(fs), lines(fs))
	}
	want := "the cost of 30 resources (`Standard_NC24ads_A100_v4` in eastus: node pool `spota`, node pool `spotb`, node pool `spotc` and 27 more) is not checked: " + infra.SpotUnpriced +
		"; spot, at most $220.38/h at the expected scale (the on-demand price as a ceiling, not the expected cost)"
	if fs[0].Message != want {
		t.Errorf("message:\n%s\nwant\n%s", fs[0].Message, want)
	}
	if want := "Give your observed spot rate under pricing.spot_prices.Standard_NC24ads_A100_v4 (or a discount with capacity: spot under pricing.discounts) in the base branch's config; until then the on-demand price is only its ceiling."; fs[0].Remedy != want {
		t.Errorf("remedy %q", fs[0].Remedy)
	}
	for reason, want := range map[string]string{
		"Standard_ZZ99_v9 is not in the catalog and no family rule knows it":                                 "Check the SKU name; if it is right, give its hourly price under pricing.prices.Standard_ZZ99_v9 in the base branch's config, or ask for it to be added to planwarden's catalog.",
		"no price for Standard_ZZ99_v9 in chinaeast (the catalog prices it in eastus)":                       "Give your hourly price under pricing.prices.Standard_ZZ99_v9 in the base branch's config (it applies in every region), or ask for the region to be added to planwarden's catalog.",
		"region unknown: neither the resource nor its provider names a region, and no default region is set": "Name the region on the resource or its provider block, or pass --default-region, so the SKU can be priced.",
	} {
		if got := unpricedRemedy(infra.Unpriced{SKU: "Standard_ZZ99_v9", Reason: reason}); got != want {
			t.Errorf("remedy for %q = %q, want %q", reason, got, want)
		}
	}
}
