package main

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// The curated disk table is what the catalog's disk rows are: every row
// with its source and date, each price as the table gives it.
func TestDiskTableIsTheCatalogsDisks(t *testing.T) {
	t.Parallel()
	rows, err := readDisks("disk-prices.csv", strings.NewReader(diskTable))
	if err != nil {
		t.Fatal(err)
	}
	got := infra.DefaultCatalog().File().Disks
	if len(got) != len(rows) {
		t.Fatalf("catalog has %d disk rows, the table %d: regenerate the catalog (docs/pricing.md)", len(got), len(rows))
	}
	for i := range rows {
		if got[i] != rows[i] {
			t.Errorf("disk row %d: catalog %+v, table %+v", i, got[i], rows[i])
		}
		if !strings.HasPrefix(rows[i].Source, "https://") {
			t.Errorf("disk row %d (%s %s) cites no page: %q", i, rows[i].Type, rows[i].Tier, rows[i].Source)
		}
	}
	q, ok := infra.DefaultCatalog().DiskPrice(infra.CloudAzure, "Premium_LRS", 1024, 0, 0, "eastus")
	if !ok || q.Tier != "P30" || q.USDPerMonth != 135.17 {
		t.Errorf("1 TiB Premium SSD = %+v, %v; want P30 at 135.17 a month", q, ok)
	}
}

func TestReadDisksErrors(t *testing.T) {
	t.Parallel()
	const head = "cloud,type,tier,max_gib,unit,above,up_to,region,usd_per_month,source,observed\n"
	tests := map[string]struct{ body, want string }{
		"a price that is not a number": {head + "aws,gp3,,,gib-month,,,us-east-1,cheap,https://x,2026-12-04\n", `disks.csv:2: column usd_per_month: "cheap"`},
		"no source":                    {head + "aws,gp3,,,gib-month,,,us-east-1,0.08,,2026-12-04\n", "disks.csv:2: every disk price needs its source"},
		"an unknown unit":              {head + "aws,gp3,,,gb-year,,,us-east-1,0.08,https://x,2026-12-04\n", `unit "gb-year"`},
		"a tier without its size":      {head + "azure,Premium_LRS,P30,,disk-month,,,eastus,135.17,https://x,2026-12-04\n", "needs tier and max_gib"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := readDisks("disks.csv", strings.NewReader(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
}
