package infra

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sview is what a reviewer sees of one side.
type sview struct {
	SKU, Region   string
	Source        RegionSource
	Scale         Scale
	GPUs, MaxGPUs float64
	GPUModel      string
	Name          string
	Tags, Labels  map[string]string
	Taints        []string
	ImageType     string
	// Approx is the region whose list price stands in, when the price is approximate.
	Approx string
}

// rview is what a reviewer sees of one change.
type rview struct {
	Kind                  Kind
	Before, After         *sview
	Hourly                string // "before -> after (max after)"
	Overlap               string
	Unpriced              []string // side: reason
	BilledVia             string
	GroupsBefore, GroupsA int
}

func sideView(s *Side) *sview {
	if s == nil {
		return nil
	}
	v := &sview{SKU: s.SKU, Region: s.Region, Source: s.RegionSource, GPUs: s.GPUs(false), MaxGPUs: s.GPUs(true),
		Name: s.Name, Tags: s.Tags(), Labels: s.Labels(), Taints: s.Taints, ImageType: s.ImageType}
	if len(s.Groups) > 0 {
		v.Scale = s.Groups[0].Scale
		v.GPUModel = s.Groups[0].SKU.GPUModel
		if g := s.Groups[0]; g.PriceBasis == BasisApproximate {
			v.Approx = g.PriceRegion
		}
	}
	return v
}

func view(r *Resource) rview {
	v := rview{Kind: r.Kind, Before: sideView(r.Before), After: sideView(r.After), BilledVia: r.Cost.BilledVia,
		Hourly:  fmtPtr(r.Cost.HourlyBefore) + " -> " + fmtPtr(r.Cost.HourlyAfter) + " (max " + fmtPtr(r.Cost.MaxHourlyAfter) + ")",
		Overlap: fmtPtr(r.Cost.OverlapHourly)}
	if r.Before != nil {
		v.GroupsBefore = len(r.Before.Groups)
	}
	if r.After != nil {
		v.GroupsA = len(r.After.Groups)
	}
	for _, u := range r.Cost.Unpriced {
		v.Unpriced = append(v.Unpriced, u.Side+": "+u.Reason)
	}
	sort.Strings(v.Unpriced)
	return v
}

type adapterCase struct {
	plan tplan
	opt  Options
	// addr picks the resource to check (default: the first).
	addr string
	want rview
}

func runAdapterCases(t *testing.T, cases map[string]adapterCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tc.plan, tc.opt)
			if len(rs) == 0 {
				t.Fatal("Analyze returned no resources")
			}
			r := rs[0]
			if tc.addr != "" {
				r = nil
				for _, x := range rs {
					if x.Address == tc.addr {
						r = x
					}
				}
				if r == nil {
					t.Fatalf("no resource %s", tc.addr)
				}
			}
			if diff := cmp.Diff(tc.want, view(r)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", r.Address, diff)
			}
			for _, x := range rs {
				checkInvariants(t, x)
			}
		})
	}
}

func fixed(n int) Scale { return Scale{Min: n, Expected: n, Max: n} }

func auto(lo, exp, hi int) Scale { return Scale{Min: lo, Expected: exp, Max: hi, Autoscaled: true} }

const clusterID = "/subscriptions/0000/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/ml-prod"

func TestAKSCluster(t *testing.T) {
	t.Parallel()
	runAdapterCases(t, map[string]adapterCase{
		"create with a fixed default pool; pool tags over cluster tags": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"create"},
				after: map[string]any{"location": "West Europe", "tags": map[string]any{"cost-center": "ml", "team": "a"},
					"default_node_pool": []any{map[string]any{"name": "system", "vm_size": "Standard_D4s_v5", "node_count": 3,
						"tags": map[string]any{"team": "b"}}}}}}},
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 0.69 (max 0.69)", Overlap: "nil",
				After: &sview{SKU: "Standard_D4s_v5", Region: "westeurope", Source: RegionFromResource, Scale: fixed(3),
					Name: "system", Tags: map[string]string{"cost-center": "ml", "team": "b"}}},
		},
		"autoscaled default pool whose node_count is known after apply starts at min_count": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"create"},
				after: map[string]any{"location": "eastus", "default_node_pool": []any{map[string]any{"name": "system",
					"vm_size": "Standard_D4s_v5", "auto_scaling_enabled": true, "min_count": 1, "max_count": 5,
					"only_critical_addons_enabled": true}}},
				unknown: map[string]any{"default_node_pool": []any{map[string]any{"node_count": true}}}}}},
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 0.192 (max 0.96)", Overlap: "nil",
				After: &sview{SKU: "Standard_D4s_v5", Region: "eastus", Source: RegionFromResource, Scale: auto(1, 1, 5),
					Name: "system", Taints: []string{"CriticalAddonsOnly=true:NoSchedule"}}},
		},
		"delete shows the saving": {
			plan: tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"delete"},
				before: map[string]any{"location": "eastus", "default_node_pool": []any{map[string]any{"name": "gpu",
					"vm_size": "Standard_NC24ads_A100_v4", "node_count": 2}}}}}},
			want: rview{Kind: KindNodePool, GroupsBefore: 1, Hourly: "7.346 -> 0 (max 0)", Overlap: "nil",
				Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromResource, Scale: fixed(2),
					GPUs: 2, MaxGPUs: 2, GPUModel: "NVIDIA A100 80GB PCIe", Name: "gpu"}},
		},
	})
}

