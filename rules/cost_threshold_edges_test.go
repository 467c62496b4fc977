package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// Every cost threshold is "above": a figure exactly at a level does not
// reach it (the remedy says "warn above $10.00/h"), so a team that sets a
// level at today's cost is not warned for standing still at it.
func TestCostThresholdsAreStrictlyAbove(t *testing.T) {
	const quiet = "    hourly_delta: {warn: 1000}\n    max_hourly_delta: {warn: 1000}\n"
	small := func(name string, hourly float64) *infra.Resource {
		return withCost(vm("azurerm_linux_virtual_machine."+name, nil, side(skuA100, named(name))),
			infra.Cost{HourlyAfter: usd(hourly), MaxHourlyAfter: usd(hourly), MinHourlyAfter: usd(hourly)})
	}
	runRuleCases(t, RuleCostIncrease, map[string]ruleCase{
		"$10.00/h more at the expected scale: at the default warn level, not above": {
			res: []*infra.Resource{resized(8, 18)},
		},
		"$4.00/h more with block at 4: warns, does not block": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n    hourly_delta: {warn: 1, block: 4}\n    max_hourly_delta: {warn: 1000}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"warn cost-increase azurerm_linux_virtual_machine.app: VM `app` can cost $4.00/h more at the expected scale ($8.00/h -> $12.00/h)"},
		},
		"$122.50/h more at maximum scale with warn at 122.5: no finding": {
			cfg: "version: 1\nrules:\n  cost-increase:\n    max_hourly_delta: {warn: 122.5}\n",
			res: []*infra.Resource{a100Pool(40)},
		},
		"$122.50/h more at maximum scale with block at 122.5: warns": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n    max_hourly_delta: {warn: 20, block: 122.5}\n",
			res:  []*infra.Resource{a100Pool(40)},
			want: []string{"warn cost-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can cost $122.50/h more at maximum scale ($17.50/h -> $140.00/h; max 5 -> 40 x Standard_NC24ads_A100_v4 (1 x A100))"},
		},
		"two increases adding up to exactly the warn level: no total": {
			res: []*infra.Resource{small("a", 5), small("b", 5)},
		},
		"50% more with the percent warn at 50: no finding": {
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 50}\n",
			res: []*infra.Resource{resized(8, 12)},
		},
		"50% more with the percent block at 50: warns": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 20, block: 50}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"warn cost-increase : the changes of project `ml` raise its hourly cost by 50% ($8.00/h -> $12.00/h, $4.00/h more)"},
		},
		"$8,760.00 a month with the budget's warn at 8760: no finding": {
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    monthly_budget: {prod: {warn: 8760}}\n",
			res: []*infra.Resource{resized(8, 12)},
		},
		"$8,760.00 a month with the budget's block at 8760: warns": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n" + quiet + "    monthly_budget: {prod: {warn: 5000, block: 8760}}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"warn cost-increase : project `ml` would cost $8,760.00 per month in `prod` after this change ($2,920.00 more per month), over its budget (warn above $5,000.00/month, block above $8,760.00/month)"},
		},
	})
}
