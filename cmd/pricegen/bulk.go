package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// The bulk snapshots of ../shared/data/catalog (its README names them).
const (
	bulkAzureFile = "azure-vm-prices.csv"
	bulkAWSFile   = "aws-ec2.csv"

	bulkAzureSource   = "github:Azure/karpenter-provider-azure@2b431da153a6:pkg/providers/pricing/zz_generated.pricing.go (snapshot of Azure Retail Prices API; Linux; priceType Consumption; non-Spot; non-Low-Priority)"
	bulkAzureObserved = "2026-06-18T03:43:41Z"
	bulkAWSSource     = "github:aws/karpenter-provider-aws@6fc13b5236fd:pkg/providers/pricing/zz_generated.pricing_aws.go (snapshot of AWS Price List API; Linux; Shared tenancy; OnDemand; us-east-1 only); specs: website/content/en/preview/reference/instance-types.md at 1d927085dd81 (DescribeInstanceTypes)"
	bulkAWSObserved   = "2026-07-20T13:44:30Z"
)

var (
	bulkAzureColumns = []string{"sku", "region", "usd_per_hour"}
	bulkAWSColumns   = []string{"instance_type", "vcpu", "memory_mib", "arch", "gpu_count", "gpu_name", "gpu_manufacturer",
		"gpu_memory_mib_per_gpu", "accelerator_count", "accelerator_name", "accelerator_manufacturer", "usd_per_hour_us_east_1", "spec_source"}
)

// runBulk is `pricegen bulk`: it reads the two bulk files of dir and writes
// the compact catalog infra embeds beside catalog.json (infra.ParseBulk
// reads it back).
func runBulk(dir, out string, stdout, stderr io.Writer) int {
	az, err := readBulkCSV(filepath.Join(dir, bulkAzureFile), bulkAzureColumns)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen bulk: %v\n", err)
		return 1
	}
	ec2, err := readBulkCSV(filepath.Join(dir, bulkAWSFile), bulkAWSColumns)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen bulk: %v\n", err)
		return 1
	}
	b, st, err := encodeBulk(az, ec2)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen bulk: %v\n", err)
		return 1
	}
	// The encoding must read back as what was read, before it is written.
	if _, err := infra.ParseBulk(b); err != nil {
		fmt.Fprintf(stderr, "pricegen bulk: the written catalog does not parse: %v\n", err)
		return 1
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "pricegen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d Azure SKUs in %d regions (%d prices), %d EC2 instance types (%d priced in us-east-1), %d bytes\n",
		out, st.azureSKUs, st.azureRegions, st.azurePrices, st.ec2Types, st.ec2Priced, len(b))
	if len(st.azureZero) > 0 {
		z := st.azureZero
		more := ""
		if len(z) > 5 {
			z, more = z[:5], fmt.Sprintf(" and %d more", len(st.azureZero)-5)
		}
		fmt.Fprintf(stdout, "left out %d Azure rows priced 0 (no real meter): %s%s\n", len(st.azureZero), strings.Join(z, ", "), more)
	}
	return 0
}

// bulkRow is one data row of a bulk file with the line it came from.
type bulkRow struct {
	line int
	rec  []string
}

// readBulkCSV reads a bulk file whose header must be exactly cols.
func readBulkCSV(path string, cols []string) ([]bulkRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: read header: %w", path, err)
	}
	if err := checkHeader(path, header, cols); err != nil {
		return nil, err
	}
	cr.FieldsPerRecord = len(cols)
	var out []bulkRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
			if strings.ContainsAny(rec[i], "\t\n") {
				return nil, fmt.Errorf("%s: line %d: %s %q holds a tab or newline", path, line, cols[i], rec[i])
			}
		}
		out = append(out, bulkRow{line: line, rec: rec})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return out, nil
}

type bulkStats struct {
	azureSKUs, azureRegions, azurePrices, ec2Types, ec2Priced int
	// azureZero lists the Azure rows left out because their price is 0.
	azureZero []string
}

