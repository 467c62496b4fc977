package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

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
