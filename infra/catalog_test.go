package infra

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestEmbeddedCatalogGPUSKUsHaveGPUFacts(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	if len(cat.SKUs()) == 0 {
		t.Fatal("embedded catalog has no SKUs")
	}
	for _, s := range cat.SKUs() {
		fam, famOK := FamilyFacts(s.Cloud, s.Name)
		gpuByFamily := famOK && fam.HasGPU()
		if !s.HasGPU() && !gpuByFamily {
			if s.GPUCount != 0 || s.GPUModel != "" {
				t.Errorf("%s/%s: no accelerator kind but gpu_count %v, gpu_model %q", s.Cloud, s.Name, s.GPUCount, s.GPUModel)
			}
			continue
		}
		if !s.HasGPU() {
			t.Errorf("%s/%s: family says %v x %s but the catalog row has no GPU facts", s.Cloud, s.Name, fam.GPUCount, fam.GPUModel)
			continue
		}
		if s.GPUModel == "" || s.GPUMemoryGiB <= 0 || s.Accelerator == AcceleratorNone {
			t.Errorf("%s/%s: incomplete GPU facts: model %q, memory %v, kind %q", s.Cloud, s.Name, s.GPUModel, s.GPUMemoryGiB, s.Accelerator)
		}
		// The family rules must agree with every catalog row, so that
		// SKUs beyond the price table get the same answers.
		if !gpuByFamily {
			t.Errorf("%s/%s: catalog says %v x %s; no family rule knows it", s.Cloud, s.Name, s.GPUCount, s.GPUModel)
			continue
		}
		if d := fam.GPUCount - s.GPUCount; d > 0.001 || d < -0.001 || fam.Accelerator != s.Accelerator {
			t.Errorf("%s/%s: family says %v x %s (%s), catalog %v x %s (%s)", s.Cloud, s.Name,
				fam.GPUCount, fam.GPUModel, fam.Accelerator, s.GPUCount, s.GPUModel, s.Accelerator)
		}
		if chip := familyChip(s.Cloud, s.Name); chip == "" || !strings.Contains(s.GPUModel, chip) {
			t.Errorf("%s/%s: catalog model %q does not name the family's %q", s.Cloud, s.Name, s.GPUModel, chip)
		}
	}
}

// familyChip is the short accelerator name the family rules give a SKU.
func familyChip(cloud, name string) string {
	fam, _ := FamilyFacts(cloud, name)
	for _, g := range []gpu{gV100_16, gV100_32, gP100, gP40, gK80, gM60, gT4, gA100_40, gA100_80, gA100_80P, gH100, gH100NVL,
		gH200, gB200, gA10, gA10G, gL4, gL40S, gT4G, gMI25, gMI300X, gV520, gInf1, gInf2, gTrn1, gTrn2} {
		if strings.HasPrefix(fam.GPUModel, g.model) {
			return g.chip
		}
	}
	for _, f := range awsGPU {
		if fam.GPUModel == f.g.model {
			return f.g.chip
		}
	}
	for _, g := range gcpAccelerators {
		if fam.GPUModel == g.model {
			return g.chip
		}
	}
	return ""
}

// sharedCSV is the curated price table beside the repository.
const sharedCSV = "../../shared/data/prices.csv"

