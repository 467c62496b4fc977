package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

// a100Pool is an autoscaled A100 pool whose maximum goes from 5 to max
// nodes at $3.50/h a node, with 1 node expected.
func a100Pool(max int) *infra.Resource {
	return withCost(pool("azurerm_kubernetes_cluster_node_pool.a100",
		side(skuA100, named("a100"), nodes(1, 1, 5)), side(skuA100, named("a100"), nodes(1, 1, max))),
		infra.Cost{HourlyBefore: usd(3.5), HourlyAfter: usd(3.5), MaxHourlyBefore: usd(17.5), MaxHourlyAfter: usd(3.5 * float64(max))})
}

func TestCostIncrease(t *testing.T) {
	t.Parallel()
	runRuleCases(t, RuleCostIncrease, map[string]ruleCase{
		"35 more A100 nodes at max trips the defaults": {
			res:  []*infra.Resource{a100Pool(40)},
			want: []string{"warn cost-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can cost $122.50/h more at maximum scale ($17.50/h -> $140.00/h; max 5 -> 40 x Standard_NC24ads_A100_v4 (1 x A100))"},
		},
		"block threshold on the max-scale delta": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n    max_hourly_delta: {warn: 20, block: 100}\n",
			res:  []*infra.Resource{a100Pool(40)},
			want: []string{"block cost-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can cost $122.50/h more at maximum scale ($17.50/h -> $140.00/h; max 5 -> 40 x Standard_NC24ads_A100_v4 (1 x A100))"},
		},
		"new VM over the hourly warn threshold": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.big", nil, side(skuA100, named("big"))),
				infra.Cost{HourlyAfter: usd(32.77), MaxHourlyAfter: usd(32.77)})},
			want: []string{"warn cost-increase azurerm_linux_virtual_machine.big: VM `big` can cost $32.77/h more at the expected scale ($0.00/h -> $32.77/h)"},
		},
		"a new pool says how many nodes it may grow to": {
			res: []*infra.Resource{withCost(pool("azurerm_kubernetes_cluster_node_pool.new", nil, side(skuA100, named("new"), nodes(1, 1, 40))),
				infra.Cost{HourlyAfter: usd(3.5), MaxHourlyAfter: usd(140)})},
			want: []string{"warn cost-increase azurerm_kubernetes_cluster_node_pool.new: node pool `new` can cost $140.00/h more at maximum scale ($0.00/h -> $140.00/h; up to 40 x Standard_NC24ads_A100_v4 (1 x A100))"},
		},
		"a name with a backtick is no name: a summary stands for it": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.big", nil, side(skuA100, named("big`vm"))),
				infra.Cost{HourlyAfter: usd(32.77), MaxHourlyAfter: usd(32.77)})},
			want: []string{"warn cost-increase azurerm_linux_virtual_machine.big: VM `(text, 1 line)` can cost $32.77/h more at the expected scale ($0.00/h -> $32.77/h)"},
		},
		"both deltas over, the worse severity wins": {
			cfg: "version: 1\nrules:\n  cost-increase:\n    hourly_delta: {warn: 1, block: 1000}\n    max_hourly_delta: {warn: 1, block: 5}\n",
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.big", nil, side(skuA100, named("big"))),
				infra.Cost{HourlyAfter: usd(14.69), MaxHourlyAfter: usd(14.69)})},
			want: []string{"block cost-increase azurerm_linux_virtual_machine.big: VM `big` can cost $14.69/h more at the expected scale ($0.00/h -> $14.69/h), and $14.69/h more at maximum scale ($0.00/h -> $14.69/h)"},
		},
		"severity capped to warn by config": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n    severity: warn\n    max_hourly_delta: {block: 100}\n",
			res:  []*infra.Resource{a100Pool(40)},
			want: []string{"warn cost-increase azurerm_kubernetes_cluster_node_pool.a100: node pool `a100` can cost $122.50/h more at maximum scale ($17.50/h -> $140.00/h; max 5 -> 40 x Standard_NC24ads_A100_v4 (1 x A100))"},
		},
		"many small increases add up": {
			res: []*infra.Resource{
				withCost(vm("azurerm_linux_virtual_machine.a", nil, side(skuA100, named("a"))), infra.Cost{HourlyAfter: usd(15), MaxHourlyAfter: usd(15)}),
				withCost(vm("azurerm_linux_virtual_machine.b", nil, side(skuA100, named("b"))), infra.Cost{HourlyAfter: usd(15), MaxHourlyAfter: usd(15)}),
			},
			want: []string{"warn cost-increase : the changes of project `ml` together can cost $30.00/h more at the expected scale, over 2 resources"},
		},
		"a total no worse than its parts is not repeated": {
			res: []*infra.Resource{
				withCost(vm("azurerm_linux_virtual_machine.a", nil, side(skuA100, named("a"))), infra.Cost{HourlyAfter: usd(30), MaxHourlyAfter: usd(30)}),
				withCost(vm("azurerm_linux_virtual_machine.b", nil, side(skuA100, named("b"))), infra.Cost{HourlyAfter: usd(6), MaxHourlyAfter: usd(6)}),
			},
			want: []string{"warn cost-increase azurerm_linux_virtual_machine.a: VM `a` can cost $30.00/h more at the expected scale ($0.00/h -> $30.00/h)"},
		},
		"endpoint configuration billed through its endpoint": {
			res: []*infra.Resource{withCost(&infra.Resource{Address: "aws_sagemaker_endpoint_configuration.llm", Type: "aws_sagemaker_endpoint_configuration",
				Kind: infra.KindEndpointConfig, After: side(skuG5)}, infra.Cost{HourlyAfter: usd(40), MaxHourlyAfter: usd(40), BilledVia: "aws_sagemaker_endpoint"})},
		},
		"small scale-out stays under the defaults": {
			res: []*infra.Resource{a100Pool(10)},
		},
		"cost goes down": {
			res: []*infra.Resource{withCost(pool("azurerm_kubernetes_cluster_node_pool.a100", side(skuA100, nodes(1, 1, 40)), side(skuA100, nodes(1, 1, 5))),
				infra.Cost{HourlyBefore: usd(3.5), HourlyAfter: usd(3.5), MaxHourlyBefore: usd(140), MaxHourlyAfter: usd(17.5)})},
		},
		"unknown after-cost is left to unpriced-sku": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.x", nil, side(skuMystic)),
				infra.Cost{Unpriced: []infra.Unpriced{{SKU: "Standard_ZZ99_v9", Region: "eastus", Reason: "not in the catalog"}}})},
		},
		"unknown before-cost on an update is not judged": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.x", side(skuMystic), side(skuA100)),
				infra.Cost{HourlyAfter: usd(50), MaxHourlyAfter: usd(50)})},
		},
		"deleted resource": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.x", side(skuA100), nil), infra.Cost{HourlyBefore: usd(3.5)})},
		},
	})
}

func TestUnpricedSKU(t *testing.T) {
	t.Parallel()
	unpriced := func(r *infra.Resource, u ...infra.Unpriced) *infra.Resource { r.Cost.Unpriced = u; return r }
	runRuleCases(t, RuleUnpricedSKU, map[string]ruleCase{
		"SKU not in the catalog": {
			res: []*infra.Resource{unpriced(vm("azurerm_linux_virtual_machine.x", nil, side(skuMystic, named("x"))),
				infra.Unpriced{SKU: "Standard_ZZ99_v9", Region: "eastus", Reason: "not in the catalog"})},
			want: []string{"warn unpriced-sku azurerm_linux_virtual_machine.x: the cost of VM `x` (`Standard_ZZ99_v9` in eastus) is not checked: not in the catalog"},
		},
		"the same SKU twice is reported once": {
			res: []*infra.Resource{unpriced(vm("azurerm_linux_virtual_machine.x", nil, side(skuMystic, named("x"))),
				infra.Unpriced{SKU: "Standard_ZZ99_v9", Region: "eastus"}, infra.Unpriced{SKU: "Standard_ZZ99_v9", Region: "eastus"})},
			want: []string{"warn unpriced-sku azurerm_linux_virtual_machine.x: the cost of VM `x` (`Standard_ZZ99_v9` in eastus) is not checked: its SKU is not in planwarden's price catalog"},
		},
		"turned off in dev": {
			env: "dev",
			cfg: "version: 1\nenvironments:\n  dev: {}\nrules:\n  unpriced-sku:\n    environments: {dev: off}\n",
			res: []*infra.Resource{unpriced(vm("azurerm_linux_virtual_machine.x", nil, side(skuMystic)), infra.Unpriced{SKU: "Standard_ZZ99_v9"})},
		},
		"priced resource": {
			res: []*infra.Resource{withCost(vm("azurerm_linux_virtual_machine.x", nil, side(skuA100)), infra.Cost{HourlyAfter: usd(3.5)})},
		},
		"deleted unpriced resource": {
			res: []*infra.Resource{unpriced(vm("azurerm_linux_virtual_machine.x", side(skuMystic), nil), infra.Unpriced{SKU: "Standard_ZZ99_v9"})},
		},
	})
}

func TestAllowedSKUs(t *testing.T) {
	t.Parallel()
	const cfg = "version: 1\nenvironments:\n  prod:\n    protected: true\n    allowed_skus: [Standard_NC24ads_A100_v4, Standard_D*]\n"
	runRuleCases(t, RuleAllowedSKUs, map[string]ruleCase{
		"SKU outside the allow-list": {
			cfg:  cfg,
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(skuNC6, named("x")))},
			want: []string{"block allowed-skus azurerm_linux_virtual_machine.x: VM `x` gets Standard_NC6s_v3, which is not allowed in prod (allowed: Standard_NC24ads_A100_v4, Standard_D*)"},
		},
		"global list applies to environments without their own": {
			env:  "staging",
			cfg:  cfg + "rules:\n  allowed-skus:\n    skus: [Standard_D4s_v5]\n",
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.x", side(skuD4), side(skuD16, named("x")))},
			want: []string{"block allowed-skus azurerm_linux_virtual_machine.x: VM `x` gets Standard_D16s_v5, which is not allowed in staging (allowed: Standard_D4s_v5)"},
		},
		"listed SKU, any case": {
			cfg: cfg,
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(infra.SKU{Name: "standard_nc24ads_a100_v4", Known: true}))},
		},
		"pattern match": {
			cfg: cfg,
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(skuD16))},
		},
		"unchanged SKU outside the list is not new": {
			cfg: cfg,
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.x", side(skuNC6), side(skuNC6, tags("a", "b")))},
		},
		"no allow-list configured": {
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(skuNC6))},
		},
		"other environment has no list": {
			env: "staging",
			cfg: cfg,
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(skuNC6))},
		},
	})
}

// resized is a VM whose hourly cost goes from before to after, fully priced.
func resized(before, after float64) *infra.Resource {
	return withCost(vm("azurerm_linux_virtual_machine.app", side(skuD4, named("app")), side(skuD16, named("app"))),
		infra.Cost{HourlyBefore: usd(before), HourlyAfter: usd(after), MaxHourlyBefore: usd(before), MaxHourlyAfter: usd(after), MinHourlyAfter: usd(after)})
}

func TestCostIncreaseProjectLimits(t *testing.T) {
	t.Parallel()
	const quiet = "    hourly_delta: {warn: 1000}\n    max_hourly_delta: {warn: 1000}\n"
	runRuleCases(t, RuleCostIncrease, map[string]ruleCase{
		"the change adds 50% of the project's hourly cost": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 20, block: 100}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"warn cost-increase : the changes of project `ml` raise its hourly cost by 50% ($8.00/h -> $12.00/h, $4.00/h more)"},
		},
		"over the block percent": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 20, block: 40}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"block cost-increase : the changes of project `ml` raise its hourly cost by 50% ($8.00/h -> $12.00/h, $4.00/h more)"},
		},
		"under the percent": {
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 60}\n",
			res: []*infra.Resource{resized(8, 12)},
		},
		"over the environment's monthly budget": {
			cfg:  "version: 1\nrules:\n  cost-increase:\n" + quiet + "    monthly_budget: {prod: {warn: 5000, block: 20000}}\n",
			res:  []*infra.Resource{resized(8, 12)},
			want: []string{"warn cost-increase : project `ml` would cost $8,760.00 per month in `prod` after this change ($2,920.00 more per month), over its budget (warn above $5,000.00/month, block above $20,000.00/month)"},
		},
		"another environment's budget does not apply": {
			env: "staging",
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    monthly_budget: {prod: {warn: 5000}}\n",
			res: []*infra.Resource{resized(8, 12)},
		},
		"a change that lowers the cost is not judged against the budget": {
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    monthly_budget: {prod: {warn: 5000}}\n    percent: {warn: 1}\n",
			res: []*infra.Resource{resized(12, 8)},
		},
		"no percent from a project that cost nothing before": {
			cfg: "version: 1\nrules:\n  cost-increase:\n" + quiet + "    percent: {warn: 1}\n",
			res: []*infra.Resource{resized(0, 8)},
		},
	})
}

// The project limits judge the sum the caller gives (review.Build makes it
// once for the report and the rules), and make it themselves without one.
func TestCostIncreaseProjectLimitsUseTheGivenSum(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, "version: 1\nrules:\n  cost-increase:\n    hourly_delta: {warn: 1000}\n    max_hourly_delta: {warn: 1000}\n    percent: {warn: 20}\n")
	res := []*infra.Resource{resized(8, 12)}
	given := infra.Sum(res)
	given.HourlyAfter = usd(16)
	for name, tc := range map[string]struct {
		sum  *infra.PlanCost
		want string
	}{
		"given":     {&given, "warn cost-increase : the changes of project `ml` raise its hourly cost by 100% ($8.00/h -> $16.00/h, $8.00/h more)"},
		"not given": {nil, "warn cost-increase : the changes of project `ml` raise its hourly cost by 50% ($8.00/h -> $12.00/h, $4.00/h more)"},
	} {
		got := lines(only(RuleCostIncrease, cfg.Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: res, Sum: tc.sum}}, nil).Findings))
		if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
			t.Errorf("%s sum (-want +got):\n%s", name, diff)
		}
	}
}
