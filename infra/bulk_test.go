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

// bulkDir holds the bulk snapshots the embedded bulk catalog is made from.
const bulkDir = "../../shared/data/catalog/"

func readBulkFile(t *testing.T, name string) [][]string {
	t.Helper()
	fh, err := os.Open(bulkDir + name)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s%s is absent (it lives beside the repository, not in it); nothing to compare the catalog with", bulkDir, name)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows
}

// readEC2File reads the EC2 bulk file and indexes its columns by name.
func readEC2File(t *testing.T) ([][]string, map[string]int) {
	t.Helper()
	rows := readBulkFile(t, "aws-ec2.csv")
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	return rows, col
}

// sample50 returns 50 rows spread evenly over a file's data rows, with
// their line numbers, first and last included.
func sample50(rows [][]string) map[int][]string {
	out := map[int][]string{}
	data := rows[1:]
	for i := 0; i < 50; i++ {
		j := i * (len(data) - 1) / 49
		out[j+2] = data[j]
	}
	return out
}

func TestEmbeddedBulkReproducesAzureSample(t *testing.T) {
	t.Parallel()
	rows := readBulkFile(t, "azure-vm-prices.csv")
	cat := DefaultCatalog()
	for line, r := range sample50(rows) {
		sku, region, price := r[0], r[1], r[2]
		want, err := strconv.ParseFloat(price, 64)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		q, ok := cat.Quote(CloudAzure, sku, region)
		if want == 0 {
			// A zero meter is not a price: pricegen leaves it out.
			if ok {
				t.Errorf("line %d: %s in %s: csv price 0, catalog quotes %v", line, sku, region, q.USDPerHour)
			}
			continue
		}
		if !ok || q.USDPerHour != want || q.Basis != BasisExact || q.Region != region {
			t.Errorf("line %d: %s in %s: catalog %v %s %s (found %v), csv %v", line, sku, region, q.USDPerHour, q.Basis, q.Region, ok, want)
		}
		if !cat.Lookup(CloudAzure, sku).Known && !strings.HasPrefix(strings.ToUpper(strings.TrimPrefix(sku, "Standard_")), "N") {
			t.Errorf("line %d: %s: a priced CPU SKU is not known", line, sku)
		}
	}
}

func TestEmbeddedBulkReproducesEC2Sample(t *testing.T) {
	t.Parallel()
	rows, col := readEC2File(t)
	cat := DefaultCatalog()
	whole := wholeGPUMiB(rows, col)
	for line, r := range sample50(rows) {
		checkEC2Row(t, cat, line, r, col, whole)
	}
}

// TestEmbeddedBulkHasEveryAcceleratedEC2Type checks the GPU facts of every
// GPU and accelerator type of the EC2 file, not a sample: a type the
// catalog thinks has no GPU would turn a GPU loss into a pass.
func TestEmbeddedBulkHasEveryAcceleratedEC2Type(t *testing.T) {
	t.Parallel()
	rows, col := readEC2File(t)
	cat := DefaultCatalog()
	n, parts := 0, 0
	whole := wholeGPUMiB(rows, col)
	for i, r := range rows[1:] {
		if r[col["gpu_count"]] == "" && r[col["accelerator_count"]] == "" {
			continue
		}
		n++
		if r[col["gpu_count"]] == "0" {
			parts++
		}
		checkEC2Row(t, cat, i+2, r, col, whole)
	}
	if parts == 0 {
		t.Errorf("no type with part of a GPU (g6f) in the EC2 file")
	}
	if n < 50 {
		t.Errorf("only %d accelerated types in the EC2 file", n)
	}
}

// wholeGPUMiB is, for each GPU chip of the EC2 file, the most memory one
// whole GPU of it has.
func wholeGPUMiB(rows [][]string, col map[string]int) map[string]float64 {
	out := map[string]float64{}
	for _, r := range rows[1:] {
		if n, _ := strconv.Atoi(r[col["gpu_count"]]); n > 0 {
			mib, _ := strconv.ParseFloat(r[col["gpu_memory_mib_per_gpu"]], 64)
			out[r[col["gpu_name"]]] = max(out[r[col["gpu_name"]]], mib)
		}
	}
	return out
}