func TestEmbeddedCatalogCoversPricesCSV(t *testing.T) {
	t.Parallel()
	fh, err := os.Open(sharedCSV)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (it lives beside the repository, not in it); nothing to compare the catalog with", sharedCSV)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", sharedCSV, err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	cat := DefaultCatalog()
	priced := 0
	for i, r := range rows[1:] {
		cloud, sku, region, price := r[col["cloud"]], r[col["sku"]], r[col["region"]], r[col["price_usd_per_hour"]]
		s := cat.Lookup(cloud, sku)
		if !s.Known || s.FromFamily {
			t.Errorf("line %d: %s/%s is not a catalog row", i+2, cloud, sku)
			continue
		}
		gpus, _ := strconv.ParseFloat(r[col["gpu_count"]], 64)
		if s.GPUCount != gpus || s.GPUModel != r[col["gpu_model"]] {
			t.Errorf("line %d: %s/%s: catalog %v x %q, csv %v x %q", i+2, cloud, sku, s.GPUCount, s.GPUModel, gpus, r[col["gpu_model"]])
		}
		got, ok := cat.Price(cloud, sku, region)
		if price == "" {
			if ok {
				t.Errorf("line %d: %s/%s in %s: csv has no price, catalog has %v", i+2, cloud, sku, region, got)
			}
			continue
		}
		priced++
		want, err := strconv.ParseFloat(price, 64)
		if err != nil {
			t.Fatalf("line %d: price %q: %v", i+2, price, err)
		}
		if !ok || got != want {
			t.Errorf("line %d: %s/%s in %s: catalog %v (found %v), csv %v", i+2, cloud, sku, region, got, ok, want)
		}
	}
	if priced == 0 {
		t.Errorf("%s has no priced rows", sharedCSV)
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	tests := map[string]struct {
		cloud, name string
		known, gpu  bool
		fromFamily  bool
		count       float64
		model       string
		retired     string
	}{
		"catalog row":                      {CloudAzure, "Standard_NC24ads_A100_v4", true, true, false, 1, "NVIDIA A100 80GB PCIe", ""},
		"names match case-insensitively":   {CloudAzure, "standard_nc24ads_a100_v4", true, true, false, 1, "NVIDIA A100 80GB PCIe", ""},
		"retired NCv3 keeps its price row": {CloudAzure, "Standard_NC6s_v3", true, true, false, 1, "NVIDIA Tesla V100 16GB", "2025-09-30"},
		"confidential NCC H100 by family":  {CloudAzure, "Standard_NCC40ads_H100_v5", true, true, true, 1, "NVIDIA H100 NVL 94GB PCIe", ""},
		"ND H100 is 8 GPUs":                {CloudAzure, "Standard_ND96isr_H100_v5", true, true, false, 8, "NVIDIA H100 80GB", ""},
		"NV A10 partition":                 {CloudAzure, "Standard_NV12ads_A10_v5", true, true, true, 0.3333, "NVIDIA A10 24GB (1/3 partition)", ""},
		"NC H100 family":                   {CloudAzure, "Standard_NC80adis_H100_v5", true, true, false, 2, "NVIDIA H100 NVL 94GB PCIe", ""},
		"D-series is CPU only by family":   {CloudAzure, "Standard_D48s_v5", true, false, true, 0, "", ""},
		"unknown N-series":                 {CloudAzure, "Standard_NX12_v9", false, false, false, 0, "", ""},
		"not an Azure size":                {CloudAzure, "p4d.24xlarge", false, false, false, 0, "", ""},
		"p4d family":                       {CloudAWS, "p4d.24xlarge", true, true, false, 8, "NVIDIA A100 40GB", ""},
		"g5 beyond the table: bulk row":    {CloudAWS, "g5.4xlarge", true, true, false, 1, "NVIDIA A10G 24GB", ""},
		"g5 size no row knows: family":     {CloudAWS, "g5.99xlarge", true, true, true, 1, "NVIDIA A10G 24GB", ""},
		"g6e bulk row":                     {CloudAWS, "g6e.12xlarge", true, true, false, 4, "NVIDIA L40S 48GB", ""},
		"inf2 bulk row counts chips":       {CloudAWS, "inf2.48xlarge", true, true, false, 12, "AWS Inferentia2 (accelerator chips)", ""},
		"trn1 bulk row":                    {CloudAWS, "trn1.2xlarge", true, true, false, 1, "AWS Trainium (accelerator chips)", ""},
		"m7i is CPU only (bulk row)":       {CloudAWS, "m7i.large", true, false, false, 0, "", ""},
		"m7i size no row knows: family":    {CloudAWS, "m7i.99xlarge", true, false, true, 0, "", ""},
		"g7 only the bulk file knows":      {CloudAWS, "g7.12xlarge", true, true, false, 2, "NVIDIA RTX PRO 4500 32GB", ""},
		"B300 only the bulk file knows":    {CloudAWS, "p6-b300.48xlarge", true, true, false, 8, "NVIDIA B300 269GB", ""},
		"Gaudi accelerator":                {CloudAWS, "dl1.24xlarge", true, true, false, 8, "Habana GAUDI HL 205 32GB", ""},
		"Qualcomm accelerator chips":       {CloudAWS, "dl2q.24xlarge", true, true, false, 8, "Qualcomm AI100 (accelerator chips)", ""},
		"FPGA type has no GPU":             {CloudAWS, "f1.2xlarge", true, false, false, 0, "", ""},
		"Azure CPU SKU no rule splits":     {CloudAzure, "Standard_E64is_v4_SPECIAL", true, false, false, 0, "", ""},
		"Azure N-series no rule knows":     {CloudAzure, "Standard_NG8ads_V620_v1", false, false, false, 0, "", ""},
		"unknown EC2 family":               {CloudAWS, "zz9.xlarge", false, false, false, 0, "", ""},
		"SageMaker g5 takes EC2's facts":   {CloudSageMaker, "ml.g5.4xlarge", true, true, false, 1, "NVIDIA A10G 24GB", ""},
		"SageMaker size no row knows":      {CloudSageMaker, "ml.g5.99xlarge", true, true, true, 1, "NVIDIA A10G 24GB", ""},
		"SageMaker needs the ml. prefix":   {CloudSageMaker, "g5.xlarge", false, false, false, 0, "", ""},
		"GCP a2 ultra bulk row":            {CloudGCP, "a2-ultragpu-2g", true, true, false, 2, "NVIDIA A100 80GB", ""},
		"GCP a2 type the excerpt lacks":    {CloudGCP, "a2-megagpu-16g", true, true, true, 16, "NVIDIA A100 40GB", ""},
		"GCP a3 bulk row":                  {CloudGCP, "a3-highgpu-1g", true, true, false, 1, "NVIDIA H100 80GB", ""},
		"GCP a3 8-GPU bulk row":            {CloudGCP, "a3-highgpu-8g", true, true, false, 8, "NVIDIA H100 80GB", ""},
		"GCP a3 type the excerpt lacks":    {CloudGCP, "a3-highgpu-4g", true, true, true, 4, "NVIDIA H100 80GB", ""},
		"GCP g2 bulk row with 2 L4":        {CloudGCP, "g2-standard-24", true, true, false, 2, "NVIDIA L4 24GB", ""},
		"GCP e2 bulk row is CPU only":      {CloudGCP, "e2-micro", true, false, false, 0, "", ""},
		"GCP n2 is CPU only (bulk row)":    {CloudGCP, "n2-standard-8", true, false, false, 0, "", ""},
		"GCP n2 the excerpt lacks: family": {CloudGCP, "n2-highmem-8", true, false, true, 0, "", ""},
		"GCP unknown family":               {CloudGCP, "zz-standard-8", false, false, false, 0, "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := cat.Lookup(tc.cloud, tc.name)
			if s.Known != tc.known || s.HasGPU() != tc.gpu || s.FromFamily != tc.fromFamily || s.GPUCount != tc.count ||
				s.GPUModel != tc.model || s.RetiredOn != tc.retired || s.Name != tc.name {
				t.Errorf("Lookup(%s, %s) = known %v gpu %v family %v %v x %q retired %q name %q; want known %v gpu %v family %v %v x %q retired %q",
					tc.cloud, tc.name, s.Known, s.HasGPU(), s.FromFamily, s.GPUCount, s.GPUModel, s.RetiredOn, s.Name,
					tc.known, tc.gpu, tc.fromFamily, tc.count, tc.model, tc.retired)
			}
		})
	}
}