// encodeBulk writes infra's bulk format (see infra.ParseBulk): a compact
// tab-separated text (regions by index, prices in their shortest form,
// about a quarter of the CSVs' size), rows sorted so a refresh reviews as
// a stable diff. It is not gzip'd: infra indexes it in place on first
// use, where a gunzip and full parse cost some 15 ms of start-up.
// Prices are written as the shortest decimal that parses back to the same
// float64, so the catalog reproduces the files exactly.
func encodeBulk(az, ec2 []bulkRow) ([]byte, bulkStats, error) {
	var st bulkStats
	bySKU := map[string]map[string]string{}
	regions := map[string]bool{}
	for _, r := range az {
		sku, reg, p := r.rec[0], infra.NormalizeRegion(r.rec[1]), r.rec[2]
		if sku == "" || reg == "" {
			return nil, st, fmt.Errorf("%s: line %d: sku and region must not be empty", bulkAzureFile, r.line)
		}
		if v, err := strconv.ParseFloat(p, 64); err == nil && v == 0 {
			// A zero meter is no price: planwarden never prices at $0.
			st.azureZero = append(st.azureZero, sku+" in "+reg)
			continue
		}
		v, err := positive(p)
		if err != nil {
			return nil, st, fmt.Errorf("%s: line %d: usd_per_hour %q: %v", bulkAzureFile, r.line, p, err)
		}
		if bySKU[sku] == nil {
			bySKU[sku] = map[string]string{}
		}
		if _, dup := bySKU[sku][reg]; dup {
			return nil, st, fmt.Errorf("%s: line %d: %s in %s is priced twice", bulkAzureFile, r.line, sku, reg)
		}
		bySKU[sku][reg] = v
		regions[reg] = true
		st.azurePrices++
	}
	regList := sortedKeys(regions)
	regIdx := map[string]int{}
	for i, r := range regList {
		regIdx[r] = i
	}
	var b strings.Builder
	b.WriteString("planwarden-bulk\t1\n")
	fmt.Fprintf(&b, "source\tazure\t%s\t%s\n", bulkAzureObserved, bulkAzureSource)
	fmt.Fprintf(&b, "source\taws\t%s\t%s\n", bulkAWSObserved, bulkAWSSource)
	b.WriteString("regions\t" + strings.Join(regList, "\t") + "\n")
	for _, sku := range sortedKeys(bySKU) {
		b.WriteString("A\t" + sku)
		ps := bySKU[sku]
		for _, reg := range sortedKeys(ps) {
			b.WriteString("\t" + strconv.Itoa(regIdx[reg]) + "=" + ps[reg])
		}
		b.WriteByte('\n')
	}
	seen := map[string]bool{}
	sort.Slice(ec2, func(i, j int) bool { return ec2[i].rec[0] < ec2[j].rec[0] })
	for _, r := range ec2 {
		rec := r.rec
		name := rec[0]
		if name == "" || seen[strings.ToLower(name)] {
			return nil, st, fmt.Errorf("%s: line %d: instance_type %q is empty or repeated", bulkAWSFile, r.line, name)
		}
		seen[strings.ToLower(name)] = true
		for _, i := range []int{1, 2, 4, 7, 8} {
			if rec[i] == "" {
				continue
			}
			if n, err := strconv.Atoi(rec[i]); err != nil || n < 0 {
				return nil, st, fmt.Errorf("%s: line %d: %s %q is not a whole number", bulkAWSFile, r.line, bulkAWSColumns[i], rec[i])
			}
		}
		if (rec[4] != "") != (rec[5] != "") || (rec[8] != "") != (rec[9] != "") {
			return nil, st, fmt.Errorf("%s: line %d: %s: a GPU or accelerator count needs its name and a name its count", bulkAWSFile, r.line, name)
		}
		price := rec[11]
		if price != "" {
			v, err := positive(price)
			if err != nil {
				return nil, st, fmt.Errorf("%s: line %d: usd_per_hour_us_east_1 %q: %v", bulkAWSFile, r.line, price, err)
			}
			price = v
			st.ec2Priced++
		}
		// Columns as in the file, arch dropped (nothing reads it).
		fields := append([]string{"E"}, rec[0], rec[1], rec[2], rec[4], rec[5], rec[6], rec[7], rec[8], rec[9], rec[10], price, rec[12])
		b.WriteString(strings.Join(fields, "\t") + "\n")
		st.ec2Types++
	}
	st.azureSKUs, st.azureRegions = len(bySKU), len(regList)
	return []byte(b.String()), st, nil
}

// positive parses a price and writes it back in its shortest exact form.
func positive(s string) (string, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) {
		return "", errors.New("not a positive number")
	}
	return strconv.FormatFloat(v, 'g', -1, 64), nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkHeader reports the first column of a CSV header that is not cols'.
func checkHeader(path string, header, cols []string) error {
	for i, c := range cols {
		if i >= len(header) || strings.TrimSpace(header[i]) != c {
			got := "missing"
			if i < len(header) {
				got = fmt.Sprintf("%q", header[i])
			}
			return fmt.Errorf("%s: line 1: column %d is %s, want %q (columns: %s)", path, i+1, got, c, strings.Join(cols, ","))
		}
	}
	return nil
}
