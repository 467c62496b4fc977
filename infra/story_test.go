package infra

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// The seed's story: someone "fixes" a GPU pool's vm_size, Terraform
// replaces the pool, and the GPUs are gone. planwarden must say so, with
// the hourly change at the expected and the maximum scale, in the
// cluster's region.
func TestSeedStoryAKSGPUPoolReplacedWithCPUSKU(t *testing.T) {
	t.Parallel()
	const id = "/subscriptions/0000/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/ml-prod"
	cluster := map[string]any{"id": id, "name": "ml-prod", "location": "westeurope",
		"default_node_pool": []any{map[string]any{"name": "system", "vm_size": "Standard_D4s_v5", "node_count": 3}}}
	pool := func(size string) map[string]any {
		return map[string]any{"name": "gpu", "kubernetes_cluster_id": id, "vm_size": size,
			"enable_auto_scaling": true, "node_count": 2, "min_count": 1, "max_count": 4,
			"node_labels": map[string]any{"hardware": "gpu"}, "node_taints": []any{"nvidia.com/gpu=present:NoSchedule"}}
	}
	tp := tplan{changes: []rc{
		{addr: "azurerm_kubernetes_cluster.main", actions: []string{"no-op"}, before: cluster, after: cluster},
		{addr: "azurerm_kubernetes_cluster_node_pool.gpu", actions: []string{"delete", "create"},
			before: pool("Standard_NC6s_v3"), after: pool("Standard_D16s_v5"), replace: [][]any{{"vm_size"}}},
	}}
	rs := analyze(t, tp, Options{})
	checkSeedStory(t, rs, "azurerm_kubernetes_cluster_node_pool.gpu", [5]string{"7.646", "1.84", "-5.806", "15.292", "3.68"})
}

// The lead's example plan tells the same story.
func TestSeedStoryExamplePlan(t *testing.T) {
	t.Parallel()
	const file = "../examples/plans/aks-gpu-typo.json"
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse(file, b)
	if err != nil {
		t.Fatal(err)
	}
	// The plan gives the pool's nodes a 256 GiB OS disk: Premium SSD P15
	// (38.02 a month, 0.052082 an hour) on both SKUs, so the delta stays.
	checkSeedStory(t, Analyze(p, DefaultCatalog(), Options{}), "azurerm_kubernetes_cluster_node_pool.gpu",
		[5]string{"7.750164", "1.944164", "-5.806", "15.500328", "3.888328"})
}

func checkSeedStory(t *testing.T, rs []*Resource, addr string, want [5]string) {
	t.Helper()
	var r *Resource
	for _, x := range rs {
		if x.Address == addr {
			r = x
		}
	}
	if r == nil {
		t.Fatalf("no resource %s among %d", addr, len(rs))
	}
	if r.Action != planparse.ActionReplace || r.Before == nil || r.After == nil {
		t.Fatalf("%s: action %s, before %v, after %v; want a replace with both sides", addr, r.Action, r.Before, r.After)
	}
	b, a := r.Before.Groups[0], r.After.Groups[0]

	// GPUs lost: 1 x V100 per node -> none.
	if b.SKU.GPUCount != 1 || b.SKU.GPUModel != "NVIDIA Tesla V100 16GB" || !b.SKU.HasGPU() {
		t.Errorf("before: %v x %q per node, want 1 x NVIDIA Tesla V100 16GB", b.SKU.GPUCount, b.SKU.GPUModel)
	}
	if !b.SKU.Retired || b.SKU.RetiredOn != "2025-09-30" {
		t.Errorf("before: Standard_NC6s_v3 retired %v on %q, want retired on 2025-09-30", b.SKU.Retired, b.SKU.RetiredOn)
	}
	if a.SKU.HasGPU() || !a.SKU.Known || a.SKU.Name != "Standard_D16s_v5" {
		t.Errorf("after: %s known %v has GPU %v; want a known CPU-only Standard_D16s_v5", a.SKU.Name, a.SKU.Known, a.SKU.HasGPU())
	}
	if got, want := [4]float64{r.Before.GPUs(false), r.Before.GPUs(true), r.After.GPUs(false), r.After.GPUs(true)}, [4]float64{2, 4, 0, 0}; got != want {
		t.Errorf("GPUs before (expected, max), after (expected, max) = %v, want %v", got, want)
	}

	// In the parent cluster's region, where NC6s_v3 is 3.823/h.
	for _, s := range []*Side{r.Before, r.After} {
		if s.Region != "westeurope" || s.RegionSource != RegionFromParent {
			t.Errorf("region %q from %q, want westeurope from the parent cluster", s.Region, s.RegionSource)
		}
	}
	if b.Hourly == nil || *b.Hourly != 3.823 || a.Hourly == nil || *a.Hourly != 0.92 {
		t.Errorf("per node: before %s, after %s; want 3.823, 0.92", fmtPtr(b.Hourly), fmtPtr(a.Hourly))
	}

	// The hourly change at node_count (2) and at max_count (4).
	c := r.Cost
	got := [5]string{fmtPtr(c.HourlyBefore), fmtPtr(c.HourlyAfter), fmtPtr(c.Delta()), fmtPtr(c.MaxHourlyBefore), fmtPtr(c.MaxHourlyAfter)}
	if got != want {
		t.Errorf("hourly before, after, delta, max before, max after = %v, want %v", got, want)
	}
	if c.OverlapHourly != nil || len(c.Unpriced) != 0 {
		t.Errorf("delete-then-create: overlap %s, unpriced %v; want none", fmtPtr(c.OverlapHourly), c.Unpriced)
	}
}
