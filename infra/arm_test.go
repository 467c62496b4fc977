package infra

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
)

const armRG = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/"

// wi is one what-if entry: resource path under the resource group, change
// type, and the before/after payloads (nil for none).
type wi struct {
	path, changeType string
	before, after    map[string]any
}

// analyzeWhatIf reads a what-if document made of entries through planparse
// (as `planwarden review` does) and returns infra's view of each.
func analyzeWhatIf(t *testing.T, entries ...wi) map[string]*Resource {
	t.Helper()
	var changes []any
	for _, e := range entries {
		c := map[string]any{"resourceId": armRG + e.path, "changeType": e.changeType}
		if e.before != nil {
			c["before"] = e.before
		}
		if e.after != nil {
			c["after"] = e.after
		}
		changes = append(changes, c)
	}
	data, err := json.Marshal(map[string]any{"status": "Succeeded", "changes": changes})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("whatif.json", data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Resource{}
	for _, r := range Analyze(p, DefaultCatalog(), Options{}) {
		checkInvariants(t, r)
		out[r.Address] = r
	}
	return out
}

type m = map[string]any

func TestARMAdapters(t *testing.T) {
	t.Parallel()
	cluster := m{"name": "ml-prod", "location": "westeurope", "tags": m{"cost-center": "ml"},
		"properties": m{"agentPoolProfiles": []any{
			m{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3, "osType": "Linux"},
			m{"name": "gpu", "vmSize": "Standard_NC24ads_A100_v4", "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 4},
		}}}
	pool := func(size string) m {
		return m{"name": "ml-prod/gpu", "properties": m{"vmSize": size, "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 4,
			"nodeTaints": []any{"sku=gpu:NoSchedule"}, "nodeLabels": m{"hardware": "gpu"}, "tags": m{"cost-center": "ml"}}}
	}
	tests := map[string]struct {
		entries []wi
		addr    string
		want    rview
	}{
		"VM created: vmSize, location, tags": {
			entries: []wi{{"Microsoft.Compute/virtualMachines/trainer", "Create", nil,
				m{"name": "trainer", "location": "West Europe", "tags": m{"team": "ml"}, "properties": m{"hardwareProfile": m{"vmSize": "Standard_NC24ads_A100_v4"}}}}},
			addr: "Microsoft.Compute/virtualMachines/trainer",
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 4.775 (max 4.775)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "westeurope", Source: RegionFromResource, Scale: fixed(1),
					GPUs: 1, MaxGPUs: 1, GPUModel: "NVIDIA A100 80GB PCIe", Name: "trainer", Tags: map[string]string{"team": "ml"}}},
		},
		"spot VM is not priced": {
			entries: []wi{{"Microsoft.Compute/virtualMachines/spot", "Create", nil,
				m{"name": "spot", "location": "westeurope", "properties": m{"priority": "Spot", "hardwareProfile": m{"vmSize": "Standard_D4s_v5"}}}}},
			addr: "Microsoft.Compute/virtualMachines/spot",
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: spot capacity: its price moves with the market and the config gives no spot price"},
				After:    &sview{SKU: "Standard_D4s_v5", Region: "westeurope", Source: RegionFromResource, Scale: fixed(1), Name: "spot"}},
		},
		"Windows VM (from its OS disk) is not priced": {
			entries: []wi{{"Microsoft.Compute/virtualMachines/win", "Create", nil,
				m{"name": "win", "location": "westeurope", "properties": m{"hardwareProfile": m{"vmSize": "Standard_D4s_v5"},
					"storageProfile": m{"osDisk": m{"osType": "Windows"}}}}}},
			addr: "Microsoft.Compute/virtualMachines/win",
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: Windows: the catalog has Linux prices only"},
				After:    &sview{SKU: "Standard_D4s_v5", Region: "westeurope", Source: RegionFromResource, Scale: fixed(1), Name: "win"}},
		},
		"scale set scaled out: sku.name and sku.capacity": {
			entries: []wi{{"Microsoft.Compute/virtualMachineScaleSets/infer", "Modify",
				m{"name": "infer", "location": "eastus", "sku": m{"name": "Standard_NC4as_T4_v3", "capacity": 2}},
				m{"name": "infer", "location": "eastus", "sku": m{"name": "Standard_NC4as_T4_v3", "capacity": 4}}}},
			addr: "Microsoft.Compute/virtualMachineScaleSets/infer",
			want: rview{Kind: KindScaleSet, GroupsBefore: 1, GroupsA: 1, Hourly: "1.052 -> 2.104 (max 2.104)", Overlap: "nil",
				Before: &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(2), GPUs: 2, MaxGPUs: 2, GPUModel: "NVIDIA Tesla T4 16GB", Name: "infer"},
				After:  &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(4), GPUs: 4, MaxGPUs: 4, GPUModel: "NVIDIA Tesla T4 16GB", Name: "infer"}},
		},
		"managed cluster: every inline pool priced, the GPU pool names the side": {
			entries: []wi{{"Microsoft.ContainerService/managedClusters/ml-prod", "Create", nil, cluster}},
			addr:    "Microsoft.ContainerService/managedClusters/ml-prod",
			want: rview{Kind: KindNodePool, GroupsA: 2, Hourly: "0 -> 10.24 (max 19.79)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "westeurope", Source: RegionFromResource, Scale: auto(1, 2, 4), GPUs: 2, MaxGPUs: 4,
					GPUModel: "NVIDIA A100 80GB PCIe", Name: "gpu", Tags: map[string]string{"cost-center": "ml"}}},
		},
		"managed cluster without a GPU pool: the first (system) pool names the side": {
			entries: []wi{{"Microsoft.ContainerService/managedClusters/web", "Create", nil,
				m{"name": "web", "location": "westeurope", "properties": m{"agentPoolProfiles": []any{
					m{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3}, m{"name": "apps", "vmSize": "Standard_D16s_v5", "count": 2}}}}}},
			addr: "Microsoft.ContainerService/managedClusters/web",
			want: rview{Kind: KindNodePool, GroupsA: 2, Hourly: "0 -> 2.53 (max 2.53)", Overlap: "nil",
				After: &sview{SKU: "Standard_D4s_v5", Region: "westeurope", Source: RegionFromResource, Scale: fixed(3), Name: "system"}},
		},
		"managed cluster whose inline GPU pool loses its GPUs: that pool names both sides": {
			entries: []wi{{"Microsoft.ContainerService/managedClusters/ml-prod", "Modify", cluster, func() m {
				c := m{"name": "ml-prod", "location": "westeurope", "tags": m{"cost-center": "ml"}, "properties": m{"agentPoolProfiles": []any{
					m{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3, "osType": "Linux"},
					m{"name": "gpu", "vmSize": "Standard_D16s_v5", "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 4}}}}
				return c
			}()}},
			addr: "Microsoft.ContainerService/managedClusters/ml-prod",
			want: rview{Kind: KindNodePool, GroupsBefore: 2, GroupsA: 2, Hourly: "10.24 -> 2.53 (max 4.37)", Overlap: "nil",
				Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "westeurope", Source: RegionFromResource, Scale: auto(1, 2, 4), GPUs: 2, MaxGPUs: 4,
					GPUModel: "NVIDIA A100 80GB PCIe", Name: "gpu", Tags: map[string]string{"cost-center": "ml"}},
				After: &sview{SKU: "Standard_D16s_v5", Region: "westeurope", Source: RegionFromResource, Scale: auto(1, 2, 4),
					Name: "gpu", Tags: map[string]string{"cost-center": "ml"}}},
		},
		"agent pool: autoscaling, taints, labels; region from its cluster in the what-if": {
			entries: []wi{{"Microsoft.ContainerService/managedClusters/ml-prod", "NoChange", cluster, cluster},
				{"Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu", "Modify", pool("Standard_NC24ads_A100_v4"), pool("Standard_D16s_v5")}},
			addr: "Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu",
			want: rview{Kind: KindNodePool, GroupsBefore: 1, GroupsA: 1, Hourly: "9.55 -> 1.84 (max 3.68)", Overlap: "nil",
				Before: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "westeurope", Source: RegionFromParent, Scale: auto(1, 2, 4), GPUs: 2, MaxGPUs: 4,
					GPUModel: "NVIDIA A100 80GB PCIe", Name: "gpu", Tags: map[string]string{"cost-center": "ml"}, Labels: map[string]string{"hardware": "gpu"}, Taints: []string{"sku=gpu:NoSchedule"}},
				After: &sview{SKU: "Standard_D16s_v5", Region: "westeurope", Source: RegionFromParent, Scale: auto(1, 2, 4),
					Name: "gpu", Tags: map[string]string{"cost-center": "ml"}, Labels: map[string]string{"hardware": "gpu"}, Taints: []string{"sku=gpu:NoSchedule"}}},
		},
		"agent pool without its cluster has no region": {
			entries: []wi{{"Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu", "Create", nil, pool("Standard_NC24ads_A100_v4")}},
			addr:    "Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu",
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: region unknown: neither the resource nor its provider names a region, and no default region is set"},
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Scale: auto(1, 2, 4), GPUs: 2, MaxGPUs: 4, GPUModel: "NVIDIA A100 80GB PCIe", Name: "gpu",
					Tags: map[string]string{"cost-center": "ml"}, Labels: map[string]string{"hardware": "gpu"}, Taints: []string{"sku=gpu:NoSchedule"}}},
		},
		"ML AmlCompute cluster: scale settings; the type matched in any case": {
			entries: []wi{{"microsoft.machinelearningservices/workspaces/ml/computes/a100", "Create", nil,
				m{"name": "a100", "location": "eastus", "properties": m{"computeType": "AmlCompute",
					"properties": m{"vmSize": "Standard_NC24ads_A100_v4", "vmPriority": "Dedicated", "scaleSettings": m{"minNodeCount": 0, "maxNodeCount": 4}}}}}},
			addr: "microsoft.machinelearningservices/workspaces/ml/computes/a100",
			want: rview{Kind: KindComputeCluster, GroupsA: 1, Hourly: "0 -> 0 (max 14.692)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC24ads_A100_v4", Region: "eastus", Source: RegionFromResource, Scale: auto(0, 0, 4), GPUs: 0, MaxGPUs: 4,
					GPUModel: "NVIDIA A100 80GB PCIe", Name: "a100"}},
		},
		"ML compute instance is one node": {
			entries: []wi{{"Microsoft.MachineLearningServices/workspaces/ml/computes/dev", "Create", nil,
				m{"name": "dev", "location": "eastus", "properties": m{"computeType": "ComputeInstance", "properties": m{"vmSize": "Standard_NC4as_T4_v3"}}}}},
			addr: "Microsoft.MachineLearningServices/workspaces/ml/computes/dev",
			want: rview{Kind: KindComputeCluster, GroupsA: 1, Hourly: "0 -> 0.526 (max 0.526)", Overlap: "nil",
				After: &sview{SKU: "Standard_NC4as_T4_v3", Region: "eastus", Source: RegionFromResource, Scale: fixed(1), GPUs: 1, MaxGPUs: 1,
					GPUModel: "NVIDIA Tesla T4 16GB", Name: "dev"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyzeWhatIf(t, tc.entries...)
			r := rs[tc.addr]
			if r == nil {
				t.Fatalf("no resource %s in %v", tc.addr, rs)
			}
			if d := cmp.Diff(tc.want, view(r)); d != "" {
				t.Errorf("%s (-want +got):\n%s", tc.addr, d)
			}
		})
	}
}
