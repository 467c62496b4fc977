package infra

import "testing"

// A group with attached accelerators is never shared (analysis.keep
// compares groups without them): two instances of one machine type
// nobody knows, unpriced for the same reason, keep their own GPUs.
func TestKeepLeavesAttachedGroupsApart(t *testing.T) {
	t.Parallel()
	vm := func(gpu string, n int) map[string]any {
		return map[string]any{"name": "vm", "machine_type": "zz-unknown", "zone": "us-central1-a",
			"guest_accelerator": []any{map[string]any{"type": gpu, "count": n}}}
	}
	tp := tplan{changes: []rc{
		{addr: "google_compute_instance.t4", actions: []string{"create"}, after: vm("nvidia-tesla-t4", 1)},
		{addr: "google_compute_instance.v100", actions: []string{"create"}, after: vm("nvidia-tesla-v100", 2)},
	}}
	want := map[string]Attached{"google_compute_instance.t4": {Type: "nvidia-tesla-t4", Count: 1}, "google_compute_instance.v100": {Type: "nvidia-tesla-v100", Count: 2}}
	rs := analyze(t, tp, Options{})
	if len(rs) != 2 {
		t.Fatalf("%d resources; want 2", len(rs))
	}
	for _, r := range rs {
		g := r.After.Groups[0]
		if len(g.Attached) != 1 || g.Attached[0].Type != want[r.Address].Type || g.Attached[0].Count != want[r.Address].Count || g.Hourly != nil {
			t.Errorf("%s: attached %+v (hourly %v); want %+v, unpriced", r.Address, g.Attached, g.Hourly, want[r.Address])
		}
	}
}
