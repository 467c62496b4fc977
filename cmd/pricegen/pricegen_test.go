package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

type price struct {
	Cloud, SKU, Region string
	USD                float64
}

func prices(obs []observation) []price {
	var out []price
	for _, o := range obs {
		out = append(out, price{o.Cloud, o.SKU, o.Region, o.USDPerHour})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Cloud+out[i].SKU < out[j].Cloud+out[j].SKU })
	return out
}

// azureServer serves the recorded Retail Prices pages: page 1 links to
// page 2 by NextPageLink; page 2 is full but has no NextPageLink, so the
// client must go on with $skip=4 to page 3.
func azureServer(t *testing.T) (*httptest.Server, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.RawQuery)
		mu.Unlock()
		if r.Method != http.MethodGet || r.URL.Path != "/api/retail/prices" {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		q := r.URL.Query()
		page := "page1.json"
		switch {
		case q.Get("page") == "2":
			page = "page2.json"
		case q.Get("$skip") == "4":
			page = "page3.json"
		case q.Get("$skip") != "":
			http.Error(w, "unexpected $skip "+q.Get("$skip"), http.StatusBadRequest)
			return
		}
		if q.Get("page") == "" {
			want := "priceType eq 'Consumption' and currencyCode eq 'USD' and serviceFamily eq 'Compute' and serviceName eq 'Virtual Machines' and armRegionName eq 'westeurope'"
			if f := q.Get("$filter"); f != want || q.Get("api-version") != "2023-01-01-preview" {
				http.Error(w, "bad filter "+f, http.StatusBadRequest)
				return
			}
		}
		b, err := os.ReadFile(filepath.Join("testdata", "azure", page))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(bytes.ReplaceAll(b, []byte("{{BASE}}"), []byte(srv.URL)))
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestAzureFetchFollowsNextPageLinkThenSkip(t *testing.T) {
	srv, got := azureServer(t)
	a := &azureFetcher{URL: srv.URL + "/api/retail/prices", Client: srv.Client(), PageSize: 2,
		Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	obs, err := a.fetch(context.Background(), "westeurope")
	if err != nil {
		t.Fatal(err)
	}
	// Windows, Spot and Low Priority meters are dropped.
	want := []price{{"azure", "Standard_NC24ads_A100_v4", "westeurope", 4.8}, {"azure", "Standard_NC6s_v3", "westeurope", 3.9}}
	if diff := cmp.Diff(want, prices(obs)); diff != "" {
		t.Errorf("prices (-want +got):\n%s", diff)
	}
	if len(*got) != 3 || (*got)[1] != "page=2" || !strings.HasSuffix((*got)[2], "&$skip=4") {
		t.Errorf("requests = %q; want page 1, NextPageLink page 2, then $skip=4", *got)
	}
	if obs[0].Observed != "2026-12-01T00:00:00Z" || !strings.Contains(obs[0].Source, "prices.azure.com") {
		t.Errorf("observation %+v lacks its date or source", obs[0])
	}
}

func TestAzureFetchErrors(t *testing.T) {
	tests := map[string]struct {
		handler http.HandlerFunc
		want    string
	}{
		"server error names the region and page": {
			func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusBadGateway) },
			"azure westeurope page 1: get ",
		},
		"a page that links to itself": {
			func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"Items":[],"NextPageLink":"http://` + r.Host + r.URL.RequestURI() + `"}`))
			},
			"repeats",
		},
		"not JSON": {
			func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`<html>`)) },
			"decode http",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			a := &azureFetcher{URL: srv.URL + "/api/retail/prices", Client: srv.Client()}
			_, err := a.fetch(context.Background(), "westeurope")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("fetch error %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

// awsServer serves the recorded bulk files: service index, region
// indexes and one offer file per service for us-east-1.
func awsServer(t *testing.T) *httptest.Server {
	t.Helper()
	files := map[string]string{
		"/offers/v1.0/aws/index.json":                                          "index.json",
		"/offers/v1.0/aws/AmazonEC2/current/region_index.json":                 "ec2_region_index.json",
		"/offers/v1.0/aws/AmazonSageMaker/current/region_index.json":           "sagemaker_region_index.json",
		"/offers/v1.0/aws/AmazonEC2/20261120181504/us-east-1/index.json":       "ec2_us-east-1.json",
		"/offers/v1.0/aws/AmazonSageMaker/20261118100000/us-east-1/index.json": "sagemaker_us-east-1.json",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join("testdata", "aws", f))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAWSFetch(t *testing.T) {
	srv := awsServer(t)
	a := &awsFetcher{URL: srv.URL, Client: srv.Client()}
	tests := map[string]struct {
		service string
		want    []price
	}{
		// Windows, unused reservations, SQL images, dedicated tenancy and EBS are filtered out.
		"EC2 Linux shared on-demand": {"AmazonEC2", []price{{"aws", "dl1.24xlarge", "us-east-1", 13.109},
			{"aws", "g5.4xlarge", "us-east-1", 1.624}, {"aws", "m7i.large", "us-east-1", 0.1008}, {"aws", "p4d.24xlarge", "us-east-1", 21.957642}}},
		// Training and notebook components are not hosting prices; terms come before products in this file.
		"SageMaker hosting": {"AmazonSageMaker", []price{{"aws-sagemaker", "ml.g5.xlarge", "us-east-1", 1.408}, {"aws-sagemaker", "ml.m5.large", "us-east-1", 0.115}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			obs, err := a.fetch(context.Background(), tc.service, "us-east-1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, prices(obs)); diff != "" {
				t.Errorf("prices (-want +got):\n%s", diff)
			}
			for _, o := range obs {
				if !strings.HasPrefix(o.Observed, "2026-11-") || !strings.Contains(o.Source, "/offers/v1.0/aws/") {
					t.Errorf("%s: observed %q source %q; want the offer file's publicationDate and URL", o.SKU, o.Observed, o.Source)
				}
			}
		})
	}
	if _, err := a.fetch(context.Background(), "AmazonEC2", "ap-south-9"); err == nil || !strings.Contains(err.Error(), "no region ap-south-9") {
		t.Errorf("unknown region: error %v", err)
	}
}

func TestMergeKeepsGPUFacts(t *testing.T) {
	base := infra.CatalogFile{Format: infra.CatalogFormat, SKUs: []infra.CatalogSKU{
		{Cloud: "aws", Name: "p4d.24xlarge", Family: "p4d", VCPU: 96, MemoryGiB: 1152, GPUCount: 8, GPUModel: "NVIDIA A100 40GB",
			GPUMemoryGiB: 320, Accelerator: infra.AcceleratorNVIDIA,
			Prices: []infra.CatalogPrice{{Region: "us-east-1", USDPerHour: 32.7726, Observed: "2025-04-28"}, {Region: "us-west-2", USDPerHour: 32.7726}}},
		{Cloud: "aws-sagemaker", Name: "ml.m5.large", VCPU: 2, MemoryGiB: 8},
	}}
	obs := []observation{
		{Cloud: "aws", SKU: "p4d.24xlarge", Region: "us-east-1", USDPerHour: 21.957642, Observed: "2026-11-20",
			Facts: infra.CatalogSKU{VCPU: 96, GPUCount: 8, GPUMemoryGiB: 320}},
		{Cloud: "aws", SKU: "g5.4xlarge", Region: "us-east-1", USDPerHour: 1.624, Facts: infra.CatalogSKU{VCPU: 16, MemoryGiB: 64, GPUCount: 1}},
		{Cloud: "aws", SKU: "m7i.large", Region: "us-east-1", USDPerHour: 0.1008},
		{Cloud: "aws", SKU: "dl1.24xlarge", Region: "us-east-1", USDPerHour: 13.109, Facts: infra.CatalogSKU{GPUCount: 8}},
		{Cloud: "aws-sagemaker", SKU: "ml.m5.large", Region: "us-east-1", USDPerHour: 0.115},
	}
	got, st := merge(base, obs, mergeOptions{})
	want := []infra.CatalogSKU{
		{Cloud: "aws", Name: "g5.4xlarge", Family: "g5", VCPU: 16, MemoryGiB: 64, GPUCount: 1, GPUModel: "NVIDIA A10G 24GB", GPUMemoryGiB: 24,
			Accelerator: infra.AcceleratorNVIDIA, Prices: []infra.CatalogPrice{{Region: "us-east-1", USDPerHour: 1.624}}},
		{Cloud: "aws", Name: "p4d.24xlarge", Family: "p4d", VCPU: 96, MemoryGiB: 1152, GPUCount: 8, GPUModel: "NVIDIA A100 40GB",
			GPUMemoryGiB: 320, Accelerator: infra.AcceleratorNVIDIA,
			Prices: []infra.CatalogPrice{{Region: "us-east-1", USDPerHour: 21.957642, Observed: "2026-11-20"}, {Region: "us-west-2", USDPerHour: 32.7726}}},
		{Cloud: "aws-sagemaker", Name: "ml.m5.large", VCPU: 2, MemoryGiB: 8, Prices: []infra.CatalogPrice{{Region: "us-east-1", USDPerHour: 0.115}}},
	}
	if diff := cmp.Diff(want, got.SKUs); diff != "" {
		t.Errorf("merged SKUs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(mergeStats{Updated: 2, Added: 1, Skipped: 1, NeedRule: []string{"aws/dl1.24xlarge"}}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	all, _ := merge(base, obs, mergeOptions{All: true})
	if len(all.SKUs) != 4 || all.SKUs[1].Name != "m7i.large" {
		t.Errorf("-all: %d SKUs %v; want m7i.large added too (and dl1 still left out)", len(all.SKUs), all.SKUs)
	}
}

func TestReadCSV(t *testing.T) {
	const header = "cloud,sku,region,price_usd_per_hour,gpu_count,gpu_model,gpu_memory_gib,vcpu,memory_gib,source,observed\n"
	obs, err := readCSV("p.csv", strings.NewReader(header+
		"azure,Standard_NC6s_v3,westeurope,3.823,1,NVIDIA Tesla V100 16GB,16,6,112,src-a,2026-06-18T03:43:41Z\n"+
		"aws,m5.xlarge,us-west-2,,0,,0,4,16,NO PRICE: not collected,\n"+
		"aws,inf2.xlarge,us-east-1,0.7582,1,AWS Inferentia2 (accelerator chips),32,4,16,src-b,2026-07-20\n"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		SKU, Observed, Source string
		USD, GPUs             float64
		Kind                  infra.Accelerator
		Family                string
	}
	var got []row
	for _, o := range obs {
		got = append(got, row{o.SKU, o.Observed, o.Source, o.USDPerHour, o.Facts.GPUCount, o.Facts.Accelerator, o.Facts.Family})
	}
	want := []row{
		{"Standard_NC6s_v3", "2026-06-18T03:43:41Z", "src-a", 3.823, 1, infra.AcceleratorNVIDIA, "NCs_v3"},
		{"m5.xlarge", "", "", 0, 0, infra.AcceleratorNone, "m5"},
		{"inf2.xlarge", "2026-07-20", "src-b", 0.7582, 1, infra.AcceleratorInferentia, "inf2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}

	bad := map[string]struct{ csv, want string }{
		"wrong header":          {"cloud,name\n", "p.csv: "},
		"renamed column":        {strings.Replace(header, "region", "location", 1), `p.csv: line 1: column 3 is "location", want "region"`},
		"price not a number":    {header + "aws,m5.xlarge,us-east-1,cheap,0,,0,4,16,s,o\n", `p.csv: line 2: price_usd_per_hour "cheap" is not a non-negative number`},
		"GPU count, no model":   {header + "aws,g5.xlarge,us-east-1,1,1,,24,4,16,s,o\n", "p.csv: line 2: gpu_count 1 without gpu_model"},
		"unknown cloud":         {header + "oci,x,r,1,0,,0,1,1,s,o\n", `p.csv: line 2: cloud "oci"`},
		"priced row, no region": {header + "aws,m5.xlarge,,1,0,,0,1,1,s,o\n", "p.csv: line 2: region is empty for a priced row"},
	}
	for name, tc := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := readCSV("p.csv", strings.NewReader(tc.csv))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readCSV error %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestRunImportThenRefresh drives the command as a user would: import a
// CSV into a fresh catalog, then refresh it from both APIs.
func TestRunImportThenRefresh(t *testing.T) {
	dir := t.TempDir()
	csvPath, cat := filepath.Join(dir, "prices.csv"), filepath.Join(dir, "catalog.json")
	os.WriteFile(csvPath, []byte("cloud,sku,region,price_usd_per_hour,gpu_count,gpu_model,gpu_memory_gib,vcpu,memory_gib,source,observed\n"+
		"azure,Standard_NC6s_v3,westeurope,3.823,1,NVIDIA Tesla V100 16GB,16,6,112,karpenter,2026-06-18T03:43:41Z\n"+
		"aws,p4d.24xlarge,us-east-1,21.957642,8,NVIDIA A100 40GB,320,96,1152,karpenter,2026-07-20T13:44:30Z\n"), 0o644)
	az, _ := azureServer(t)
	aws := awsServer(t)
	steps := []struct {
		args []string
		code int
	}{
		{[]string{"import", "-csv", csvPath, "-catalog", cat, "-generated", "2026-12-01T00:00:00Z"}, 0},
		{[]string{"azure", "-regions", "westeurope", "-catalog", cat, "-url", az.URL + "/api/retail/prices", "-page-size", "2", "-generated", "2026-12-02T00:00:00Z"}, 0},
		{[]string{"aws", "-regions", "us-east-1", "-services", "AmazonEC2,AmazonSageMaker", "-catalog", cat, "-url", aws.URL, "-generated", "2026-12-03T00:00:00Z"}, 0},
		{[]string{"aws", "-catalog", cat}, 2},
		{[]string{"bogus"}, 2},
		{[]string{"import", "-csv", filepath.Join(dir, "missing.csv"), "-catalog", cat}, 1},
	}
	for _, s := range steps {
		var out, errb bytes.Buffer
		if code := run(context.Background(), s.args, &out, &errb, http.DefaultClient); code != s.code {
			t.Fatalf("pricegen %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(s.args, " "), code, s.code, out.String(), errb.String())
		}
	}
	b, err := os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	c, err := infra.ParseCatalog(b)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		cloud, sku, region string
		want               float64
	}{
		{"azure", "Standard_NC6s_v3", "westeurope", 3.9},         // refreshed from the Retail Prices API
		{"azure", "Standard_NC24ads_A100_v4", "westeurope", 4.8}, // added: a GPU family
		{"aws", "p4d.24xlarge", "us-east-1", 21.957642},
		{"aws", "g5.4xlarge", "us-east-1", 1.624},
		{"aws-sagemaker", "ml.g5.xlarge", "us-east-1", 1.408},
	}
	for _, ch := range checks {
		if got, ok := c.Price(ch.cloud, ch.sku, ch.region); !ok || got != ch.want {
			t.Errorf("%s/%s in %s = %v (%v), want %v", ch.cloud, ch.sku, ch.region, got, ok, ch.want)
		}
	}
	if _, ok := c.Price("aws", "m7i.large", "us-east-1"); ok {
		t.Error("m7i.large was added without -all")
	}
	if s := c.Lookup("azure", "Standard_NC6s_v3"); s.GPUModel != "NVIDIA Tesla V100 16GB" || s.VCPU != 6 || s.MemoryGiB != 112 || !s.Retired {
		t.Errorf("NC6s_v3 facts after refresh: %+v; want the imported V100 facts and the retirement kept", s)
	}
	if got := c.Generated(); !got.Equal(time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Generated() = %v", got)
	}
	if note := c.File().Note; note != "2026-12-01 import prices.csv; 2026-12-02 azure westeurope; 2026-12-03 aws us-east-1 (AmazonEC2,AmazonSageMaker)" {
		t.Errorf("note = %q", note)
	}
}

// TestCommittedCatalogIsPricegenOutput guards infra/catalog.json against
// hand edits: it must be exactly what pricegen writes. While the catalog
// is a plain import of the shared price table, the import is re-run and
// compared byte for byte; after an API refresh, re-encoding must give the
// same bytes.
func TestCommittedCatalogIsPricegenOutput(t *testing.T) {
	const csvPath, committed = "../../../shared/data/prices.csv", "../../infra/catalog.json"
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := infra.ParseCatalog(want)
	if err != nil {
		t.Fatal(err)
	}
	if re, err := encode(c.File()); err != nil || !bytes.Equal(re, want) {
		t.Fatalf("%s is not in pricegen's encoding (err %v); regenerate it with pricegen (docs/pricing.md)", committed, err)
	}
	if strings.Contains(c.File().Note, " azure ") || strings.Contains(c.File().Note, " aws ") {
		t.Skipf("catalog was refreshed from the APIs (%s); a plain import would differ", c.File().Note)
	}
	if _, err := os.Stat(csvPath); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (it lives beside the repository); cannot regenerate the catalog", csvPath)
	}
	out := filepath.Join(t.TempDir(), "catalog.json")
	var so, se bytes.Buffer
	args := []string{"import", "-csv", csvPath, "-fresh", "-out", out, "-generated", c.Generated().Format(time.RFC3339)}
	if code := run(context.Background(), args, &so, &se, nil); code != 0 {
		t.Fatalf("pricegen import: exit %d: %s", code, se.String())
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from `pricegen %s`; regenerate it (docs/pricing.md)", committed, strings.Join(args, " "))
	}
}

func TestReadOfferErrors(t *testing.T) {
	tests := map[string]string{
		"truncated":                    `{"products":{"A":{"sku":"A","productFamily":"Compute Instance","attributes":{}}`,
		"products is not an object":    `{"products":[1,2]}`,
		"terms entry is not an object": `{"terms":{"OnDemand":{"A":[1]}}}`,
		"not an object":                `[]`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := readOffer(strings.NewReader(body), infra.CloudAWS, "us-east-1", "x.json"); err == nil {
				t.Errorf("readOffer(%s) = nil error", body)
			}
		})
	}
}

func TestAzureFetchStopsAtMaxPages(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		// Always a full page with a fresh link: a server that never ends.
		w.Write([]byte(`{"Items":[{"armSkuName":"Standard_D2s_v5","retailPrice":0.1,"armRegionName":"eastus","unitOfMeasure":"1 Hour","type":"Consumption"}],` +
			`"NextPageLink":"http://` + r.Host + `/p?n=` + strings.Repeat("x", n) + `"}`))
	}))
	defer srv.Close()
	a := &azureFetcher{URL: srv.URL + "/p", Client: srv.Client(), PageSize: 1, MaxPages: 5}
	_, err := a.fetch(context.Background(), "eastus")
	if err == nil || !strings.Contains(err.Error(), "more than 5 pages") || n != 5 {
		t.Errorf("fetch: error %v after %d requests; want the 5-page bound", err, n)
	}
}

// TestCommittedBulkIsPricegenOutput guards infra/catalog_bulk.tsv: it must
// be exactly what `pricegen bulk` writes from the shared snapshots.
func TestCommittedBulkIsPricegenOutput(t *testing.T) {
	const dir, committed = "../../../shared/data/catalog", "../../infra/catalog_bulk.tsv"
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (it lives beside the repository); cannot regenerate the bulk catalog", dir)
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bulk.tsv")
	var so, se bytes.Buffer
	if code := run(context.Background(), []string{"bulk", "-dir", dir, "-out", out}, &so, &se, nil); code != 0 {
		t.Fatalf("pricegen bulk: exit %d: %s", code, se.String())
	}
	if !strings.Contains(so.String(), "1385 EC2 instance types") || !strings.Contains(so.String(), "in 57 regions") {
		t.Errorf("pricegen bulk said %q", so.String())
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from `pricegen bulk -dir %s`; regenerate it (docs/pricing.md)", committed, dir)
	}
}

func TestBulkErrorsNameFileLineAndColumn(t *testing.T) {
	const ec2 = "instance_type,vcpu,memory_mib,arch,gpu_count,gpu_name,gpu_manufacturer,gpu_memory_mib_per_gpu,accelerator_count,accelerator_name,accelerator_manufacturer,usd_per_hour_us_east_1,spec_source\n"
	tests := map[string]struct {
		azure, ec2, want string
	}{
		"azure header":         {"sku,price\n", ec2 + "m5.large,2,8192,amd64,,,,,,,,0.096,preview\n", `azure-vm-prices.csv: line 1: column 2 is "price", want "region" (columns: sku,region,usd_per_hour)`},
		"azure price":          {"sku,region,usd_per_hour\nStandard_D2s_v3,eastus,cheap\n", ec2 + "m5.large,2,8192,amd64,,,,,,,,0.096,preview\n", `azure-vm-prices.csv: line 2: usd_per_hour "cheap"`},
		"azure twice":          {"sku,region,usd_per_hour\nStandard_D2s_v3,eastus,0.1\nStandard_D2s_v3,East US,0.1\n", ec2 + "m5.large,2,8192,amd64,,,,,,,,0.096,preview\n", "line 3: Standard_D2s_v3 in eastus is priced twice"},
		"ec2 gpu without name": {"sku,region,usd_per_hour\nStandard_D2s_v3,eastus,0.1\n", ec2 + "g5.xlarge,4,16384,amd64,1,,,,,,,1.006,preview\n", "aws-ec2.csv: line 2: g5.xlarge: a GPU or accelerator count needs its name"},
		"ec2 vcpu":             {"sku,region,usd_per_hour\nStandard_D2s_v3,eastus,0.1\n", ec2 + "m5.large,two,8192,amd64,,,,,,,,0.096,preview\n", `aws-ec2.csv: line 2: vcpu "two" is not a whole number`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "azure-vm-prices.csv"), []byte(tc.azure), 0o644)
			os.WriteFile(filepath.Join(dir, "aws-ec2.csv"), []byte(tc.ec2), 0o644)
			var so, se bytes.Buffer
			code := run(context.Background(), []string{"bulk", "-dir", dir, "-out", filepath.Join(dir, "out.tsv")}, &so, &se, nil)
			if code != 1 || !strings.Contains(se.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, se.String(), tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.tsv")); err == nil {
				t.Errorf("a failed run wrote its output")
			}
		})
	}
}
