package infra

import "testing"

// An EC2 type with part of a GPU (g6f: an L4 split in eighths, quarters,
// halves) reads as that share of the GPU, not as CPU-only: the GPU rules
// must see a g6f -> c5 change as a GPU pool losing its GPU.
func TestBulkEC2PartitionedGPU(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		count, mem float64
		model      string
	}{
		"g6f.large":    {0.125, 3, "NVIDIA L4 24GB (1/8 partition)"},
		"g6f.2xlarge":  {0.25, 6, "NVIDIA L4 24GB (1/4 partition)"},
		"gr6f.4xlarge": {0.5, 12, "NVIDIA L4 24GB (1/2 partition)"},
	}
	for name, want := range tests {
		s := DefaultCatalog().Lookup(CloudAWS, name)
		if !s.HasGPU() || s.GPUCount != want.count || s.GPUMemoryGiB != want.mem || s.GPUModel != want.model || s.Accelerator != AcceleratorNVIDIA {
			t.Errorf("Lookup(aws, %s) = %v x %q, %v GiB (%s); want %v x %q, %v GiB (nvidia-gpu)", name, s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator, want.count, want.model, want.mem)
		}
	}
	if s := DefaultCatalog().Lookup(CloudSageMaker, "ml.g6f.large"); s.GPUCount != 0.125 {
		t.Errorf("Lookup(aws-sagemaker, ml.g6f.large) = %v GPUs, want the EC2 type's 0.125", s.GPUCount)
	}
}

// The share is measured against the whole GPU with the most memory, and a
// share that is no unit fraction is written as a decimal; a partition
// whose chip has no whole-GPU type to compare with is unknown, never
// CPU-only.
func TestBulkPartitionShares(t *testing.T) {
	t.Parallel()
	const head = "planwarden-bulk\t1\nsource\taws\t2026-07-20T13:44:30Z\ttest\n"
	row := func(name, gpus, chip, mib string) string {
		return "E\t" + name + "\t8\t32768\t" + gpus + "\t" + chip + "\tnvidia\t" + mib + "\t\t\t\t1.5\ttest\n"
	}
	b, err := ParseBulk([]byte(head +
		row("x1.xlarge", "1", "z9", "40960") + row("x1.small", "2", "z9", "81920") + row("x2.xlarge", "1", "z9", "81920") +
		row("xf.large", "0", "z9", "30720") + row("xf.tiny", "0", "z9", "8192") + row("yf.large", "0", "y1", "4096")))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		count float64
		model string
		known bool
	}{
		"xf.large": {0.375, "NVIDIA Z9 80GB (0.375 of one GPU)", true},
		"xf.tiny":  {0.1, "NVIDIA Z9 80GB (1/10 partition)", true},
		"yf.large": {0, "", false},
	}
	for name, want := range tests {
		s, ok := b.facts(CloudAWS, name)
		if ok != want.known || s.GPUCount != want.count || s.GPUModel != want.model {
			t.Errorf("facts(aws, %s) = %v x %q, %v; want %v x %q, %v", name, s.GPUCount, s.GPUModel, ok, want.count, want.model, want.known)
		}
	}
}