// poolPlan is an AKS node pool change (update 1 -> 3 nodes of NC24ads_A100_v4) plus extras.
func poolPlan(poolExtra map[string]any, tp tplan) tplan {
	b := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 1, "kubernetes_cluster_id": clusterID}
	a := map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 3, "kubernetes_cluster_id": clusterID,
		"node_labels": map[string]any{"hardware": "gpu"}, "node_taints": []any{"nvidia.com/gpu=present:NoSchedule"}}
	for k, v := range poolExtra {
		if v == nil {
			delete(a, k)
			delete(b, k)
			continue
		}
		a[k], b[k] = v, v
	}
	tp.changes = append(tp.changes, rc{addr: "azurerm_kubernetes_cluster_node_pool.a100", actions: []string{"update"}, before: b, after: a})
	return tp
}

func TestAKSNodePool(t *testing.T) {
	t.Parallel()
	const pool = "azurerm_kubernetes_cluster_node_pool.a100"
	cluster := map[string]any{"id": clusterID, "location": "eastus", "name": "ml-prod"}
	wantEast := func(src RegionSource) rview {
		return rview{Kind: KindNodePool, GroupsBefore: 1, GroupsA: 1, Hourly: "3.673 -> 11.019 (max 11.019)", Overlap: "nil",
			Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: src, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
				GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"},
			After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: src, Scale: fixed(3), GPUs: 3, MaxGPUs: 3,
				GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100", Labels: map[string]string{"hardware": "gpu"},
				Taints: []string{"nvidia.com/gpu=present:NoSchedule"}}}
	}
	runAdapterCases(t, map[string]adapterCase{
		"region from the parent cluster's change, matched by kubernetes_cluster_id": {
			plan: poolPlan(nil, tplan{changes: []rc{{addr: "azurerm_kubernetes_cluster.main", actions: []string{"no-op"},
				before: cluster, after: cluster}}}),
			addr: pool, want: wantEast(RegionFromParent),
		},
		"region from prior_state when the cluster is not among the changes": {
			plan: poolPlan(nil, tplan{prior: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}),
			want: wantEast(RegionFromParent),
		},
		"region from planned_values": {
			plan: poolPlan(nil, tplan{planned: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}),
			want: wantEast(RegionFromParent),
		},
		"region through the configuration reference when the cluster id is known after apply": {
			plan: tplan{
				changes: []rc{
					{addr: "azurerm_kubernetes_cluster.main", actions: []string{"create"},
						after: map[string]any{"location": "westeurope", "name": "ml-prod"}, unknown: map[string]any{"id": true}},
					{addr: pool, actions: []string{"create"},
						after:   map[string]any{"name": "a100", "vm_size": "Standard_NC24ads_A100_v4", "node_count": 1},
						unknown: map[string]any{"kubernetes_cluster_id": true}},
				},
				config: []map[string]any{{"address": pool, "mode": "managed", "type": "azurerm_kubernetes_cluster_node_pool", "name": "a100",
					"expressions": map[string]any{"kubernetes_cluster_id": map[string]any{
						"references": []any{"azurerm_kubernetes_cluster.main.id", "azurerm_kubernetes_cluster.main"}}}}},
			},
			addr: pool,
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 4.775 (max 4.775)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "westeurope", Source: RegionFromParent, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"}},
		},
		"no parent found: the configured default region, and it says so": {
			plan: poolPlan(nil, tplan{}), opt: Options{DefaultRegion: "East US"},
			want: wantEast(RegionFromDefault),
		},
		"no region anywhere: unpriced, not zero": {
			plan: poolPlan(map[string]any{"node_labels": nil, "node_taints": nil}, tplan{}),
			want: rview{Kind: KindNodePool, GroupsBefore: 1, GroupsA: 1, Hourly: "nil -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"both: region unknown: neither the resource nor its provider names a region, and no default region is set"},
				Before:   &sview{SKU: "Standard_NC24ads_A100_v4", Scale: fixed(1), GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"},
				After:    &sview{SKU: "Standard_NC24ads_A100_v4", Scale: fixed(3), GPUs: 3, MaxGPUs: 3, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"}},
		},
		"min_count 0 is not free: expected from node_count, max is the worst case": {
			plan: poolPlan(map[string]any{"enable_auto_scaling": true, "min_count": 0, "max_count": 10, "node_labels": nil, "node_taints": nil},
				tplan{prior: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}),
			want: rview{Kind: KindNodePool, GroupsBefore: 1, GroupsA: 1, Hourly: "3.673 -> 11.019 (max 36.73)", Overlap: "nil",
				Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromParent, Scale: auto(0, 1, 10),
					GPUs: 1, MaxGPUs: 10, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"},
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromParent, Scale: auto(0, 3, 10),
					GPUs: 3, MaxGPUs: 10, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"}},
		},
		"spot pool keeps its GPU facts but is unpriced": {
			plan: poolPlan(map[string]any{"priority": "Spot", "node_labels": nil, "node_taints": nil},
				tplan{prior: map[string]map[string]any{"azurerm_kubernetes_cluster.main": cluster}}),
			want: rview{Kind: KindNodePool, GroupsBefore: 1, GroupsA: 1, Hourly: "nil -> nil (max nil)", Overlap: "nil",
				// The ceilings differ with the node count: two gaps, not one.
				Unpriced: []string{"after: " + SpotUnpriced, "before: " + SpotUnpriced},
				Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromParent, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"},
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromParent, Scale: fixed(3),
					GPUs: 3, MaxGPUs: 3, GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"}},
		},
	})
}

func TestAzureVMs(t *testing.T) {
	t.Parallel()
	vm := func(typ, sizeAttr, size, loc string, extra map[string]any) tplan {
		a := map[string]any{"name": "trainer", sizeAttr: size, "location": loc, "tags": map[string]any{"cost-center": "r"}}
		for k, v := range extra {
			a[k] = v
		}
		return tplan{changes: []rc{{addr: typ + ".t", actions: []string{"create"}, after: a}}}
	}
	tags := map[string]string{"cost-center": "r"}
	runAdapterCases(t, map[string]adapterCase{
		"linux VM in a catalog region": {
			plan: vm("azurerm_linux_virtual_machine", "size", "Standard_ND96isr_H100_v5", "eastus", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 98.32 (max 98.32)", Overlap: "nil",
				After: &sview{SKU: "Standard_ND96isr_H100_v5", Region: "eastus", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 8, MaxGPUs: 8, GPUModel: "NVIDIA H100 80GB", Name: "trainer", Tags: tags}},
		},
		"linux VM in a region the catalog does not price names the priced regions": {
			plan: vm("azurerm_linux_virtual_machine", "size", "Standard_NC24ads_A100_v4", "norwayeast", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: no price for Standard_NC24ads_A100_v4 in norwayeast (the catalog prices it in 27 other regions, such as australiaeast, brazilsouth, canadacentral, centralindia, centralus)"},
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "norwayeast", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A100 80GB PCIe", Name: "trainer", Tags: tags}},
		},
		"linux VM of a GPU family beyond the price table: facts from the family, unpriced": {
			plan: vm("azurerm_linux_virtual_machine", "size", "Standard_ND192isr_H200_v5", "eastus", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: no price for Standard_ND192isr_H200_v5 in the catalog"},
				After: &sview{SKU: "Standard_ND192isr_H200_v5", Region: "eastus", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 8, MaxGPUs: 8, GPUModel: "NVIDIA H200 141GB", Name: "trainer", Tags: tags}},
		},
		"linux VM of a CPU SKU the bulk catalog prices in its region": {
			plan: vm("azurerm_linux_virtual_machine", "size", "Standard_D2s_v3", "brazilsouth", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 0.159 (max 0.159)", Overlap: "nil",
				After: &sview{SKU: "Standard_D2s_v3", Region: "brazilsouth", Source: RegionFromResource, Scale: fixed(1), Name: "trainer", Tags: tags}},
		},
		"unknown SKU is unpriced with the reason": {
			plan: vm("azurerm_linux_virtual_machine", "size", "Standard_NX12_v9", "eastus", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: Standard_NX12_v9 is not in the catalog and no family rule knows it"},
				After:    &sview{SKU: "Standard_NX12_v9", Region: "eastus", Source: RegionFromResource, Scale: fixed(1), Name: "trainer", Tags: tags}},
		},
		"windows VM: GPU facts, no Linux price passed off as Windows": {
			plan: vm("azurerm_windows_virtual_machine", "size", "Standard_NC4as_T4_v3", "eastus", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: Windows: the catalog has Linux prices only"},
				After: &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA Tesla T4 16GB", Name: "trainer", Tags: tags}},
		},
		"legacy VM with a Linux OS disk": {
			plan: vm("azurerm_virtual_machine", "vm_size", "Standard_NC6s_v3", "westeurope",
				map[string]any{"storage_os_disk": []any{map[string]any{"os_type": "Linux"}}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 3.823 (max 3.823)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC6s_v3", Region: "westeurope", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA Tesla V100 16GB", Name: "trainer", Tags: tags}},
		},
		"legacy VM with a Windows profile": {
			plan: vm("azurerm_virtual_machine", "vm_size", "Standard_D8s_v5", "eastus",
				map[string]any{"os_profile_windows_config": []any{map[string]any{"provision_vm_agent": true}}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: Windows: the catalog has Linux prices only"},
				After:    &sview{SKU: "Standard_D8s_v5", Region: "eastus", Source: RegionFromResource, Scale: fixed(1), Name: "trainer", Tags: tags}},
		},
		"scale set of four T4 instances": {
			plan: vm("azurerm_linux_virtual_machine_scale_set", "sku", "Standard_NC4as_T4_v3", "eastus", map[string]any{"instances": 4}),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> 2.104 (max 2.104)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(4),
					GPUs: 4, MaxGPUs: 4, GPUModel: "NVIDIA Tesla T4 16GB", Name: "trainer", Tags: tags}},
		},
		"windows scale set: GPU facts, unpriced": {
			plan: vm("azurerm_windows_virtual_machine_scale_set", "sku", "Standard_NC4as_T4_v3", "eastus", map[string]any{"instances": 2}),
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: Windows: the catalog has Linux prices only"},
				After: &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(2),
					GPUs: 2, MaxGPUs: 2, GPUModel: "NVIDIA Tesla T4 16GB", Name: "trainer", Tags: tags}},
		},
		"ML compute cluster idles at min_node_count, max is the worst case": {
			plan: vm("azurerm_machine_learning_compute_cluster", "vm_size", "Standard_NC24ads_A100_v4", "eastus",
				map[string]any{"vm_priority": "Dedicated", "scale_settings": []any{map[string]any{"min_node_count": 0, "max_node_count": 4}}}),
			want: rview{Kind: KindComputeCluster, GroupsA: 1, Hourly: "0 -> 0 (max 14.692)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromResource, Scale: auto(0, 0, 4),
					GPUs: 0, MaxGPUs: 4, GPUModel: "NVIDIA A100 80GB PCIe", Name: "trainer", Tags: tags}},
		},
		"ML compute cluster on low priority is unpriced": {
			plan: vm("azurerm_machine_learning_compute_cluster", "vm_size", "Standard_NC24ads_A100_v4", "eastus",
				map[string]any{"vm_priority": "LowPriority", "scale_settings": []any{map[string]any{"min_node_count": 1, "max_node_count": 2}}}),
			want: rview{Kind: KindComputeCluster, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: spot capacity: its price moves with the market and the config gives no spot price"},
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromResource, Scale: auto(1, 1, 2),
					GPUs: 1, MaxGPUs: 2, GPUModel: "NVIDIA A100 80GB PCIe", Name: "trainer", Tags: tags}},
		},
	})
}

func TestAWSInstance(t *testing.T) {
	t.Parallel()
	inst := func(typ string, extra map[string]any) map[string]any {
		m := map[string]any{"instance_type": typ, "tags": map[string]any{"Name": "trainer"},
			"tags_all": map[string]any{"Name": "trainer", "cost-center": "ml"}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tags := map[string]string{"Name": "trainer", "cost-center": "ml"}
	runAdapterCases(t, map[string]adapterCase{
		"region from the provider; tags_all includes default tags": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_instance.t", actions: []string{"create"}, after: inst("p4d.24xlarge", nil)}}},
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 21.957642 (max 21.957642)", Overlap: "nil",
				After: &sview{SKU: "p4d.24xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 8, MaxGPUs: 8,
					GPUModel: "NVIDIA A100 40GB", Name: "trainer", Tags: tags}},
		},
		"resource region wins over the provider's; us-east-1 list price there, approximate": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_instance.t", actions: []string{"update"},
				before: inst("g5.xlarge", map[string]any{"region": "us-west-2"}), after: inst("m5.xlarge", map[string]any{"region": "us-west-2"})}}},
			want: rview{Kind: KindVM, GroupsBefore: 1, GroupsA: 1, Hourly: "1.006 -> 0.192 (max 0.192)", Overlap: "nil",
				Before: &sview{SKU: "g5.xlarge", Region: "us-west-2", Source: RegionFromResource, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "trainer", Tags: tags},
				After: &sview{SKU: "m5.xlarge", Region: "us-west-2", Source: RegionFromResource, Scale: fixed(1), Name: "trainer", Tags: tags,
					Approx: "us-east-1"}},
		},
		"forget: Terraform lets go, the instance keeps billing": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_instance.t", actions: []string{"forget"}, before: inst("g5.xlarge", nil)}}},
			want: rview{Kind: KindVM, GroupsBefore: 1, Hourly: "1.006 -> 1.006 (max 1.006)", Overlap: "nil",
				Before: &sview{SKU: "g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "trainer", Tags: tags}},
		},
		"provider region from a variable: the region from the availability zone, then the ARN": {
			plan: tplan{changes: []rc{{addr: "aws_instance.t", actions: []string{"update"},
				before:  inst("g5.xlarge", map[string]any{"availability_zone": "us-west-2b", "arn": "arn:aws:ec2:us-west-2:123:instance/i-1"}),
				after:   inst("p5.48xlarge", map[string]any{"arn": "arn:aws:ec2:us-west-2:123:instance/i-1"}),
				unknown: map[string]any{"availability_zone": true}}}},
			want: rview{Kind: KindVM, GroupsBefore: 1, GroupsA: 1, Hourly: "1.006 -> 55.04 (max 55.04)", Overlap: "nil",
				Before: &sview{SKU: "g5.xlarge", Region: "us-west-2", Source: RegionFromResource, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "trainer", Tags: tags},
				After: &sview{SKU: "p5.48xlarge", Region: "us-west-2", Source: RegionFromResource, Scale: fixed(1), GPUs: 8, MaxGPUs: 8,
					GPUModel: "NVIDIA H100 80GB", Name: "trainer", Tags: tags}},
		},
		"instance type known only after apply": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_instance.t", actions: []string{"create"},
				after: map[string]any{"tags": map[string]any{"Name": "x"}}, unknown: map[string]any{"instance_type": true, "tags_all": true}}}},
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: SKU known only after apply"},
				After:    &sview{Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), Name: "x", Tags: map[string]string{"Name": "x"}}},
		},
	})
}

