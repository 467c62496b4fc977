package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// Resources evaluated without their plan changes (a caller that has only
// infra's view) take their action from their sides: no before is a
// create, no after a delete, both an update. Custom rules see it as
// {action}; built-in rules judge by it.
func TestActionOfAResourceWithoutItsChange(t *testing.T) {
	res := []*infra.Resource{
		vm("azurerm_linux_virtual_machine.new", nil, side(skuD4)),
		vm("azurerm_linux_virtual_machine.gone", side(skuD4), nil),
		vm("azurerm_linux_virtual_machine.kept", side(skuD4), side(skuD16)),
	}
	cfg := mustConfig(t, "version: 1\ncustom_rules:\n  - id: every-action\n    when: 'true'\n    severity: info\n    message: \"{name} by {action}\"\n")
	got := lines(only("every-action", cfg.Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: res}}, nil).Findings))
	want := []string{
		"info every-action azurerm_linux_virtual_machine.gone: gone by delete",
		"info every-action azurerm_linux_virtual_machine.kept: kept by update",
		"info every-action azurerm_linux_virtual_machine.new: new by create",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("custom rule findings (-want +got):\n%s", diff)
	}

	runRuleCases(t, RuleGPUCapacityGap, map[string]ruleCase{
		"a GPU pool deleted while another is created, without changes": {
			res: []*infra.Resource{
				pool("azurerm_kubernetes_cluster_node_pool.old", side(skuNC6, named("old")), nil),
				pool("azurerm_kubernetes_cluster_node_pool.new", nil, side(skuA100, named("new"))),
			},
			want: []string{"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.old: node pool `old` is deleted while node pool `new` is created in the same plan, " +
				"and Terraform does not order the two: its 1 V100 GPU (1 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready, " +
				"and the plan leaves no other GPUs running meanwhile"},
		},
	})
}

// A pool created scaled to zero, but able to grow, is the capacity a
// deleted GPU pool's workloads wait for; a CPU pool is not.
func TestCapacityGapCountsPoolsCreatedAtZero(t *testing.T) {
	old := pool("azurerm_kubernetes_cluster_node_pool.old", side(skuNC6, named("old")), nil)
	runRuleCases(t, RuleGPUCapacityGap, map[string]ruleCase{
		"a GPU pool created at 0 of up to 4 nodes": {
			res: []*infra.Resource{old, pool("azurerm_kubernetes_cluster_node_pool.new", nil, side(skuA100, named("new"), nodes(0, 0, 4)))},
			want: []string{"block gpu-capacity-gap azurerm_kubernetes_cluster_node_pool.old: node pool `old` is deleted while node pool `new` is created in the same plan, " +
				"and Terraform does not order the two: its 1 V100 GPU (1 x Standard_NC6s_v3) go away from the delete until the new capacity's nodes are ready, " +
				"and the plan leaves no other GPUs running meanwhile"},
		},
		"a CPU pool created: a plain removal": {
			res: []*infra.Resource{old, pool("azurerm_kubernetes_cluster_node_pool.cpu", nil, side(skuD16, named("cpu")))},
		},
	})
}

// Findings of one rule on one address come in the order of their
// messages, whatever order the rule found them in.
func TestFindingsOfOneRuleOnOneAddressSortByMessage(t *testing.T) {
	r := withCost(vm("azurerm_linux_virtual_machine.x", nil, side(skuMystic)), infra.Cost{Unpriced: []infra.Unpriced{
		{SKU: "Standard_ZZ99_v9", Region: "eastus", Reason: "not in the catalog"},
		{SKU: "Standard_AA1_v9", Region: "eastus", Reason: "not in the catalog"},
	}})
	runRuleCases(t, RuleUnpricedSKU, map[string]ruleCase{
		"two unpriced SKUs": {res: []*infra.Resource{r}, want: []string{
			"warn unpriced-sku azurerm_linux_virtual_machine.x: the cost of VM `x` (`Standard_AA1_v9` in eastus) is not checked: not in the catalog",
			"warn unpriced-sku azurerm_linux_virtual_machine.x: the cost of VM `x` (`Standard_ZZ99_v9` in eastus) is not checked: not in the catalog",
		}},
	})
}

// A CPU pool deleted while a GPU pool is created loses no GPUs: no gap;
// nor does a CPU pool replaced delete-first by a GPU one.
func TestCapacityGapIgnoresCPUPoolDeletions(t *testing.T) {
	runRuleCases(t, RuleGPUCapacityGap, map[string]ruleCase{
		"a CPU pool replaced delete-first by a GPU pool": {
			res: []*infra.Resource{replaced(pool("azurerm_kubernetes_cluster_node_pool.p", side(skuD16, named("p")), side(skuA100, named("p"))), planparse.DeleteThenCreate)},
		},
		"a CPU pool deleted, a GPU pool created": {
			res: []*infra.Resource{
				pool("azurerm_kubernetes_cluster_node_pool.old", side(skuD16, named("old")), nil),
				pool("azurerm_kubernetes_cluster_node_pool.new", nil, side(skuA100, named("new"))),
			},
		},
	})
}

// Warnings come before notes on the same address: the comment lists what
// needs a decision first.
func TestWarningsBeforeNotes(t *testing.T) {
	cfg := mustConfig(t, "version: 1\ncustom_rules:\n"+
		"  - id: a-note\n    when: 'true'\n    severity: info\n    message: \"{name} noted\"\n"+
		"  - id: b-warning\n    when: 'true'\n    severity: warn\n    message: \"{name} warned\"\n")
	res := []*infra.Resource{vm("azurerm_linux_virtual_machine.x", nil, side(skuD4, named("x")))}
	got := lines(cfg.Evaluate([]Project{{Name: "ml", Environment: "prod", Resources: res}}, nil).Findings)
	want := []string{"warn b-warning azurerm_linux_virtual_machine.x: x warned", "info a-note azurerm_linux_virtual_machine.x: x noted"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
