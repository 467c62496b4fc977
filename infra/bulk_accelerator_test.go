package infra

import "testing"

// An EC2 type only the bulk layer knows (no family rule) gets its
// accelerator from the snapshot's maker and chip: the comment names the
// model, and the kind decides which GPU rules see it.
func TestBulkOnlyEC2AcceleratorKind(t *testing.T) {
	tests := map[string]struct {
		count float64
		model string
		kind  Accelerator
	}{
		"g7.2xlarge":   {1, "NVIDIA RTX PRO 4500 32GB", AcceleratorNVIDIA},
		"dl1.24xlarge": {8, "Habana GAUDI HL 205 32GB", AcceleratorOther},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			s := DefaultCatalog().Lookup(CloudAWS, name)
			if s.GPUCount != want.count || s.GPUModel != want.model || s.Accelerator != want.kind {
				t.Errorf("Lookup(aws, %s) = %v x %q (%s); want %v x %q (%s)", name, s.GPUCount, s.GPUModel, s.Accelerator, want.count, want.model, want.kind)
			}
		})
	}
	// No AMD or Neuron type is bulk-only in today's snapshot; the next one must still be classed.
	for _, c := range []struct {
		maker, chip string
		want        Accelerator
	}{
		{"amd", "instinct-mi355x", AcceleratorAMD},
		{"AMD", "radeon-pro-v720", AcceleratorAMD},
		{"nvidia", "b300", AcceleratorNVIDIA},
		{"aws", "inferentia3", AcceleratorInferentia},
		{"aws", "trainium3", AcceleratorTrainium},
		{"qualcomm", "ai100", AcceleratorOther},
	} {
		if got := acceleratorKind(c.maker, c.chip); got != c.want {
			t.Errorf("acceleratorKind(%q, %q) = %s, want %s", c.maker, c.chip, got, c.want)
		}
	}
}
