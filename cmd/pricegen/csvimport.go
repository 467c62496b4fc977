package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// csvColumns are the columns of the curated price table (prices.csv), in order.
var csvColumns = []string{"cloud", "sku", "region", "price_usd_per_hour", "gpu_count", "gpu_model",
	"gpu_memory_gib", "vcpu", "memory_gib", "source", "observed"}

// readCSV reads the curated price table. Every row becomes an observation
// with curated facts; a row with an empty price contributes facts only.
// Errors name the file, the line and the column.
func readCSV(name string, r io.Reader) ([]observation, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvColumns)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: read header: %w", name, err)
	}
	if err := checkHeader(name, header, csvColumns); err != nil {
		return nil, err
	}
	var out []observation
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		f := func(col string) string {
			for i, c := range csvColumns {
				if c == col {
					return strings.TrimSpace(rec[i])
				}
			}
			return ""
		}
		num := func(col string) (float64, error) {
			s := f(col)
			if s == "" {
				return 0, nil
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("%s: line %d: %s %q is not a non-negative number", name, line, col, s)
			}
			return v, nil
		}
		o := observation{Cloud: f("cloud"), SKU: f("sku"), Region: f("region"), Curated: true,
			Observed: f("observed"), Source: f("source")}
		switch o.Cloud {
		case infra.CloudAzure, infra.CloudAWS, infra.CloudSageMaker, infra.CloudGCP:
		default:
			return nil, fmt.Errorf("%s: line %d: cloud %q is not azure, aws, aws-sagemaker or gcp", name, line, o.Cloud)
		}
		if o.SKU == "" {
			return nil, fmt.Errorf("%s: line %d: sku is empty", name, line)
		}
		if o.USDPerHour, err = num("price_usd_per_hour"); err != nil {
			return nil, err
		}
		if o.USDPerHour > 0 && o.Region == "" {
			return nil, fmt.Errorf("%s: line %d: region is empty for a priced row", name, line)
		}
		gpus, err := num("gpu_count")
		if err != nil {
			return nil, err
		}
		gmem, err := num("gpu_memory_gib")
		if err != nil {
			return nil, err
		}
		vcpu, err := num("vcpu")
		if err != nil {
			return nil, err
		}
		mem, err := num("memory_gib")
		if err != nil {
			return nil, err
		}
		model := f("gpu_model")
		if gpus > 0 && model == "" {
			return nil, fmt.Errorf("%s: line %d: gpu_count %v without gpu_model", name, line, gpus)
		}
		o.Facts = infra.CatalogSKU{VCPU: int(vcpu), MemoryGiB: mem, GPUCount: gpus, GPUModel: model,
			GPUMemoryGiB: gmem, Accelerator: acceleratorOf(model, gpus)}
		if fam, ok := infra.FamilyFacts(o.Cloud, o.SKU); ok {
			o.Facts.Family = fam.Family
		}
		if o.USDPerHour == 0 {
			o.Observed, o.Source = "", ""
		}
		out = append(out, o)
	}
	return out, nil
}
