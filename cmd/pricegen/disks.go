package main

import (
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// diskTable is the generator's curated table of block-storage list prices
// (Azure managed disk tiers, EBS volume types, Compute Engine persistent
// disks): the shared price data has none, so each row cites the public
// list price page it was read from and the date (docs/pricing.md).
//
//go:embed data/disk-prices.csv
var diskTable string

// diskColumns are the columns of the disk table, in order.
var diskColumns = []string{"cloud", "type", "tier", "max_gib", "unit", "above", "up_to", "region", "usd_per_month", "source", "observed"}

// readDisks reads a disk price table; errors name the file, the line and
// the column.
func readDisks(name string, r io.Reader) ([]infra.CatalogDisk, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(diskColumns)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: read header: %w", name, err)
	}
	if err := checkHeader(name, header, diskColumns); err != nil {
		return nil, err
	}
	var out []infra.CatalogDisk
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		num := func(col int) (float64, error) {
			s := strings.TrimSpace(rec[col])
			if s == "" {
				return 0, nil
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("%s:%d: column %s: %q is not a non-negative number", name, line, diskColumns[col], s)
			}
			return v, nil
		}
		var vals [4]float64
		for i, col := range []int{3, 5, 6, 8} {
			if vals[i], err = num(col); err != nil {
				return nil, err
			}
		}
		if rec[10] == "" || rec[9] == "" {
			return nil, fmt.Errorf("%s:%d: every disk price needs its source and observed date", name, line)
		}
		out = append(out, infra.CatalogDisk{Cloud: rec[0], Type: rec[1], Tier: rec[2], MaxGiB: int(vals[0]), Unit: rec[4],
			Above: vals[1], UpTo: vals[2], Region: rec[7], USDPerMonth: vals[3], Source: rec[9], Observed: rec[10]})
	}
	if _, err := infra.NewCatalog(infra.CatalogFile{Format: infra.CatalogFormat, Disks: out}); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
