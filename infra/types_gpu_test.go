package infra

import "testing"

func TestSideHasGPU(t *testing.T) {
	t.Parallel()
	v100 := SKU{Name: "Standard_NC6s_v3", Accelerator: AcceleratorNVIDIA, GPUCount: 1}
	cases := map[string]struct {
		side *Side
		want bool
	}{
		"no side":              {nil, false},
		"CPU SKU":              {&Side{Groups: []Group{{SKU: SKU{Name: "Standard_D16s_v5"}}}}, false},
		"GPU SKU":              {&Side{Groups: []Group{{SKU: v100}}}, true},
		"GPU in a later group": {&Side{Groups: []Group{{SKU: SKU{Name: "n1-standard-4"}}, {SKU: v100}}}, true},
		"attached T4":          {&Side{Groups: []Group{{SKU: SKU{Name: "n1-standard-4"}, Attached: []Attached{{Type: "nvidia-tesla-t4", Count: 2}}}}}, true},
		"attached, count 0":    {&Side{Groups: []Group{{SKU: SKU{Name: "n1-standard-4"}, Attached: []Attached{{Type: "nvidia-tesla-t4"}}}}}, false},
	}
	for name, tc := range cases {
		if got := tc.side.HasGPU(); got != tc.want {
			t.Errorf("%s: HasGPU() = %v, want %v", name, got, tc.want)
		}
	}
}
