package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// Spot capacity with no spot price beside priced capacity: the headline
// gives the priced change, then the bound with the spot VM at its
// on-demand ceiling, labelled; the spot VM's own row reads "spot, at
// most".
func TestSpotBesidePricedCapacity(t *testing.T) {
	t.Parallel()
	const plan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[
{"address":"azurerm_linux_virtual_machine.ondemand","mode":"managed","type":"azurerm_linux_virtual_machine","name":"ondemand",
 "provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["create"],"before":null,
 "after":{"name":"a","size":"Standard_NC24ads_A100_v4","location":"eastus"}}},
{"address":"azurerm_linux_virtual_machine.spot","mode":"managed","type":"azurerm_linux_virtual_machine","name":"spot",
 "provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["create"],"before":null,
 "after":{"name":"b","size":"Standard_NC24ads_A100_v4","location":"eastus","priority":"Spot"}}}]}`
	p, err := planparse.Parse("spot.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	md := Render(review.Build([]review.Input{{Name: "train", Environment: "prod", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{
		`**Cost:** +\$3.67 per hour (+\$2,681.29 per month); with the spot capacity, at most +\$7.35 per hour (the on-demand price as a ceiling, not the expected cost; 1 resource has no spot price)`,
		"| `azurerm_linux_virtual_machine.spot` | — → `Standard_NC24ads_A100_v4` | — → NVIDIA A100 80GB PCIe × 1 | — → 1 / 1 / 1 | 0 → 1 | — → spot, at most \\$3.67 (the on-demand ceiling) |",
		"| create | `azurerm_linux_virtual_machine.spot` | `azurerm_linux_virtual_machine` | SKU `Standard_NC24ads_A100_v4`; spot capacity |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("want %q in:\n%s", want, md)
		}
	}
}

// A spot fleet with no spot price that grows: its cost before is unknown
// too, so there is no bound on the change, only on the cost after it.
func TestSpotFleetGrowsWithNoSpotPrice(t *testing.T) {
	t.Parallel()
	const plan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[
{"address":"azurerm_linux_virtual_machine_scale_set.spot","mode":"managed","type":"azurerm_linux_virtual_machine_scale_set","name":"spot",
 "provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["update"],
 "before":{"name":"s","sku":"Standard_NC24ads_A100_v4","instances":2,"location":"eastus","priority":"Spot"},
 "after":{"name":"s","sku":"Standard_NC24ads_A100_v4","instances":4,"location":"eastus","priority":"Spot"}}}]}`
	p, err := planparse.Parse("spot.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "train", Environment: "prod", Plan: p}}, review.Options{})
	md := Render(r, Options{})
	for _, want := range []string{
		`**Cost:** spot, at most \$14.69 per hour after it (the on-demand price as a ceiling, not the expected cost; 1 resource has no spot price)`,
		"| spot, at most \\$7.35 (the on-demand ceiling) → spot, at most \\$14.69 (the on-demand ceiling) |",
		`| Hourly at most, spot at the on-demand price | unknown | at most \$14.69 | unknown |`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("want %q in:\n%s", want, md)
		}
	}
	if title := CheckOutput(r, Options{}).Title; strings.Contains(title, "cost") {
		t.Errorf("title %q bounds a change whose before is unknown", title)
	}
}