// checkEC2Row checks the catalog's facts and price of one row of the EC2
// file. A row with a GPU chip and a GPU count of 0 has part of a GPU: its
// count is its GPU memory's share of the chip's whole GPU (whole).
func checkEC2Row(t *testing.T, cat *Catalog, line int, r []string, col map[string]int, whole map[string]float64) {
	t.Helper()
	name := r[col["instance_type"]]
	gpus, _ := strconv.Atoi(r[col["gpu_count"]])
	accels, _ := strconv.Atoi(r[col["accelerator_count"]])
	vcpu, _ := strconv.Atoi(r[col["vcpu"]])
	want := float64(gpus + accels)
	if chip := r[col["gpu_name"]]; want == 0 && chip != "" {
		mib, _ := strconv.ParseFloat(r[col["gpu_memory_mib_per_gpu"]], 64)
		want = round4(mib / whole[chip])
	}
	s := cat.Lookup(CloudAWS, name)
	if !s.Known || s.GPUCount != want || s.HasGPU() != (want > 0) {
		t.Errorf("line %d: %s: catalog known %v, %v x %q (%s); file %d GPUs + %d accelerators, want %v", line, name, s.Known, s.GPUCount, s.GPUModel, s.Accelerator, gpus, accels, want)
	}
	if curated := cat.rows[key(CloudAWS, name)]; curated == nil && s.VCPU != vcpu {
		t.Errorf("line %d: %s: catalog %d vCPU, file %d", line, name, s.VCPU, vcpu)
	}
	price := r[col["usd_per_hour_us_east_1"]]
	q, ok := cat.Quote(CloudAWS, name, "us-east-1")
	if price == "" {
		if ok && cat.rows[key(CloudAWS, name)] == nil {
			t.Errorf("line %d: %s: file has no us-east-1 price, catalog %v", line, name, q.USDPerHour)
		}
		return
	}
	want, err := strconv.ParseFloat(price, 64)
	if err != nil {
		t.Fatalf("line %d: %v", line, err)
	}
	if !ok || q.USDPerHour != want || q.Basis != BasisExact {
		t.Errorf("line %d: %s in us-east-1: catalog %v %s (found %v), file %v", line, name, q.USDPerHour, q.Basis, ok, want)
	}
	// Elsewhere it is the same list price, never passed off as exact.
	if q, ok := cat.Quote(CloudAWS, name, "eu-central-1"); !ok || q.USDPerHour != want || q.Basis != BasisApproximate || q.Region != "us-east-1" {
		t.Errorf("line %d: %s in eu-central-1: %v %s %s (found %v); want %v approximate us-east-1", line, name, q.USDPerHour, q.Basis, q.Region, ok, want)
	}
}

// TestEmbeddedBulkParses checks every row of the embedded bulk table (at
// run time rows are parsed only when looked up).
func TestEmbeddedBulkParses(t *testing.T) {
	t.Parallel()
	b, err := ParseBulk([]byte(embeddedBulk))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.azure) < 1000 || len(b.ec2) < 1000 || len(b.azureRegions) < 50 {
		t.Errorf("embedded bulk table has %d Azure SKUs in %d regions and %d EC2 types", len(b.azure), len(b.azureRegions), len(b.ec2))
	}
}

// BenchmarkFirstBulkLookup is what a process pays on its first price the
// curated rows do not have: indexing the embedded table and one lookup.
func BenchmarkFirstBulkLookup(b *testing.B) {
	for b.Loop() {
		bk, err := indexEmbeddedBulk()
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := bk.ec2Price("m5.xlarge"); !ok {
			b.Fatal("m5.xlarge has no price")
		}
		if _, ok := bk.gcpPrice("n1-standard-1", "us-central1"); !ok {
			b.Fatal("n1-standard-1 has no price")
		}
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	tests := map[string]struct {
		cloud, sku, region string
		want               float64
		basis, priceRegion string
		ok                 bool
	}{
		"curated us-west-2 price is exact":        {CloudAWS, "p5.48xlarge", "us-west-2", 55.04, BasisExact, "us-west-2", true},
		"EC2 CPU type in us-west-2: us-east-1":    {CloudAWS, "m5.xlarge", "us-west-2", 0.192, BasisApproximate, "us-east-1", true},
		"EC2 type in us-east-1 is exact":          {CloudAWS, "t3.micro", "us-east-1", 0.0104, BasisExact, "us-east-1", true},
		"EC2 type without any price":              {CloudAWS, "hpc6a.48xlarge", "us-west-2", 0, "", "", false},
		"Azure is never approximated":             {CloudAzure, "Standard_NC24ads_A100_v4", "norwayeast", 0, "", "", false},
		"SageMaker is never approximated":         {CloudSageMaker, "ml.g5.xlarge", "eu-west-1", 0, "", "", false},
		"EC2 type, region unknown: us-east-1":     {CloudAWS, "m5.xlarge", "", 0.192, BasisApproximate, "us-east-1", true},
		"Azure SKU, region unknown: no price":     {CloudAzure, "Standard_D2s_v3", "", 0, "", "", false},
		"Azure bulk region as the portal says":    {CloudAzure, "Standard_D2s_v3", "Brazil South", 0.159, BasisExact, "brazilsouth", true},
		"prices.csv's missing price stays absent": {CloudAzure, "Standard_ND96asr_v4", "eastus2", 0, "", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			q, ok := cat.Quote(tc.cloud, tc.sku, tc.region)
			if ok != tc.ok || q.USDPerHour != tc.want || q.Basis != tc.basis || q.Region != tc.priceRegion {
				t.Errorf("Quote(%s, %s, %q) = %v %s %s, %v; want %v %s %s, %v", tc.cloud, tc.sku, tc.region,
					q.USDPerHour, q.Basis, q.Region, ok, tc.want, tc.basis, tc.priceRegion, tc.ok)
			}
		})
	}
}

