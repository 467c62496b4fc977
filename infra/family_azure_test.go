package infra

import "testing"

// One row per Azure family rule: what the comment says of a GPU SKU the
// price catalog does not list (its accelerators, their memory, and the
// retired-sku date), from the name alone.
func TestAzureFamilyRules(t *testing.T) {
	type facts struct {
		count   float64
		model   string
		memGiB  float64
		kind    Accelerator
		retired string
	}
	tests := map[string]facts{
		"Standard_NC6s_v3":           {1, "NVIDIA Tesla V100 16GB", 16, AcceleratorNVIDIA, "2025-09-30"},
		"Standard_NC24rs_v3":         {4, "NVIDIA Tesla V100 16GB", 64, AcceleratorNVIDIA, ""},
		"Standard_NC12s_v2":          {2, "NVIDIA Tesla P100 16GB", 32, AcceleratorNVIDIA, "2023-09-06"},
		"Standard_NC24":              {4, "NVIDIA Tesla K80 12GB", 48, AcceleratorNVIDIA, "2023-09-06"},
		"Standard_ND12s":             {2, "NVIDIA Tesla P40 24GB", 48, AcceleratorNVIDIA, "2023-09-06"},
		"Standard_ND40rs_v2":         {8, "NVIDIA Tesla V100 32GB", 256, AcceleratorNVIDIA, ""},
		"Standard_ND96asr_v4":        {8, "NVIDIA A100 40GB", 320, AcceleratorNVIDIA, ""},
		"Standard_ND96amsr_A100_v4":  {8, "NVIDIA A100 80GB", 640, AcceleratorNVIDIA, ""},
		"Standard_ND96isr_H100_v5":   {8, "NVIDIA H100 80GB", 640, AcceleratorNVIDIA, ""},
		"Standard_ND96isr_H200_v5":   {8, "NVIDIA H200 141GB", 1128, AcceleratorNVIDIA, ""},
		"Standard_ND96isr_MI300X_v5": {8, "AMD Instinct MI300X 192GB", 1536, AcceleratorAMD, ""},
		"Standard_NC4as_T4_v3":       {1, "NVIDIA Tesla T4 16GB", 16, AcceleratorNVIDIA, ""},
		"Standard_NC64as_T4_v3":      {4, "NVIDIA Tesla T4 16GB", 64, AcceleratorNVIDIA, ""},
		"Standard_NC48ads_A100_v4":   {2, "NVIDIA A100 80GB PCIe", 160, AcceleratorNVIDIA, ""},
		"Standard_NC80adis_H100_v5":  {2, "NVIDIA H100 NVL 94GB PCIe", 188, AcceleratorNVIDIA, ""},
		"Standard_NCC40ads_H100_v5":  {1, "NVIDIA H100 NVL 94GB PCIe", 94, AcceleratorNVIDIA, ""},
		"Standard_NV36ads_A10_v5":    {1, "NVIDIA A10 24GB", 24, AcceleratorNVIDIA, ""},
		"Standard_NV6ads_A10_v5":     {0.1667, "NVIDIA A10 24GB (1/6 partition)", 4.0008, AcceleratorNVIDIA, ""},
		"Standard_NV24s_v3":          {2, "NVIDIA Tesla M60 8GB", 16, AcceleratorNVIDIA, ""},
		"Standard_NV32as_v4":         {1, "AMD Radeon Instinct MI25 16GB", 16, AcceleratorAMD, ""},
		"Standard_NV12":              {2, "NVIDIA Tesla M60 8GB", 16, AcceleratorNVIDIA, "2023-09-06"},
		"Standard_D4s_v5":            {},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			s, ok := FamilyFacts(CloudAzure, name)
			got := facts{s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator, s.RetiredOn}
			if !ok || got != want {
				t.Errorf("FamilyFacts(azure, %s) = %+v (known %v); want %+v", name, got, ok, want)
			}
		})
	}
	if s, ok := FamilyFacts(CloudAzure, "Standard_NX9_v9"); ok {
		t.Errorf("FamilyFacts(azure, Standard_NX9_v9) = %+v; want no family rule to know it", s)
	}
}
