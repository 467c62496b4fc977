package infra

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSum(t *testing.T) {
	t.Parallel()
	type sview struct {
		Before, After, Delta, MaxAfter, Overlap string
		Priced, UnpricedResources, Approximate  int
		Reasons                                 []string
	}
	p4d := func(addr string) rc {
		return rc{addr: addr, actions: []string{"create"}, after: map[string]any{"instance_type": "p4d.24xlarge"}}
	}
	pool := func(size string, n int) map[string]any {
		return map[string]any{"location": "eastus", "default_node_pool": []any{map[string]any{"name": "gpu", "vm_size": size, "node_count": n}}}
	}
	tests := map[string]struct {
		plan tplan
		want sview
	}{
		"an unpriced SKU never counts as zero; the total says what is left out": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{p4d("aws_instance.a"),
				{addr: "aws_instance.b", actions: []string{"create"}, after: map[string]any{"instance_type": "zz9.48xlarge"}}}},
			want: sview{Before: "0", After: "21.957642", Delta: "21.957642", MaxAfter: "21.957642", Overlap: "nil", Priced: 1, UnpricedResources: 1,
				Reasons: []string{"aws_instance.b zz9.48xlarge (after): zz9.48xlarge is not in the catalog and no family rule knows it"}},
		},
		"a SKU change to an unknown SKU is not a saving": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"update"},
				before: pool("Standard_NC24ads_A100_v4", 2), after: pool("Standard_NX96_v9", 2)}}},
			want: sview{Before: "nil", After: "nil", Delta: "nil", MaxAfter: "nil", Overlap: "nil", UnpricedResources: 1,
				Reasons: []string{"azurerm_kubernetes_cluster.main Standard_NX96_v9 (after): Standard_NX96_v9 is not in the catalog and no family rule knows it"}},
		},
		"an unchanged unpriced resource is one item, not one per side": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"no-op"},
				before: pool("Standard_NX96_v9", 1), after: pool("Standard_NX96_v9", 1)}}},
			want: sview{Before: "nil", After: "nil", Delta: "nil", MaxAfter: "nil", Overlap: "nil", UnpricedResources: 1,
				Reasons: []string{"azurerm_kubernetes_cluster.main Standard_NX96_v9 (both): Standard_NX96_v9 is not in the catalog and no family rule knows it"}},
		},
		"a SKU change between two unpriced SKUs is two items": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"update"},
				before: pool("Standard_NX96_v9", 1), after: pool("Standard_NX48_v9", 1)}}},
			want: sview{Before: "nil", After: "nil", Delta: "nil", MaxAfter: "nil", Overlap: "nil", UnpricedResources: 1,
				Reasons: []string{"azurerm_kubernetes_cluster.main Standard_NX96_v9 (before): Standard_NX96_v9 is not in the catalog and no family rule knows it",
					"azurerm_kubernetes_cluster.main Standard_NX48_v9 (after): Standard_NX48_v9 is not in the catalog and no family rule knows it"}},
		},
		"nothing priced: totals are nil, not zero": {
			plan: tplan{changes: []rc{{addr: "azurerm_linux_virtual_machine.a", actions: []string{"create"}, after: map[string]any{"size": "Standard_NC24ads_A100_v4"}}}},
			want: sview{Before: "nil", After: "nil", Delta: "nil", MaxAfter: "nil", Overlap: "nil", UnpricedResources: 1,
				Reasons: []string{"azurerm_linux_virtual_machine.a Standard_NC24ads_A100_v4 (after): region unknown: neither the resource nor its provider names a region, and no default region is set"}},
		},
		"EC2 type, region unknown: the us-east-1 list price, approximate": {
			plan: tplan{changes: []rc{{addr: "aws_instance.a", actions: []string{"create"}, after: map[string]any{"instance_type": "p4d.24xlarge"}}}},
			want: sview{Before: "0", After: "21.957642", Delta: "21.957642", MaxAfter: "21.957642", Overlap: "nil", Priced: 1, Approximate: 1},
		},
		"delete is a saving; create-before-destroy replace shows the overlap": {
			plan: tplan{changes: []rc{
				{addr: "azurerm_kubernetes_cluster.old", actions: []string{"delete"}, before: pool("Standard_NC6s_v3", 1)},
				{addr: "azurerm_kubernetes_cluster.main", actions: []string{"create", "delete"},
					before: pool("Standard_NC24ads_A100_v4", 1), after: pool("Standard_NC48ads_A100_v4", 1)}}},
			want: sview{Before: "6.733", After: "7.346", Delta: "0.613", MaxAfter: "7.346", Overlap: "11.019", Priced: 2},
		},
		"an endpoint configuration is counted once, through its endpoint": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.c", actions: []string{"create"},
					after: endpointConfig("cfg", []any{variant("main", "ml.g5.xlarge", 2)}, nil)},
				{addr: "aws_sagemaker_endpoint.e", actions: []string{"create"}, after: map[string]any{"name": "e", "endpoint_config_name": "cfg"}}}},
			want: sview{Before: "0", After: "2.8168", Delta: "2.8168", MaxAfter: "2.8168", Overlap: "nil", Priced: 1},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			pc := Sum(analyze(t, tc.plan, Options{}))
			got := sview{Before: fmtPtr(pc.HourlyBefore), After: fmtPtr(pc.HourlyAfter), Delta: fmtPtr(pc.HourlyDelta),
				MaxAfter: fmtPtr(pc.MaxHourlyAfter), Overlap: fmtPtr(pc.OverlapHourly), Priced: pc.Priced, UnpricedResources: pc.UnpricedResources, Approximate: pc.Approximate}
			for _, u := range pc.Unpriced {
				got.Reasons = append(got.Reasons, u.Address+" "+u.SKU+" ("+u.Side+"): "+u.Reason)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Sum (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMonthly(t *testing.T) {
	t.Parallel()
	if got := Monthly(f(3.823)); got == nil || *got != 2790.79 {
		t.Errorf("Monthly(3.823) = %s, want 2790.79", fmtPtr(got))
	}
	if got := Monthly(nil); got != nil {
		t.Errorf("Monthly(nil) = %s, want nil", fmtPtr(got))
	}
}

func TestAnalyzeReturnsSupportedChangesInPlanOrder(t *testing.T) {
	t.Parallel()
	tp := tplan{providers: awsProvider("us-east-1"), changes: []rc{
		{addr: "aws_s3_bucket.b", actions: []string{"create"}, after: map[string]any{"bucket": "x"}},
		p4dChange("aws_instance.a"),
		{addr: "aws_iam_role.r", actions: []string{"create"}, after: map[string]any{"name": "r"}},
		p4dChange("aws_instance.b"),
	}}
	rs := analyze(t, tp, Options{})
	var got []string
	for _, r := range rs {
		got = append(got, r.Address)
	}
	if diff := cmp.Diff([]string{"aws_instance.a", "aws_instance.b"}, got); diff != "" {
		t.Errorf("Analyze addresses (-want +got):\n%s", diff)
	}
}

func p4dChange(addr string) rc {
	return rc{addr: addr, actions: []string{"create"}, after: map[string]any{"instance_type": "p4d.24xlarge"}}
}