func TestParseBulkErrors(t *testing.T) {
	t.Parallel()
	const head = "planwarden-bulk\t1\nregions\teastus\twestus\n"
	const gcpHead = "planwarden-bulk\t1\ngcp-regions\tus-central1\n"
	tests := map[string]struct {
		data string
		want string
	}{
		"empty":                {"", "empty"},
		"other format":         {"planwarden-bulk\t2\n", "line 1: header"},
		"region out of range":  {head + "A\tStandard_D2s_v3\t2=0.1\n", "line 3: Standard_D2s_v3: region index \"2\""},
		"zero price":           {head + "A\tStandard_D2s_v3\t0=0\n", "line 3: Standard_D2s_v3: price \"0\" in eastus is not positive"},
		"azure row, no prices": {head + "A\tStandard_D2s_v3\n", "line 3: Standard_D2s_v3: azure row without prices"},
		"short ec2 row":        {head + "E\tm5.large\t2\n", "line 3: m5.large: ec2 row has 1 fields after the name, want 11"},
		"ec2 count not number": {head + "E\tg5.xlarge\t4\t16384\tone\ta10g\tnvidia\t22888\t\t\t\t1.006\tpreview\n", "line 3: g5.xlarge: gpu_count \"one\""},
		"unknown row":          {head + "Z\tx\n", "line 3: unknown row kind \"Z\""},
		"source of a cloud":    {"planwarden-bulk\t1\nsource\toracle\t2026\tx\n", "line 2: source for unknown cloud \"oracle\""},
		"gcp row, no prices":   {gcpHead + "G\tn1-standard-1\t1\t3.75\t0\t\t\n", "line 3: n1-standard-1: gcp row without prices"},
		"gcp short row":        {gcpHead + "G\tn1-standard-1\t1\t3.75\n", "line 3: n1-standard-1: gcp row has 2 fields after the name"},
		"gcp vcpu":             {gcpHead + "G\tn1-standard-1\tone\t3.75\t0\t\t0=0.1\n", "line 3: n1-standard-1: vcpu \"one\""},
		"gcp gpu without type": {gcpHead + "G\ta2-highgpu-1g\t12\t85\t1\t\t0=3.6\n", "line 3: a2-highgpu-1g: gpu_count 1 with accelerator type \"\""},
		"gcp unknown gpu type": {gcpHead + "G\ta2-highgpu-1g\t12\t85\t1\tnvidia-zz\t0=3.6\n", "accelerator type \"nvidia-zz\""},
		"gcp region index":     {gcpHead + "G\tn1-standard-1\t1\t3.75\t0\t\t1=0.1\n", "line 3: n1-standard-1: region index \"1\" is not one of the 1 regions"},
		"gcp zero price":       {gcpHead + "G\tn1-standard-1\t1\t3.75\t0\t\t0=0\n", "price \"0\" in us-central1 is not positive"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseBulk([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseBulk: error %v; want one containing %q", err, tc.want)
			}
		})
	}
}

// gcpObserved is when the GCP bulk layer's pricing.yml was generated.
const gcpObserved = "2025-03-06T03:53:56Z"