func TestEKSNodeGroup(t *testing.T) {
	t.Parallel()
	ng := func(extra map[string]any) map[string]any {
		m := map[string]any{"node_group_name": "gpu", "capacity_type": "ON_DEMAND", "ami_type": "AL2_x86_64_GPU",
			"scaling_config": []any{map[string]any{"desired_size": 2, "min_size": 1, "max_size": 4}},
			"labels":         map[string]any{"accelerator": "nvidia"},
			"taint":          []any{map[string]any{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}},
			"tags_all":       map[string]any{"cost-center": "ml"}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	side := func(sku, model string, gpus float64) *sview {
		return &sview{SKU: sku, Region: "us-east-1", Source: RegionFromProvider, Scale: auto(1, 2, 4), GPUs: 2 * gpus, MaxGPUs: 4 * gpus,
			GPUModel: model, Name: "gpu", Tags: map[string]string{"cost-center": "ml"}, Labels: map[string]string{"accelerator": "nvidia"},
			Taints: []string{"nvidia.com/gpu=true:NoSchedule"}, ImageType: "AL2_x86_64_GPU"}
	}
	runAdapterCases(t, map[string]adapterCase{
		"instance_types, desired within min and max, EKS taint in Kubernetes form": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_eks_node_group.gpu", actions: []string{"create"},
				after: ng(map[string]any{"instance_types": []any{"g5.xlarge"}})}}},
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 2.01748 (max 4.03496)", Overlap: "nil", After: side("g5.xlarge", "NVIDIA A10G 24GB", 1)},
		},
		"instance type from the launch template, matched by id": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_launch_template.gpu", actions: []string{"no-op"},
					before: map[string]any{"id": "lt-0abc", "name": "gpu", "instance_type": "g4dn.xlarge"},
					after:  map[string]any{"id": "lt-0abc", "name": "gpu", "instance_type": "g4dn.xlarge"}},
				{addr: "aws_eks_node_group.gpu", actions: []string{"create"},
					after: ng(map[string]any{"instance_types": []any{}, "launch_template": []any{map[string]any{"id": "lt-0abc", "version": "1"}}})}}},
			addr: "aws_eks_node_group.gpu",
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 1.052 (max 2.104)", Overlap: "nil", After: side("g4dn.xlarge", "NVIDIA T4 16GB", 1)},
		},
		"neither instance_types nor a launch template: EKS's default t3.medium": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_eks_node_group.gpu", actions: []string{"create"},
				after: ng(nil)}}},
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 0.08868 (max 0.17736)", Overlap: "nil", After: side("t3.medium", "", 0)},
		},
		"spot capacity is unpriced": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_eks_node_group.gpu", actions: []string{"create"},
				after: ng(map[string]any{"instance_types": []any{"g5.xlarge"}, "capacity_type": "SPOT"})}}},
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: spot capacity: its price moves with the market and the config gives no spot price"},
				After:    side("g5.xlarge", "NVIDIA A10G 24GB", 1)},
		},
	})
}

