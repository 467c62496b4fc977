package infra

import "testing"

// ARM lists every pool in a cluster's agentPoolProfiles, those declared as
// agentPools resources too: a pool the what-if also lists as its own
// resource is priced there, once, not again in the cluster's figure.
func TestARMPoolListedTwiceIsPricedOnce(t *testing.T) {
	t.Parallel()
	cluster := m{"name": "ml", "location": "westeurope", "properties": m{"agentPoolProfiles": []any{
		m{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3, "osType": "Linux"},
		m{"name": "gpu", "vmSize": "Standard_NC24ads_A100_v4", "count": 2, "osType": "Linux"},
	}}}
	pool := m{"name": "ml/gpu", "properties": m{"vmSize": "Standard_NC24ads_A100_v4", "count": 2, "osType": "Linux"}}
	const cl = "Microsoft.ContainerService/managedClusters/ml"
	rs := analyzeWhatIf(t,
		wi{cl, "NoChange", cluster, cluster},
		wi{cl + "/agentPools/gpu", "NoChange", pool, pool})
	for addr, want := range map[string]string{
		cl:                     "0.69 -> 0.69 (max 0.69)",
		cl + "/agentPools/gpu": "9.55 -> 9.55 (max 9.55)",
	} {
		r := rs[addr]
		if r == nil {
			t.Fatalf("no resource %s", addr)
		}
		got := fmtPtr(r.Cost.HourlyBefore) + " -> " + fmtPtr(r.Cost.HourlyAfter) + " (max " + fmtPtr(r.Cost.MaxHourlyAfter) + ")"
		if got != want {
			t.Errorf("%s: hourly %s, want %s", addr, got, want)
		}
	}
	if s := rs[cl].After; s.SKU != "Standard_D4s_v5" || len(s.Groups) != 1 {
		t.Errorf("cluster side: SKU %s with %d groups, want Standard_D4s_v5 alone", s.SKU, len(s.Groups))
	}
	// Without the pool's own entry, the cluster prices both.
	alone := analyzeWhatIf(t, wi{cl, "NoChange", cluster, cluster})
	if got := fmtPtr(alone[cl].Cost.HourlyAfter); got != "10.24" {
		t.Errorf("cluster alone: hourly %s, want 10.24", got)
	}
}
