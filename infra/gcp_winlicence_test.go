package infra

import "testing"

// A Windows GCE instance or GKE pool pays a Windows licence on top of the
// machine type's Linux price: it is unpriced like any Windows VM, never
// shown at the Linux price.
func TestGCPWindowsIsUnpriced(t *testing.T) {
	t.Parallel()
	gce := func(image string) tplan {
		return tplan{changes: []rc{{addr: "google_compute_instance.w", actions: []string{"create"},
			after: map[string]any{"name": "w", "machine_type": "n1-standard-4", "zone": "us-central1-a",
				"boot_disk": []any{map[string]any{"initialize_params": []any{map[string]any{"image": image}}}}}}}}
	}
	gke := func(imageType string) tplan {
		return tplan{changes: []rc{{addr: "google_container_node_pool.w", actions: []string{"create"},
			after: map[string]any{"name": "w", "location": "us-central1-a", "node_count": 2,
				"node_config": []any{map[string]any{"machine_type": "n1-standard-4", "image_type": imageType}}}}}}
	}
	vm := &sview{SKU: "n1-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), Name: "w"}
	pool := func(img string) *sview {
		return &sview{SKU: "n1-standard-4", Region: "us-central1", Source: RegionFromResource, Scale: fixed(2), Name: "w", ImageType: img}
	}
	windows := []string{"after: Windows: the catalog has Linux prices only"}
	runAdapterCases(t, map[string]adapterCase{
		"GCE from a windows-cloud image family": {
			plan: gce("windows-cloud/windows-2022"),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: windows, After: vm},
		},
		"GCE from a Windows image URL": {
			plan: gce("https://www.googleapis.com/compute/v1/projects/windows-cloud/global/images/windows-server-2022-dc-v20240415"),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: windows, After: vm},
		},
		"GCE from a Linux image keeps its price": {
			plan: gce("debian-cloud/debian-12"),
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> 0.189999 (max 0.189999)", Overlap: "nil", After: vm},
		},
		"GKE Windows node pool": {
			plan: gke("WINDOWS_LTSC_CONTAINERD"),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil", Unpriced: windows, After: pool("WINDOWS_LTSC_CONTAINERD")},
		},
		"GKE Container-Optimized OS pool keeps its price": {
			plan: gke("COS_CONTAINERD"),
			want: rview{Kind: KindNodePool, GroupsA: 1, Hourly: "0 -> 0.379998 (max 0.379998)", Overlap: "nil", After: pool("COS_CONTAINERD")},
		},
	})
}

// A guest accelerator whose count (or type) is known only after apply
// leaves the machine unpriced, never priced as the machine type alone.
func TestGCEAcceleratorKnownAfterApply(t *testing.T) {
	t.Parallel()
	runAdapterCases(t, map[string]adapterCase{
		"T4 count known after apply": {
			plan: tplan{changes: []rc{{addr: "google_compute_instance.w", actions: []string{"create"},
				after: map[string]any{"name": "w", "machine_type": "n1-standard-8", "zone": "us-central1-a",
					"guest_accelerator": []any{map[string]any{"type": "nvidia-tesla-t4"}}},
				unknown: map[string]any{"guest_accelerator": []any{map[string]any{"count": true}}}}}},
			want: rview{Kind: KindVM, GroupsA: 1, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: []string{"after: attached accelerator type or count known only after apply"},
				After:    &sview{SKU: "n1-standard-8", Region: "us-central1", Source: RegionFromResource, Scale: fixed(1), Name: "w"}},
		},
	})
	r := analyze(t, tplan{changes: []rc{{addr: "google_compute_instance.w", actions: []string{"create"},
		after:   map[string]any{"name": "w", "machine_type": "n1-standard-8", "zone": "us-central1-a", "guest_accelerator": []any{map[string]any{"type": "nvidia-tesla-t4"}}},
		unknown: map[string]any{"guest_accelerator": []any{map[string]any{"count": true}}}}}}, Options{})[0]
	if r.After.GPUsKnown() {
		t.Errorf("fleet GPUs of an instance whose accelerator count is unknown read as known (%v)", r.After.GPUs(false))
	}
}