func TestAutoscalingGroup(t *testing.T) {
	t.Parallel()
	asgConfig := []map[string]any{{"address": "aws_autoscaling_group.gpu", "mode": "managed", "type": "aws_autoscaling_group", "name": "gpu",
		"expressions": map[string]any{"launch_template": []any{map[string]any{"id": map[string]any{
			"references": []any{"aws_launch_template.gpu.id", "aws_launch_template.gpu"}}}}}}}
	runAdapterCases(t, map[string]adapterCase{
		"launch template being created, found through the configuration reference": {
			plan: tplan{providers: awsProvider("us-east-1"), config: asgConfig, changes: []rc{
				{addr: "aws_launch_template.gpu", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge"},
					unknown: map[string]any{"id": true}},
				{addr: "aws_autoscaling_group.gpu", actions: []string{"create"},
					after: map[string]any{"name": "train", "min_size": 0, "max_size": 2, "desired_capacity": 1,
						"launch_template": []any{map[string]any{"version": "$Latest"}},
						"tag":             []any{map[string]any{"key": "cost-center", "value": "ml", "propagate_at_launch": true}}},
					unknown: map[string]any{"launch_template": []any{map[string]any{"id": true}}}}}},
			addr: "aws_autoscaling_group.gpu",
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> 55.04 (max 110.08)", Overlap: "nil",
				After: &sview{SKU: "p5.48xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: auto(0, 1, 2), GPUs: 8, MaxGPUs: 16,
					GPUModel: "NVIDIA H100 80GB", Name: "train", Tags: map[string]string{"cost-center": "ml"}}},
		},
		"mixed instances policy override": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"create"},
				after: map[string]any{"name": "infer", "min_size": 2, "max_size": 2,
					"mixed_instances_policy": []any{map[string]any{"launch_template": []any{map[string]any{
						"launch_template_specification": []any{map[string]any{"launch_template_name": "x"}},
						"override":                      []any{map[string]any{"instance_type": "inf2.xlarge"}}}}}}}}}},
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> 1.5164 (max 1.5164)", Overlap: "nil",
				After: &sview{SKU: "inf2.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 2, Expected: 2, Max: 2, Autoscaled: false},
					GPUs: 2, MaxGPUs: 2, GPUModel: "AWS Inferentia2 (accelerator chips)", Name: "infer"}},
		},
		"launch template nowhere in the plan": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_autoscaling_group.gpu", actions: []string{"create"},
				after: map[string]any{"name": "x", "min_size": 1, "max_size": 1, "launch_template": []any{map[string]any{"id": "lt-404"}}}}}},
			want: rview{Kind: KindScaleSet, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: launch template not found in the plan"},
				After:    &sview{Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 1, Expected: 1, Max: 1}, Name: "x"}},
		},
	})
}

