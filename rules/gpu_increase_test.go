package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

func TestGPUIncrease(t *testing.T) {
	t.Parallel()
	skuP5 := infra.SKU{Cloud: "aws", Name: "p5.48xlarge", GPUCount: 8, GPUModel: "NVIDIA H100 80GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}
	p5 := func(n int) *infra.Resource {
		return vm("aws_eks_node_group.p5", nil, side(skuP5, named("p5"), nodes(n, n, n)))
	}
	runRuleCases(t, RuleGPUIncrease, map[string]ruleCase{
		"a new min-0 A100 pool adds its maximum at maximum scale": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.burst", nil, side(skuA100, named("burst"), nodes(0, 0, 10)))},
			want: []string{"warn gpu-increase azurerm_kubernetes_cluster_node_pool.burst: node pool `burst` can add 10 GPUs at maximum scale (0 -> 10 A100)"},
		},
		"its honest twin: a min-0 pool of 8 stays under the threshold": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.burst", nil, side(skuA100, named("burst"), nodes(0, 0, 8)))},
		},
		"two p5.48xlarge add 16 GPUs: a warning, not a pass": {
			res:  []*infra.Resource{p5(2)},
			want: []string{"warn gpu-increase aws_eks_node_group.p5: VM `p5` adds 16 GPUs at the expected scale (0 -> 16) and up to 16 at maximum scale (0 -> 16 H100)"},
		},
		"nine p5.48xlarge (72 GPUs) block in a protected environment": {
			res:  []*infra.Resource{p5(9)},
			want: []string{"block gpu-increase aws_eks_node_group.p5: VM `p5` adds 72 GPUs at the expected scale (0 -> 72) and up to 72 at maximum scale (0 -> 72 H100)"},
		},
		"and only warn elsewhere": {
			res: []*infra.Resource{p5(9)}, env: "staging",
			want: []string{"warn gpu-increase aws_eks_node_group.p5: VM `p5` adds 72 GPUs at the expected scale (0 -> 72) and up to 72 at maximum scale (0 -> 72 H100)"},
		},
		"thresholds from the config": {
			cfg: "version: 1\nrules:\n  gpu-increase: {warn: 100, block: 200}\n",
			res: []*infra.Resource{p5(9)},
		},
		"a scale-out of an existing pool counts from its old maximum": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.a100", side(skuA100, named("a100"), nodes(0, 2, 5)), side(skuA100, named("a100"), nodes(0, 2, 40)))},
			want: []string{"warn gpu-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can add 35 GPUs at maximum scale (5 -> 40 A100)"},
		},
		"GPUs going away are gpu-sku-loss's, not an increase": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gpu"), nodes(20, 20, 20)), side(skuD16, named("gpu"), nodes(20, 20, 20)))},
		},
		"many pools that each stay under add up": {
			res: []*infra.Resource{
				pool("azurerm_kubernetes_cluster_node_pool.a", nil, side(skuA100, named("a"), nodes(6, 6, 6))),
				pool("azurerm_kubernetes_cluster_node_pool.b", nil, side(skuA100, named("b"), nodes(6, 6, 6))),
			},
			want: []string{"warn gpu-increase : the changes of project `ml` together add 12 GPUs at the expected scale and 12 at maximum scale, over 2 resources"},
		},
		"an unknown SKU's GPUs are not guessed": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.x", nil, side(skuMystic, named("x"), nodes(50, 50, 50)))},
		},
	})
}

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
	want := "the cost of 30 resources (`Standard_NC24ads_A100_v4` in eastus) is not checked: " + infra.SpotUnpriced +
		"; at most $220.38/h at the expected scale, the on-demand price (node pool `spota`, node pool `spotb`, node pool `spotc` and 27 more)"
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

// The monthly budget of a cost center spans every project evaluated together.
func TestCostCenterBudget(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, "version: 1\ncost_allocation:\n  monthly_budget:\n    research: {warn: 5000, block: 100000}\n")
	a100 := func(addr, cc string, n int) *infra.Resource {
		return withCost(pool(addr, nil, side(skuA100, named("p"), nodes(n, n, n), tags("cost-center", cc))),
			infra.Cost{HourlyBefore: usd(0), HourlyAfter: usd(3.673 * float64(n)), MaxHourlyBefore: usd(0), MaxHourlyAfter: usd(3.673 * float64(n)), MinHourlyAfter: usd(3.673 * float64(n))})
	}
	tests := map[string]struct {
		projects []Project
		want     []string
	}{
		"two projects of one team together go over": {
			projects: []Project{
				{Name: "a", Environment: "staging", Resources: []*infra.Resource{a100("azurerm_kubernetes_cluster_node_pool.a", "research", 1)}},
				{Name: "b", Environment: "staging", Resources: []*infra.Resource{a100("azurerm_kubernetes_cluster_node_pool.b", "research", 1)}},
			},
			want: []string{"warn cost-increase : cost center `research` would cost $5,362.58 per month after this change ($5,362.58 more per month, across the projects of this pull request), over its budget (warn above $5,000.00/month, block above $100,000.00/month)"},
		},
		"its honest twin: another team's pool is not research's": {
			projects: []Project{
				{Name: "a", Environment: "staging", Resources: []*infra.Resource{a100("azurerm_kubernetes_cluster_node_pool.a", "research", 1)}},
				{Name: "b", Environment: "staging", Resources: []*infra.Resource{a100("azurerm_kubernetes_cluster_node_pool.b", "vision", 1)}},
			},
			want: []string{},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, f := range only(RuleCostIncrease, cfg.Evaluate(tc.projects, nil).Findings) {
				if f.Address == "" {
					got = append(got, lines([]Finding{f})...)
				}
			}
			if got == nil {
				got = []string{}
			}
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("findings %q, want %q", got, tc.want)
			}
		})
	}
}
