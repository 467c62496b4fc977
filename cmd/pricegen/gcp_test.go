package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The committed excerpt of Cyclenerd's pricing.yml and the commit it was
// copied from (docs/pricing.md).
const (
	gcpExcerpt       = "data/gcp-pricing-excerpt.yml"
	gcpExcerptCommit = "0166a59ebba7c36f2cc8c931d9f258dcebc44776"
)

// TestCommittedGCPBulkIsPricegenOutput guards infra/catalog_bulk_gcp.tsv:
// it must be exactly what `pricegen gcp` writes from the committed excerpt.
func TestCommittedGCPBulkIsPricegenOutput(t *testing.T) {
	const committed = "../../infra/catalog_bulk_gcp.tsv"
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "gcp.tsv")
	var so, se bytes.Buffer
	if code := run(context.Background(), []string{"gcp", "-yml", gcpExcerpt, "-commit", gcpExcerptCommit, "-out", out}, &so, &se, nil); code != 0 {
		t.Fatalf("pricegen gcp: exit %d: %s", code, se.String())
	}
	if !strings.Contains(so.String(), "observed 2025-03-06T03:53:56Z") {
		t.Errorf("pricegen gcp said %q", so.String())
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from `pricegen gcp -yml cmd/pricegen/%s -commit %s`; regenerate it (docs/pricing.md)", committed, gcpExcerpt, gcpExcerptCommit)
	}
}

// excerptMachine is a machine type of the excerpt as the YAML gives it.
type excerptMachine struct {
	Cost     map[string]map[string]float64 `yaml:"cost"`
	CPU      float64                       `yaml:"cpu"`
	RAM      float64                       `yaml:"ram"`
	A100     int                           `yaml:"a100"`
	A100_80  int                           `yaml:"a100-80gb"`
	L4       int                           `yaml:"l4"`
	H100_80  int                           `yaml:"h100-80gb"`
	LocalSSD int                           `yaml:"local-ssd"`
}

func (m excerptMachine) gpus() int { return m.A100 + m.A100_80 + m.L4 + m.H100_80 }

