package infra

import (
	"fmt"
	"sort"
)

// CatalogDisk is one block-storage price of a catalog file: a managed
// disk tier's monthly price (Azure: Premium SSD P30 is one row), or a
// volume type's price per GiB, per provisioned IOPS or per MiB/s of
// throughput a month (EBS, Compute Engine persistent disk). Like SKU
// prices, every row keeps its source and the date it was read.
type CatalogDisk struct {
	Cloud string `json:"cloud"`
	// Type is the disk type as plans name it: Premium_LRS,
	// StandardSSD_LRS, Standard_LRS (Azure), gp3, io2 (EBS), pd-balanced
	// (Compute Engine).
	Type string `json:"type"`
	// Tier and MaxGiB name an Azure size tier (P30, 1024): a disk is
	// billed as the smallest tier that holds it.
	Tier   string `json:"tier,omitempty"`
	MaxGiB int    `json:"max_gib,omitempty"`
	// Unit is DiskMonth, GiBMonth, IOPSMonth or MiBpsMonth.
	Unit string `json:"unit"`
	// Above and UpTo bound what a per-IOPS or per-MiB/s row bills: the
	// provisioned amount above Above (gp3's 3,000 free IOPS) and up to
	// UpTo (io2's tiers; 0: no bound).
	Above       float64 `json:"above,omitempty"`
	UpTo        float64 `json:"up_to,omitempty"`
	Region      string  `json:"region"`
	USDPerMonth float64 `json:"usd_per_month"`
	Observed    string  `json:"observed,omitempty"`
	Source      string  `json:"source,omitempty"`
}

// Units of a disk price (CatalogDisk.Unit).
const (
	DiskMonth  = "disk-month"
	GiBMonth   = "gib-month"
	IOPSMonth  = "iops-month"
	MiBpsMonth = "mibps-month"
)

// diskKey finds a disk type's rows: cloud, lower-case type, region.
type diskKey struct{ cloud, typ, region string }

// checkDisks validates a catalog file's disk rows and indexes them.
func (c *Catalog) checkDisks(f CatalogFile) error {
	c.disks = map[diskKey][]CatalogDisk{}
	seen := map[string]bool{}
	for i, d := range f.Disks {
		where := fmt.Sprintf("disks[%d] %s/%s %s", i, d.Cloud, d.Type, d.Tier)
		switch {
		case d.Cloud != CloudAzure && d.Cloud != CloudAWS && d.Cloud != CloudGCP:
			return fmt.Errorf("%s: cloud %q is not azure, aws or gcp", where, d.Cloud)
		case d.Type == "" || NormalizeRegion(d.Region) == "":
			return fmt.Errorf("%s: type and region are required", where)
		case !(d.USDPerMonth > 0):
			return fmt.Errorf("%s: usd_per_month %v is not positive", where, d.USDPerMonth)
		case d.Unit == DiskMonth && (d.Tier == "" || d.MaxGiB <= 0):
			return fmt.Errorf("%s: a %s price needs tier and max_gib", where, DiskMonth)
		case d.Unit != DiskMonth && d.Unit != GiBMonth && d.Unit != IOPSMonth && d.Unit != MiBpsMonth:
			return fmt.Errorf("%s: unit %q is not %s, %s, %s or %s", where, d.Unit, DiskMonth, GiBMonth, IOPSMonth, MiBpsMonth)
		case d.UpTo != 0 && d.UpTo <= d.Above:
			return fmt.Errorf("%s: up_to %v is not above %v", where, d.UpTo, d.Above)
		}
		id := fmt.Sprintf("%s|%s|%s|%s|%s|%v", d.Cloud, NormalizeRegion(d.Type), NormalizeRegion(d.Region), d.Unit, d.Tier, d.Above)
		if seen[id] {
			return fmt.Errorf("%s: priced twice in %s", where, d.Region)
		}
		seen[id] = true
		k := diskKey{d.Cloud, NormalizeRegion(d.Type), NormalizeRegion(d.Region)}
		c.disks[k] = append(c.disks[k], d)
	}
	for _, rows := range c.disks {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].MaxGiB < rows[j].MaxGiB })
	}
	return nil
}

// diskReference is the region whose list prices the catalog keeps for a
// cloud's disks; a disk elsewhere is priced there, marked approximate.
var diskReference = map[string]string{CloudAzure: "eastus", CloudAWS: BulkAWSRegion, CloudGCP: "us-central1"}

// DiskQuote is the monthly list price of one disk and how it was found.
type DiskQuote struct {
	USDPerMonth float64
	// Tier is the Azure size tier the disk is billed as ("P30"), "" elsewhere.
	Tier string
	// Basis is BasisExact, or BasisApproximate when Region is the
	// cloud's reference region rather than the disk's own.
	Basis, Region string
}

// DiskPrice prices one disk of a type (as the plan names it, any case),
// size in GiB, provisioned IOPS and throughput (MiB/s; 0 when not set)
// in a region. It returns false when the catalog has no price for the
// type, or the size is above every tier.
func (c *Catalog) DiskPrice(cloud, typ string, sizeGiB, iops, mibps float64, region string) (DiskQuote, bool) {
	t := NormalizeRegion(typ)
	reg := NormalizeRegion(region)
	basis := BasisExact
	rows := c.disks[diskKey{cloud, t, reg}]
	if len(rows) == 0 {
		reg, basis = diskReference[cloud], BasisApproximate
		rows = c.disks[diskKey{cloud, t, reg}]
	}
	if len(rows) == 0 {
		return DiskQuote{}, false
	}
	q := DiskQuote{Basis: basis, Region: reg}
	sized := false
	for _, d := range rows {
		switch d.Unit {
		case DiskMonth:
			if !sized && sizeGiB <= float64(d.MaxGiB) {
				q.USDPerMonth += d.USDPerMonth
				q.Tier, sized = d.Tier, true
			}
		case GiBMonth:
			q.USDPerMonth += d.USDPerMonth * sizeGiB
			sized = true
		case IOPSMonth:
			q.USDPerMonth += d.USDPerMonth * band(iops, d.Above, d.UpTo)
		case MiBpsMonth:
			q.USDPerMonth += d.USDPerMonth * band(mibps, d.Above, d.UpTo)
		}
	}
	return q, sized
}

// band is how much of v lies above lo and up to hi (hi 0: no bound).
func band(v, lo, hi float64) float64 {
	if hi > 0 && v > hi {
		v = hi
	}
	return max(v-lo, 0)
}
