package infra

import "testing"

// Spot, preemptible and low-priority capacity: priced at your spot price
// when the pricing gives one, else unpriced with the on-demand price as
// its ceiling, never as the expected price.
func TestSpotPrices(t *testing.T) {
	t.Parallel()
	pool := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "priority": "Spot", "node_count": 4,
		"kubernetes_cluster_id": clusterID, "os_disk_type": "Ephemeral"}
	cluster := map[string]any{"id": clusterID, "name": "ml-prod", "location": "eastus"}
	plan := tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster_node_pool.a100", actions: []string{"create"}, after: pool}},
		prior: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}
	tests := map[string]struct {
		plan    tplan
		pricing Pricing
		// figures; the unpriced reason and ceiling (at 4 nodes); the note;
		// the side's bound at min, expected and max scale (Side.SpotCeiling)
		want, ceiling, note, bound string
	}{
		"no spot price: unpriced, ceiling 4 x on-demand": {
			plan: plan, want: "0 -> nil (max nil); unpriced after: " + SpotUnpriced, ceiling: "14.692", bound: "14.692 14.692 14.692",
		},
		"your observed spot rate": {
			plan: plan, pricing: Pricing{SpotPrices: map[string]float64{"standard_nc24ads_a100_v4": 1.1}},
			want: "0 -> 4.4 (max 4.4); priced in eastus", note: "your spot price", bound: "none",
		},
		"a spot discount off on-demand": {
			plan: plan, pricing: Pricing{Discounts: []Discount{{SKU: "Standard_NC*", Fraction: 0.75, Spot: true}}},
			want: "0 -> 3.673 (max 3.673); priced in eastus", note: "75% spot discount off on-demand",
		},
		"an on-demand discount lowers the ceiling, never prices spot": {
			plan: plan, pricing: Pricing{Discounts: []Discount{{Cloud: CloudAzure, Fraction: 0.5}}},
			want: "0 -> nil (max nil); unpriced after: " + SpotUnpriced, ceiling: "7.346",
		},
		"an on-demand price of your own does not price spot": {
			plan: plan, pricing: Pricing{Prices: map[string]float64{"Standard_NC24ads_A100_v4": 2}},
			want: "0 -> nil (max nil); unpriced after: " + SpotUnpriced, ceiling: "8",
		},
		"a spot discount leaves on-demand capacity at list": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster_node_pool.a100", actions: []string{"create"},
				after: map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 4, "kubernetes_cluster_id": clusterID, "os_disk_type": "Ephemeral"}}},
				prior: plan.prior},
			pricing: Pricing{Discounts: []Discount{{SKU: "Standard_NC*", Fraction: 0.75, Spot: true}}},
			want:    "0 -> 14.692 (max 14.692); priced in eastus",
		},
		"GCE spot VM with its own rate": {
			plan: tplan{changes: []rc{{addr: "google_compute_instance.t", actions: []string{"create"}, after: map[string]any{"machine_type": "a2-highgpu-1g",
				"zone": "us-central1-a", "scheduling": []any{map[string]any{"provisioning_model": "SPOT"}}}}}},
			pricing: Pricing{SpotPrices: map[string]float64{"a2-highgpu-1g": 1.2}},
			want:    "0 -> 1.2 (max 1.2); priced in us-central1", note: "your spot price",
		},
		"EKS spot node group": {
			plan: tplan{changes: []rc{{addr: "aws_eks_node_group.g", actions: []string{"create"}, after: map[string]any{"instance_types": []any{"p4d.24xlarge"},
				"capacity_type": "SPOT", "scaling_config": []any{map[string]any{"min_size": 0, "desired_size": 2, "max_size": 8}}, "availability_zones": nil,
				"arn": "arn:aws:eks:us-east-1:1:nodegroup/x"}}}},
			want: "0 -> nil (max nil); unpriced after: " + SpotUnpriced, ceiling: "43.915284", bound: "0 43.920764 175.683056",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tc.plan, Options{Pricing: tc.pricing})
			r := rs[0]
			checkInvariants(t, r)
			if got := costView(r); got != tc.want {
				t.Errorf("cost = %s\nwant   %s", got, tc.want)
			}
			ceiling := ""
			for _, u := range r.Cost.Unpriced {
				if u.Capacity != CapacitySpot {
					t.Errorf("unpriced capacity %q, want spot", u.Capacity)
				}
				ceiling = fmtPtr(&u.Ceiling)
			}
			if ceiling != tc.ceiling {
				t.Errorf("ceiling %s, want %s", ceiling, tc.ceiling)
			}
			if tc.bound != "" {
				got := "none"
				if lo, exp, hi, ok := r.After.SpotCeiling(); ok {
					got = fmtPtr(&lo) + " " + fmtPtr(&exp) + " " + fmtPtr(&hi)
				}
				if got != tc.bound {
					t.Errorf("spot ceiling %s, want %s", got, tc.bound)
				}
			}
			if g := r.After.Groups[0]; g.PriceNote != tc.note {
				t.Errorf("note %q, want %q", g.PriceNote, tc.note)
			}
		})
	}
}