func endpointConfig(name string, variants []any, shadow []any) map[string]any {
	m := map[string]any{"name": name, "production_variants": variants, "tags_all": map[string]any{"cost-center": "ml"}}
	if shadow != nil {
		m["shadow_production_variants"] = shadow
	}
	return m
}

func variant(name, typ string, n int) map[string]any {
	return map[string]any{"variant_name": name, "instance_type": typ, "initial_instance_count": n}
}

func TestSageMakerEndpointConfiguration(t *testing.T) {
	t.Parallel()
	tags := map[string]string{"cost-center": "ml"}
	runAdapterCases(t, map[string]adapterCase{
		"production and shadow variants both bill; the config bills through its endpoint": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_sagemaker_endpoint_configuration.llm", actions: []string{"create"},
				after: endpointConfig("llm-v2", []any{variant("main", "ml.g5.xlarge", 2)}, []any{variant("shadow", "ml.g5.2xlarge", 1)})}}},
			want: rview{Kind: KindEndpointConfig, GroupsA: 2, Hourly: "0 -> 4.3318 (max 4.3318)", Overlap: "nil", BilledVia: "aws_sagemaker_endpoint",
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(2), GPUs: 3, MaxGPUs: 3,
					GPUModel: "NVIDIA A10G 24GB", Name: "llm-v2", Tags: tags}},
		},
		"serverless variant has no hourly price and says so": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_sagemaker_endpoint_configuration.llm", actions: []string{"create"},
				after: endpointConfig("llm-sls", []any{map[string]any{"variant_name": "sls",
					"serverless_config": []any{map[string]any{"max_concurrency": 5, "memory_size_in_mb": 4096}}}}, nil)}}},
			want: rview{Kind: KindEndpointConfig, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", BilledVia: "aws_sagemaker_endpoint",
				Unpriced: []string{"after: serverless variant: billed per request and compute-second, no hourly price"},
				After:    &sview{Region: "us-east-1", Source: RegionFromProvider, Name: "llm-sls", Tags: tags}},
		},
	})
}