func TestEmbeddedGCPBulkPrices(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	tests := map[string]struct {
		sku, region string
		want        float64
		observed    string
		ok          bool
	}{
		"n1-standard-1, the corpus's type":   {"n1-standard-1", "us-central1", 0.04749975, gcpObserved, true},
		"e2-micro in London":                 {"e2-micro", "europe-west2", 0.010791945, gcpObserved, true},
		"f1-micro":                           {"f1-micro", "us-central1", 0.0076, gcpObserved, true},
		"names match case-insensitively":     {"E2-Medium", "us-central1", 0.03350571, gcpObserved, true},
		"curated row wins in its region":     {"n1-standard-4", "us-central1", 0.189999, "2026-07-30T06:13:17Z", true},
		"bulk prices the curated row's rest": {"n1-standard-4", "europe-west2", 0.24479, gcpObserved, true},
		"curated g2 price (rounded) wins":    {"g2-standard-4", "us-central1", 0.706832, "2026-07-30T06:13:17Z", true},
		"bulk g2 price elsewhere":            {"g2-standard-4", "us-east4", 0.704517808, gcpObserved, true},
		"region priced as spot only: none":   {"n1-standard-1", "northamerica-south1", 0, "", false},
		"a region the file does not have":    {"e2-small", "blah", 0, "", false},
		"a machine type the layer lacks":     {"c3-standard-4", "us-central1", 0, "", false},
		"an Azure SKU is not a GCP type":     {"Standard_D2s_v3", "eastus", 0, "", false},
		"a zone is not a region (adapter's)": {"e2-micro", "europe-west2-a", 0, "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, ok := cat.PriceInfo(CloudGCP, tc.sku, tc.region)
			if ok != tc.ok || p.USDPerHour != tc.want || p.Observed != tc.observed {
				t.Errorf("PriceInfo(gcp, %s, %s) = %v observed %q, %v; want %v observed %q, %v", tc.sku, tc.region, p.USDPerHour, p.Observed, ok, tc.want, tc.observed, tc.ok)
			}
			if ok && tc.observed == gcpObserved && !strings.Contains(p.Source, "Cyclenerd/google-cloud-pricing-cost-calculator@0166a59ebba7:pricing.yml") {
				t.Errorf("source %q does not name the pricing.yml commit", p.Source)
			}
		})
	}
	if q, ok := cat.Quote(CloudGCP, "n1-standard-1", ""); ok {
		t.Errorf("Quote(gcp, n1-standard-1, no region) = %+v; a GCP price is never approximated", q)
	}
	if rs := cat.Regions(CloudGCP, "e2-small"); len(rs) != 42 || rs[0] != "africa-south1" {
		t.Errorf("Regions(gcp, e2-small) = %v; want the excerpt's 42 regions", rs)
	}
}

func TestEmbeddedGCPBulkFacts(t *testing.T) {
	t.Parallel()
	cat := DefaultCatalog()
	tests := []struct {
		name        string
		vcpu        int
		mem, gpus   float64
		model       string
		gpuMemTotal float64
	}{
		{"n1-standard-1", 1, 3.75, 0, "", 0},
		{"e2-micro", 0, 1, 0, "", 0}, // 0.25 vCPU (shared core) is not a whole vCPU
		{"g2-standard-24", 24, 96, 2, "NVIDIA L4 24GB", 48},
		{"g2-standard-12", 12, 48, 1, "NVIDIA L4 24GB", 24},
		{"a2-ultragpu-8g", 96, 1360, 8, "NVIDIA A100 80GB", 640},
		{"a3-highgpu-1g", 26, 234, 1, "NVIDIA H100 80GB", 80},
	}
	for _, tc := range tests {
		s := cat.Lookup(CloudGCP, tc.name)
		if !s.Known || s.FromFamily || s.VCPU != tc.vcpu || s.MemoryGiB != tc.mem || s.GPUCount != tc.gpus ||
			s.GPUModel != tc.model || s.GPUMemoryGiB != tc.gpuMemTotal {
			t.Errorf("Lookup(gcp, %s) = %+v; want %d vCPU, %v GiB, %v x %q (%v GiB)", tc.name, s, tc.vcpu, tc.mem, tc.gpus, tc.model, tc.gpuMemTotal)
		}
	}
}

func TestEmbeddedGCPBulkParses(t *testing.T) {
	t.Parallel()
	b, err := ParseBulk([]byte(embeddedBulk), []byte(embeddedGCPBulk))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.gcp) < 14 || len(b.gcpRegions) < 40 || b.gcpSrc.Observed != gcpObserved || len(b.azure) < 1000 {
		t.Errorf("embedded GCP bulk table has %d machine types in %d regions, observed %q", len(b.gcp), len(b.gcpRegions), b.gcpSrc.Observed)
	}
}