func TestCatalogPrice(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	tests := map[string]struct {
		cloud, sku, region string
		want               float64
		ok                 bool
	}{
		"seed's NC6s_v3 in westeurope":         {CloudAzure, "Standard_NC6s_v3", "westeurope", 3.823, true},
		"region as the portal writes it":       {CloudAzure, "Standard_NC6s_v3", "West Europe", 3.823, true},
		"ND96asr_v4 has no eastus2 price":      {CloudAzure, "Standard_ND96asr_v4", "eastus2", 0, false},
		"P4 price after the mid-2025 cut":      {CloudAWS, "p4d.24xlarge", "us-east-1", 21.957642, true},
		"P5 price after the mid-2025 cut":      {CloudAWS, "p5.48xlarge", "us-west-2", 55.04, true},
		"family-only SKU has no price":         {CloudAWS, "g5.99xlarge", "us-east-1", 0, false},
		"bulk EC2 price in us-east-1":          {CloudAWS, "g5.4xlarge", "us-east-1", 1.624, true},
		"bulk EC2 price is us-east-1 only":     {CloudAWS, "t3.micro", "eu-west-1", 0, false},
		"bulk Azure price in any region":       {CloudAzure, "Standard_D2s_v3", "brazilsouth", 0.159, true},
		"curated price wins over bulk":         {CloudAzure, "Standard_NC24ads_A100_v4", "eastus", 3.673, true},
		"SageMaker row without a named source": {CloudSageMaker, "ml.m5.large", "us-east-1", 0, false},
		"GCP per-GPU attach price":             {CloudGCP, "gpu:nvidia-tesla-t4", "us-central1", 0.35, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := cat.Price(tc.cloud, tc.sku, tc.region)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Price(%s, %s, %s) = %v, %v; want %v, %v", tc.cloud, tc.sku, tc.region, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestCatalogAge(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	if cat.Generated().IsZero() {
		t.Error("Generated() is zero")
	}
	oldest, newest := cat.Observed()
	// prices.csv: SageMaker's table last changed 2025-01-26; GCP machine prices 2026-07-30.
	if oldest != "2025-01-26" || newest != "2026-07-30" {
		t.Errorf("Observed() = %s, %s; want 2025-01-26, 2026-07-30", oldest, newest)
	}
	p, ok := cat.PriceInfo(CloudAzure, "Standard_NC6s_v3", "westeurope")
	if !ok || !strings.HasPrefix(p.Observed, "2026-06-18") || !strings.Contains(p.Source, "karpenter-provider-azure") {
		t.Errorf("PriceInfo(NC6s_v3, westeurope) = %+v, %v; want the 2026-06-18 karpenter-provider-azure snapshot", p, ok)
	}
}

func TestParseCatalogErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		json, want string
	}{
		"wrong format":     {`{"format":2,"skus":[]}`, "catalog format 2: want 1"},
		"unknown field":    {`{"format":1,"skus":[],"extra":1}`, `unknown field "extra"`},
		"unknown cloud":    {`{"format":1,"skus":[{"cloud":"oracle","name":"x"}]}`, `skus[0] x: cloud "oracle"`},
		"duplicate":        {`{"format":1,"skus":[{"cloud":"aws","name":"m5.large"},{"cloud":"aws","name":"M5.large"}]}`, "skus[1] aws/M5.large: duplicate sku"},
		"zero price":       {`{"format":1,"skus":[{"cloud":"aws","name":"m5.large","prices":[{"region":"us-east-1","usd_per_hour":0}]}]}`, "prices[0].usd_per_hour 0 in us-east-1 is not positive"},
		"region twice":     {`{"format":1,"skus":[{"cloud":"aws","name":"m5.large","prices":[{"region":"us-east-1","usd_per_hour":1},{"region":"US-East-1","usd_per_hour":2}]}]}`, "prices[1]: region US-East-1 priced twice"},
		"gpu without kind": {`{"format":1,"skus":[{"cloud":"aws","name":"g5.xlarge","gpu_count":1}]}`, "gpu_count 1 needs gpu_model and accelerator"},
		"not json":         {`{`, "decode catalog"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseCatalog([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseCatalog: error %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestCloudOf(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"azurerm_kubernetes_cluster_node_pool": CloudAzure,
		"aws_sagemaker_endpoint":               CloudSageMaker,
		"aws_instance":                         CloudAWS,
		"google_container_node_pool":           CloudGCP,
		"null_resource":                        "",
	}
	for typ, want := range tests {
		if got := CloudOf(typ); got != want {
			t.Errorf("CloudOf(%q) = %q, want %q", typ, got, want)
		}
	}
}