// target is an Application Auto Scaling target of a SageMaker variant.
func target(id string, lo, hi int) map[string]any {
	return map[string]any{"resource_id": id, "scalable_dimension": "sagemaker:variant:DesiredInstanceCount",
		"service_namespace": "sagemaker", "min_capacity": lo, "max_capacity": hi}
}

func TestSageMakerEndpoint(t *testing.T) {
	t.Parallel()
	tags := map[string]string{"cost-center": "ml"}
	cfgA := endpointConfig("cfg-a", []any{variant("main", "ml.g5.xlarge", 1)}, nil)
	cfgB := endpointConfig("cfg-b", []any{variant("main", "ml.p4d.24xlarge", 1)}, nil)
	ep := func(cfg string) map[string]any {
		return map[string]any{"name": "llm", "endpoint_config_name": cfg, "tags_all": map[string]any{"cost-center": "ml"}}
	}
	runAdapterCases(t, map[string]adapterCase{
		"moving to a new configuration: both fleets run during the blue/green update": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"delete"}, before: cfgA},
				{addr: "aws_sagemaker_endpoint_configuration.b", actions: []string{"create"}, after: cfgB},
				{addr: "aws_sagemaker_endpoint.llm", actions: []string{"update"}, before: ep("cfg-a"), after: ep("cfg-b")}}},
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsBefore: 1, GroupsA: 1, Hourly: "1.4084 -> 37.688 (max 37.688)", Overlap: "39.0964",
				Before: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags},
				After: &sview{SKU: "ml.p4d.24xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 8, MaxGPUs: 8,
					GPUModel: "NVIDIA A100 40GB", Name: "llm", Tags: tags}},
		},
		"replace with a configuration from prior_state": {
			plan: tplan{providers: awsProvider("us-east-1"), prior: map[string]map[string]any{"aws_sagemaker_endpoint_configuration.a": cfgA},
				changes: []rc{{addr: "aws_sagemaker_endpoint.llm", actions: []string{"delete", "create"}, before: ep("cfg-a"), after: ep("cfg-a")}}},
			want: rview{Kind: KindEndpoint, GroupsBefore: 1, GroupsA: 1, Hourly: "1.4084 -> 1.4084 (max 1.4084)", Overlap: "nil",
				Before: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags},
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}},
		},
		"Application Auto Scaling 1..10 on the variant: max is 10 instances": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"create"}, after: cfgA},
				{addr: "aws_sagemaker_endpoint.llm", actions: []string{"create"}, after: ep("cfg-a")},
				{addr: "aws_appautoscaling_target.llm", actions: []string{"create"}, after: target("endpoint/llm/variant/main", 1, 10)}}},
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> 1.4084 (max 14.084)", Overlap: "nil",
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 1, Expected: 1, Max: 10, Autoscaled: true},
					GPUs: 1, MaxGPUs: 10, GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}},
		},
		"Application Auto Scaling target in prior_state, endpoint updated": {
			plan: tplan{providers: awsProvider("us-east-1"),
				prior: map[string]map[string]any{"aws_appautoscaling_target.llm": target("endpoint/llm/variant/main", 2, 4)},
				changes: []rc{
					{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"no-op"}, before: cfgA, after: cfgA},
					{addr: "aws_sagemaker_endpoint.llm", actions: []string{"update"}, before: ep("cfg-a"), after: ep("cfg-a")}}},
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsBefore: 1, GroupsA: 1, Hourly: "2.8168 -> 2.8168 (max 5.6336)", Overlap: "nil",
				Before: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 2, Expected: 2, Max: 4, Autoscaled: true},
					GPUs: 2, MaxGPUs: 4, GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags},
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 2, Expected: 2, Max: 4, Autoscaled: true},
					GPUs: 2, MaxGPUs: 4, GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}},
		},
		"new endpoint: the target's resource_id is known after apply, found by its reference": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"create"}, after: cfgA},
				{addr: "aws_sagemaker_endpoint.llm", actions: []string{"create"}, after: ep("cfg-a")},
				{addr: "aws_appautoscaling_target.llm", actions: []string{"create"}, after: target("", 1, 10), unknown: map[string]any{"resource_id": true}}},
				config: []map[string]any{{"address": "aws_appautoscaling_target.llm", "mode": "managed", "type": "aws_appautoscaling_target", "name": "llm",
					"expressions": map[string]any{"resource_id": map[string]any{
						"references": []any{"aws_sagemaker_endpoint.llm.name", "aws_sagemaker_endpoint.llm"}}}}}},
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> 1.4084 (max 14.084)", Overlap: "nil",
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: Scale{Min: 1, Expected: 1, Max: 10, Autoscaled: true},
					GPUs: 1, MaxGPUs: 10, GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}},
		},
		"a target of another variant is not this one's": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"create"}, after: cfgA},
				{addr: "aws_sagemaker_endpoint.llm", actions: []string{"create"}, after: ep("cfg-a")},
				{addr: "aws_appautoscaling_target.llm", actions: []string{"create"}, after: target("endpoint/llm/variant/shadow", 1, 10)}}},
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> 1.4084 (max 1.4084)", Overlap: "nil",
				After: &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}},
		},
		"configuration not in the plan": {
			plan: tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_sagemaker_endpoint.llm", actions: []string{"create"}, after: ep("elsewhere")}}},
			want: rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: endpoint configuration elsewhere not found in the plan"},
				After:    &sview{Region: "us-east-1", Source: RegionFromProvider, Name: "llm", Tags: tags}},
		},
	})
}