func readExcerpt(t *testing.T) map[string]excerptMachine {
	t.Helper()
	b, err := os.ReadFile(gcpExcerpt)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Compute struct {
			Instance map[string]excerptMachine `yaml:"instance"`
		} `yaml:"compute"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Compute.Instance
}

// monthShare is the share of 730 on-demand hours the file's `month` is:
// a full month of the sustained-use discount of the families that have
// one (N1, f1, g1: 30%; N2: its four quarters at 100, 86.78, 73.3 and 60%,
// 0.8002 on average, as the file's n2 rows show); the others have none.
func monthShare(machine string) float64 {
	family, _, _ := strings.Cut(machine, "-")
	switch family {
	case "n1", "f1", "g1":
		return 0.7
	case "n2":
		return 0.8002
	}
	return 1
}

// TestGCPExcerptTranscription guards the hand-copied excerpt: every
// region's month must be its hour x 730 (less the family's sustained-use
// discount) as the source file computes it, so a mistyped digit in either
// figure fails; and the corpus's machine types must all be there.
func TestGCPExcerptTranscription(t *testing.T) {
	machines := readExcerpt(t)
	rows := 0
	for name, m := range machines {
		if m.CPU <= 0 || m.RAM <= 0 || len(m.Cost) == 0 {
			t.Errorf("%s: cpu %v, ram %v, %d regions; want all three", name, m.CPU, m.RAM, len(m.Cost))
		}
		for region, c := range m.Cost {
			rows++
			hour, hok := c["hour"]
			month, mok := c["month"]
			if !hok || !mok || len(c) != 2 {
				t.Errorf("%s in %s: %v; want exactly hour and month", name, region, c)
				continue
			}
			want := hour * 730 * monthShare(name)
			if math.Abs(month-want) > 1e-9*month {
				t.Errorf("%s in %s: month %v is not hour %v x 730 x %v = %v: a figure was mistyped", name, region, month, hour, monthShare(name), want)
			}
		}
	}
	for _, m := range []string{"n1-standard-1", "e2-micro", "e2-small", "e2-medium", "f1-micro"} {
		if _, ok := machines[m]; !ok {
			t.Errorf("the excerpt lacks %s, a machine type of the plan corpus", m)
		}
	}
	t.Logf("%d machine types, %d region rows checked", len(machines), rows)
}

// TestGCPExcerptAgreesWithPricesCSV compares the excerpt with the curated
// table's GCP machine types (taken from the same pricing.yml at a later
// commit, fd66b26ff84f of 2026-07-30): prices.csv keeps six decimals, so
// a price agrees when it is the excerpt's rounded to six places. A row
// that moved between the two snapshots would be named here; prices.csv
// wins for it in the catalog (curated rows take precedence).
func TestGCPExcerptAgreesWithPricesCSV(t *testing.T) {
	const pricesCSV = "../../../shared/data/prices.csv"
	f, err := os.Open(pricesCSV)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (it lives beside the repository); nothing to compare the excerpt with", pricesCSV)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	machines := readExcerpt(t)
	n := 0
	for _, r := range recs[1:] {
		sku, region := r[col["sku"]], r[col["region"]]
		if r[col["cloud"]] != "gcp" || strings.HasPrefix(sku, "gpu:") {
			continue
		}
		n++
		m, ok := machines[sku]
		if !ok {
			t.Errorf("prices.csv prices %s, which the excerpt lacks", sku)
			continue
		}
		hour, ok := m.Cost[region]["hour"]
		csvPrice, _ := strconv.ParseFloat(r[col["price_usd_per_hour"]], 64)
		if !ok || math.Abs(hour-csvPrice) > 5e-7 {
			t.Errorf("%s in %s: prices.csv (observed %s) says %v, the excerpt (2025-03-06) %v", sku, region, r[col["observed"]], csvPrice, hour)
		}
		vcpu, _ := strconv.ParseFloat(r[col["vcpu"]], 64)
		mem, _ := strconv.ParseFloat(r[col["memory_gib"]], 64)
		gpus, _ := strconv.Atoi(r[col["gpu_count"]])
		if vcpu != m.CPU || mem != m.RAM || gpus != m.gpus() {
			t.Errorf("%s: prices.csv says %v vCPU, %v GiB, %d GPUs; the excerpt %v, %v, %d", sku, vcpu, mem, gpus, m.CPU, m.RAM, m.gpus())
		}
	}
	if n == 0 {
		t.Error("prices.csv has no GCP machine-type rows")
	}
}

func TestGCPErrorsNameFileLineAndField(t *testing.T) {
	const head = "about:\n  timestamp: 1741233236\ncompute:\n  instance:\n"
	tests := map[string]struct{ yml, want string }{
		"bad hour":      {head + "    n1-standard-1:\n      cost:\n        us-central1:\n          hour: cheap\n      cpu: 1\n      ram: 3.75\n", `p.yml:8: compute.instance.n1-standard-1.cost.us-central1.hour: "cheap" is not a positive number`},
		"bad gpu count": {head + "    a2-highgpu-1g:\n      a100: one\n", `p.yml:6: compute.instance.a2-highgpu-1g.a100: "one" is not a GPU count`},
		"no timestamp":  {"about:\n  url: x\ncompute:\n", "p.yml:2: about: neither timestamp nor generated is given"},
		"no machines":   {head, "p.yml: no compute.instance mapping"},
		"not yaml":      {"about: [", "p.yml: yaml:"},
		"only spot":     {head + "    n1-standard-1:\n      cost:\n        us-central1:\n          hour_spot: 0.01\n      cpu: 1\n      ram: 3.75\n", "no machine type with an on-demand price"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "p.yml")
			os.WriteFile(p, []byte(tc.yml), 0o644)
			var so, se bytes.Buffer
			code := run(context.Background(), []string{"gcp", "-yml", p, "-out", filepath.Join(dir, "out.tsv")}, &so, &se, nil)
			if code != 1 || !strings.Contains(se.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, se.String(), tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.tsv")); err == nil {
				t.Errorf("a failed run wrote its output")
			}
		})
	}
}

// TestGCPLeavesOutWhatItCannotPrice: a machine type with a GPU key
// pricegen does not know is left out (never priced as CPU only) and
// named; a region priced as spot only is skipped; about.generated stands
// in for a missing timestamp.
func TestGCPLeavesOutWhatItCannotPrice(t *testing.T) {
	const yml = "about:\n  generated: Thu Mar  6 03:53:56 2025\ncompute:\n  instance:\n" +
		"    n1-standard-1:\n      cost:\n        us-central1:\n          hour: 0.04749975\n          month: 24.27237225\n" +
		"        northamerica-south1:\n          hour_spot: 0.0129096875\n      cpu: 1\n      local-ssd: 375\n      ram: 3.75\n" +
		"    x9-tpugpu-1g:\n      cost:\n        us-central1:\n          hour: 9.5\n      cpu: 8\n      tpu9: 1\n      ram: 64\n"
	dir := t.TempDir()
	p, out := filepath.Join(dir, "p.yml"), filepath.Join(dir, "out.tsv")
	os.WriteFile(p, []byte(yml), 0o644)
	var so, se bytes.Buffer
	if code := run(context.Background(), []string{"gcp", "-yml", p, "-out", out}, &so, &se, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	for _, want := range []string{"1 GCP machine types in 1 regions (1 on-demand prices; 1 regions priced as spot only left out), observed 2025-03-06T03:53:56Z",
		"left out 1 machine types: x9-tpugpu-1g (accelerator key tpu9 not in pricegen's gcpGPUKeys)"} {
		if !strings.Contains(so.String(), want) {
			t.Errorf("stdout %q; want %q", so.String(), want)
		}
	}
	got, _ := os.ReadFile(out)
	want := "planwarden-bulk\t1\nsource\tgcp\t2025-03-06T03:53:56Z\tgithub:Cyclenerd/google-cloud-pricing-cost-calculator:pricing.yml " + gcpSourceNote + "; 1 machine types\n" +
		"gcp-regions\tus-central1\nG\tn1-standard-1\t1\t3.75\t0\t\t0=0.04749975\n"
	if string(got) != want {
		t.Errorf("wrote\n%q\nwant\n%q", got, want)
	}
}
