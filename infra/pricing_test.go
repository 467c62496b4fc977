package infra

import "testing"

func TestPricing(t *testing.T) {
	t.Parallel()
	vmAt := func(size string) tplan {
		return tplan{changes: []rc{{addr: "azurerm_linux_virtual_machine.t", actions: []string{"create"},
			after: map[string]any{"size": size, "location": "eastus"}}}}
	}
	ec2 := tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_instance.t", actions: []string{"create"},
		after: map[string]any{"instance_type": "p4d.24xlarge"}}}}
	ea := Pricing{
		Prices:    map[string]float64{"standard_nc24ads_a100_v4": 2.90},
		Discounts: []Discount{{SKU: "Standard_NC*", Fraction: 0.35}, {Cloud: CloudAzure, Fraction: 0.28}},
	}
	tests := map[string]struct {
		plan      tplan
		pricing   Pricing
		yours     string
		list      string
		note      string
		yourPrice bool
	}{
		"no pricing: list prices":                 {vmAt("Standard_NC24ads_A100_v4"), Pricing{}, "3.673", "3.673", "", false},
		"your price for the SKU wins":             {vmAt("Standard_NC24ads_A100_v4"), ea, "2.9", "3.673", "your price", true},
		"a SKU pattern before the cloud discount": {vmAt("Standard_NC48ads_A100_v4"), ea, "4.7749", "7.346", "35% discount", true},
		"the cloud's discount":                    {vmAt("Standard_D4s_v5"), ea, "0.13824", "0.192", "28% discount", true},
		"another cloud pays list":                 {ec2, ea, "21.957642", "21.957642", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := analyze(t, tc.plan, Options{Pricing: tc.pricing})[0]
			g := r.After.Groups[0]
			if got := fmtPtr(g.Hourly); got != tc.yours || fmtPtr(g.ListHourly) != tc.list || g.PriceNote != tc.note ||
				r.Cost.YourPrice != tc.yourPrice || fmtPtr(r.Cost.HourlyAfter) != tc.yours || fmtPtr(r.Cost.ListHourlyAfter) != tc.list {
				t.Errorf("hourly %s (list %s, %q), cost %s (list %s, your price %v); want %s (list %s, %q, %v)",
					got, fmtPtr(g.ListHourly), g.PriceNote, fmtPtr(r.Cost.HourlyAfter), fmtPtr(r.Cost.ListHourlyAfter), r.Cost.YourPrice,
					tc.yours, tc.list, tc.note, tc.yourPrice)
			}
		})
	}
}