func TestSageMakerNotebook(t *testing.T) {
	t.Parallel()
	nb := func(typ string) tplan {
		return tplan{providers: awsProvider("us-east-1"), changes: []rc{{addr: "aws_sagemaker_notebook_instance.nb", actions: []string{"create"},
			after: map[string]any{"name": "lab", "instance_type": typ}}}}
	}
	runAdapterCases(t, map[string]adapterCase{
		"GPU notebook": {plan: nb("ml.g4dn.xlarge"),
			want: rview{Kind: KindNotebook, GroupsA: 1, Hourly: "0 -> 0.7364 (max 0.7364)", Overlap: "nil",
				After: &sview{SKU: "ml.g4dn.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA T4 16GB", Name: "lab"}}},
		"catalog row without a price": {plan: nb("ml.t2.medium"),
			want: rview{Kind: KindNotebook, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: no price for ml.t2.medium in the catalog"},
				After:    &sview{SKU: "ml.t2.medium", Region: "us-east-1", Source: RegionFromProvider, Scale: fixed(1), Name: "lab"}}},
	})
}

func TestGCEInstance(t *testing.T) {
	t.Parallel()
	gce := func(mt string, acc []any) tplan {
		return tplan{changes: []rc{{addr: "google_compute_instance.t", actions: []string{"create"},
			after: map[string]any{"name": "t", "machine_type": mt, "zone": "us-central1-a", "labels": map[string]any{"cost-center": "ml"},
				"guest_accelerator": acc}}}}
	}
	gceAt := func(mt, zone string, extra map[string]any) tplan {
		after := map[string]any{"name": "t", "machine_type": mt, "zone": zone}
		for k, v := range extra {
			after[k] = v
		}
		return tplan{changes: []rc{{addr: "google_compute_instance.t", actions: []string{"create"}, after: after}}}
	}
	tags := map[string]string{"cost-center": "ml"}
	runAdapterCases(t, map[string]adapterCase{
		"N1 with two attached T4s: host plus GPU price, region from the zone": {
			plan: gce("projects/p/zones/us-central1-a/machineTypes/n1-standard-4", []any{map[string]any{"type": "projects/p/zones/us-central1-a/acceleratorTypes/nvidia-tesla-t4", "count": 2}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 0.889999 (max 0.889999)", Overlap: "nil",
				After: &sview{SKU: "n1-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), GPUs: 2, MaxGPUs: 2,
					Name: "t", Tags: tags}},
		},
		"A2 with its bundled A100 declared is not priced twice": {
			plan: gce("a2-highgpu-1g", []any{map[string]any{"type": "nvidia-tesla-a100", "count": 1}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 3.673385 (max 3.673385)", Overlap: "nil",
				After: &sview{SKU: "a2-highgpu-1g", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA A100 40GB", Name: "t", Tags: tags}},
		},
		"e2-micro in a London zone: the bulk layer's price for its region": {
			plan: gceAt("e2-micro", "europe-west2-a", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 0.010792 (max 0.010792)", Overlap: "nil",
				After: &sview{SKU: "e2-micro", Region: "europe-west2", Source: RegionFromResource, Scale: fixed(1), Name: "t"}},
		},
		"zone written as a resource path": {
			plan: gceAt("n1-standard-1", "projects/p/zones/us-central1-c", nil),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 0.0475 (max 0.0475)", Overlap: "nil",
				After: &sview{SKU: "n1-standard-1", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), Name: "t"}},
		},
		"preemptible stays unpriced with its reason": {
			plan: gceAt("n1-standard-1", "us-central1-a", map[string]any{"scheduling": []any{map[string]any{"preemptible": true}}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: spot capacity: its price moves with the market and the config gives no spot price"},
				After:    &sview{SKU: "n1-standard-1", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), Name: "t"}},
		},
		"attached GPU without a price": {
			plan: gce("n1-standard-4", []any{map[string]any{"type": "nvidia-tesla-v100", "count": 1}}),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: attached accelerator: no price for gpu:nvidia-tesla-v100 in the catalog"},
				After: &sview{SKU: "n1-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					Name: "t", Tags: tags}},
		},
	})
}

func TestGKENodePool(t *testing.T) {
	t.Parallel()
	pool := func(extra map[string]any) tplan {
		m := map[string]any{"name": "l4", "location": "us-central1", "node_count": 1,
			"node_config": []any{map[string]any{"machine_type": "g2-standard-4", "labels": map[string]any{"gpu": "l4"},
				"resource_labels":   map[string]any{"cost-center": "ml"},
				"taint":             []any{map[string]any{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}},
				"guest_accelerator": []any{map[string]any{"type": "nvidia-l4", "count": 1}}}}}
		for k, v := range extra {
			m[k] = v
		}
		return tplan{changes: []rc{{addr: "google_container_node_pool.l4", actions: []string{"create"}, after: m}}}
	}
	side := func(s Scale) *sview {
		return &sview{SKU: "g2-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: s,
			GPUs: float64(s.Expected), MaxGPUs: float64(s.Max), GPUModel: "NVIDIA L4 24GB", Name: "l4",
			Labels: map[string]string{"gpu": "l4"}, Tags: map[string]string{"cost-center": "ml"},
			Taints: []string{"nvidia.com/gpu=present:NoSchedule"}}
	}
	runAdapterCases(t, map[string]adapterCase{
		"regional pool: node_count is per zone, three zones by default": {
			plan: pool(nil),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 2.120496 (max 2.120496)", Overlap: "nil", After: side(fixed(3))},
		},
		"autoscaling with total limits over two node_locations": {
			plan: pool(map[string]any{"node_locations": []any{"us-central1-a", "us-central1-b"},
				"autoscaling": []any{map[string]any{"total_min_node_count": 0, "total_max_node_count": 6}}}),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 1.413664 (max 4.240992)", Overlap: "nil", After: side(auto(0, 2, 6))},
		},
		"zones from the parent cluster's node_locations": {
			plan: func() tplan {
				tp := pool(map[string]any{"cluster": "projects/p/locations/us-central1/clusters/ml"})
				cl := map[string]any{"id": "projects/p/locations/us-central1/clusters/ml", "name": "ml", "location": "us-central1",
					"node_locations": []any{"us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"}}
				tp.changes = append(tp.changes, rc{addr: "google_container_cluster.ml", actions: []string{"no-op"}, before: cl, after: cl})
				return tp
			}(),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 2.827328 (max 2.827328)", Overlap: "nil", After: side(fixed(4))},
		},
		"zonal pool with per-zone autoscaling limits": {
			plan: pool(map[string]any{"location": "us-central1-c", "autoscaling": []any{map[string]any{"min_node_count": 1, "max_node_count": 4}}}),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 0.706832 (max 2.827328)", Overlap: "nil", After: side(auto(1, 1, 4))},
		},
	})
}

func TestSupportedTypesAllHaveAdapterTests(t *testing.T) {
	t.Parallel()
	// Every supported type is exercised above; this guards the registry
	// against a type added without its adapter test being named here.
	tested := "azurerm_kubernetes_cluster azurerm_kubernetes_cluster_node_pool azurerm_linux_virtual_machine " +
		"azurerm_windows_virtual_machine azurerm_virtual_machine azurerm_linux_virtual_machine_scale_set " +
		"azurerm_windows_virtual_machine_scale_set " +
		"azurerm_machine_learning_compute_cluster aws_instance aws_eks_node_group aws_autoscaling_group " +
		"aws_sagemaker_endpoint_configuration aws_sagemaker_endpoint aws_sagemaker_notebook_instance " +
		"google_compute_instance google_container_node_pool " +
		// arm_test.go
		"Microsoft.Compute/virtualMachines Microsoft.Compute/virtualMachineScaleSets Microsoft.ContainerService/managedClusters " +
		"Microsoft.ContainerService/managedClusters/agentPools Microsoft.MachineLearningServices/workspaces/computes " +
		// disk_price_test.go, capacity_reservation_test.go
		"azurerm_managed_disk aws_ebs_volume google_compute_disk aws_ec2_capacity_reservation aws_ec2_capacity_block_reservation " +
		"aws_spot_instance_request azapi_resource Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments " +
		// pulumi_native_test.go
		"azure-native:compute:VirtualMachine azure-native:compute:VirtualMachineScaleSet azure-native:containerservice:ManagedCluster " +
		"azure-native:containerservice:AgentPool aws-native:eks:Nodegroup aws-native:ec2:Instance aws-native:sagemaker:EndpointConfig " +
		"aws-native:sagemaker:Endpoint google-native:container:NodePool " +
		// kubernetes_gpu_test.go
		"kubernetes_deployment kubernetes_deployment_v1 kubernetes_stateful_set kubernetes_stateful_set_v1 kubernetes_job kubernetes_job_v1 " +
		"kubernetes_daemonset kubernetes_daemon_set_v1 kubernetes_manifest helm_release"
	if got := strings.Join(SupportedTypes(), " "); len(strings.Fields(got)) != len(strings.Fields(tested)) {
		t.Errorf("SupportedTypes() = %s\nwant the %d types with adapter tests", got, len(strings.Fields(tested)))
	}
	for _, typ := range strings.Fields(tested) {
		if !Supported(typ) {
			t.Errorf("Supported(%q) = false", typ)
		}
	}
}

// checkInvariants holds for every resource: a figure is nil only with a
// reason; priced groups have a positive price; a create costs nothing
// before and a delete nothing after.
func checkInvariants(t *testing.T, r *Resource) {
	t.Helper()
	c := r.Cost
	nilFigure := c.HourlyBefore == nil || c.HourlyAfter == nil || c.MaxHourlyAfter == nil || c.MaxHourlyBefore == nil || c.MinHourlyAfter == nil
	if nilFigure && len(c.Unpriced) == 0 && (r.Kind != KindDisk || len(c.DiskGaps) == 0) {
		t.Errorf("%s: a nil figure without a reason: %+v", r.Address, c)
	}
	if !nilFigure && len(c.Unpriced) > 0 {
		t.Errorf("%s: every figure known yet unpriced %v", r.Address, c.Unpriced)
	}
	for _, s := range []*Side{r.Before, r.After} {
		if s == nil {
			continue
		}
		for _, g := range s.Groups {
			if (g.Hourly == nil) == (g.Unpriced == "") || g.Hourly != nil && *g.Hourly <= 0 {
				t.Errorf("%s group %q: hourly %s, unpriced %q", r.Address, g.Name, fmtPtr(g.Hourly), g.Unpriced)
			}
		}
	}
	for _, x := range []*float64{c.HourlyBefore, c.HourlyAfter, c.MaxHourlyAfter, c.MaxHourlyBefore, c.MinHourlyAfter, c.OverlapHourly} {
		if x != nil && *x < 0 {
			t.Errorf("%s: negative hourly figure in %+v", r.Address, c)
		}
	}
	if r.Before == nil && fmtPtr(c.HourlyBefore) != "0" || r.After == nil && r.Action != "forget" && fmtPtr(c.HourlyAfter) != "0" {
		t.Errorf("%s: absent side is not zero: before %s after %s", r.Address, fmtPtr(c.HourlyBefore), fmtPtr(c.HourlyAfter))
	}
}
