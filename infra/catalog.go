package infra

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/planwarden/planwarden/planparse"
)

// CatalogFormat is the version of the catalog file format this package reads.
const CatalogFormat = 1

// CatalogFile is the on-disk form of a catalog (infra/catalog.json). It is
// written by cmd/pricegen and compiled into the binary; edit it only
// through pricegen so every price keeps its source and date.
type CatalogFile struct {
	Format int `json:"format"`
	// Generated is when pricegen wrote the file.
	Generated time.Time `json:"generated"`
	// Note says how the file was made (the pricegen steps).
	Note string       `json:"note,omitempty"`
	SKUs []CatalogSKU `json:"skus"`
	// Disks are block-storage list prices (see CatalogDisk).
	Disks []CatalogDisk `json:"disks,omitempty"`
}

// CatalogSKU is one SKU row of a catalog file: its facts and its prices by region.
type CatalogSKU struct {
	Cloud        string      `json:"cloud"`
	Name         string      `json:"name"`
	Family       string      `json:"family,omitempty"`
	VCPU         int         `json:"vcpu,omitempty"`
	MemoryGiB    float64     `json:"memory_gib,omitempty"`
	GPUCount     float64     `json:"gpu_count,omitempty"`
	GPUModel     string      `json:"gpu_model,omitempty"`
	GPUMemoryGiB float64     `json:"gpu_memory_gib,omitempty"`
	Accelerator  Accelerator `json:"accelerator,omitempty"`
	Retired      bool        `json:"retired,omitempty"`
	RetiredOn    string      `json:"retired_on,omitempty"`
	// Source names where the specs came from.
	Source string         `json:"source,omitempty"`
	Prices []CatalogPrice `json:"prices,omitempty"`
}

// CatalogPrice is the on-demand Linux price of a SKU in one region.
type CatalogPrice struct {
	Region     string  `json:"region"`
	USDPerHour float64 `json:"usd_per_hour"`
	// Observed is when the upstream source stamped the price (ISO-8601
	// date or time, as the source gives it; may be a note when unknown).
	Observed string `json:"observed,omitempty"`
	Source   string `json:"source,omitempty"`
}

// Price is one catalog price with its provenance.
type Price struct {
	USDPerHour float64
	Observed   string
	Source     string
}

// Catalog is a read-only SKU catalog: GPU facts and hourly prices by
// region. It is safe for concurrent use.
type Catalog struct {
	file CatalogFile
	rows map[string]*row // cloud + "/" + lower-case name
	// bulk is the bulk layer under the curated rows (nil: none); it is
	// a func so the default catalog decodes it only when a lookup needs it.
	bulk func() *Bulk
	// disks are the disk prices by cloud, type and region (checkDisks).
	disks map[diskKey][]CatalogDisk
}

type row struct {
	sku    SKU
	prices map[string]Price // normalized region
}

//go:embed catalog.json
var embedded []byte

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// DefaultCatalog returns the catalog compiled into the binary: the curated
// rows of catalog.json over the bulk layer of catalog_bulk.tsv and
// catalog_bulk_gcp.tsv (see Bulk), which is indexed on the first lookup
// that needs it. The same
// *Catalog is returned on every call. It panics if the embedded file is
// invalid, which the package's tests rule out.
func DefaultCatalog() *Catalog {
	defaultOnce.Do(func() {
		c, err := ParseCatalog(embedded)
		if err != nil {
			panic(fmt.Sprintf("infra: embedded catalog.json: %v", err))
		}
		c.bulk = defaultBulk
		defaultCat = c
	})
	return defaultCat
}

// ParseCatalog decodes and validates a catalog file. Errors name the SKU
// and field at fault.
func ParseCatalog(data []byte) (*Catalog, error) {
	var f CatalogFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decode catalog: %w", err)
	}
	return NewCatalog(f)
}

// NewCatalog builds a catalog from a file value, validating it: the format
// must be CatalogFormat, each (cloud, name) must appear once, clouds must
// be known, prices must be positive and each region priced once per SKU.
func NewCatalog(f CatalogFile) (*Catalog, error) {
	if f.Format != CatalogFormat {
		return nil, fmt.Errorf("catalog format %d: want %d", f.Format, CatalogFormat)
	}
	c := &Catalog{file: f, rows: make(map[string]*row, len(f.SKUs))}
	for i, s := range f.SKUs {
		switch s.Cloud {
		case CloudAzure, CloudAWS, CloudSageMaker, CloudGCP:
		default:
			return nil, fmt.Errorf("skus[%d] %s: cloud %q is not azure, aws, aws-sagemaker or gcp", i, s.Name, s.Cloud)
		}
		if s.Name == "" {
			return nil, fmt.Errorf("skus[%d]: name is empty", i)
		}
		k := key(s.Cloud, s.Name)
		if c.rows[k] != nil {
			return nil, fmt.Errorf("skus[%d] %s/%s: duplicate sku", i, s.Cloud, s.Name)
		}
		if s.GPUCount < 0 || s.GPUCount > 0 && (s.GPUModel == "" || s.Accelerator == AcceleratorNone) {
			return nil, fmt.Errorf("skus[%d] %s/%s: gpu_count %v needs gpu_model and accelerator", i, s.Cloud, s.Name, s.GPUCount)
		}
		r := &row{sku: SKU{Cloud: s.Cloud, Name: s.Name, Family: s.Family, VCPU: s.VCPU, MemoryGiB: s.MemoryGiB,
			GPUCount: s.GPUCount, GPUModel: s.GPUModel, GPUMemoryGiB: s.GPUMemoryGiB, Accelerator: s.Accelerator,
			Retired: s.Retired, RetiredOn: s.RetiredOn, Known: true},
			prices: make(map[string]Price, len(s.Prices))}
		for j, p := range s.Prices {
			reg := NormalizeRegion(p.Region)
			if reg == "" {
				return nil, fmt.Errorf("skus[%d] %s/%s: prices[%d].region is empty", i, s.Cloud, s.Name, j)
			}
			if !(p.USDPerHour > 0) {
				return nil, fmt.Errorf("skus[%d] %s/%s: prices[%d].usd_per_hour %v in %s is not positive", i, s.Cloud, s.Name, j, p.USDPerHour, p.Region)
			}
			if _, dup := r.prices[reg]; dup {
				return nil, fmt.Errorf("skus[%d] %s/%s: prices[%d]: region %s priced twice", i, s.Cloud, s.Name, j, p.Region)
			}
			r.prices[reg] = Price{USDPerHour: p.USDPerHour, Observed: p.Observed, Source: p.Source}
		}
		c.rows[k] = r
	}
	if err := c.checkDisks(f); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) bulkLayer() *Bulk {
	if c.bulk == nil {
		return nil
	}
	return c.bulk()
}

func key(cloud, name string) string { return cloud + "/" + strings.ToLower(name) }

// NormalizeRegion folds a region as plans write it into the catalog's
// form: lower case, spaces removed ("West Europe" -> "westeurope"). Text
// that is no name by planparse's allow-list is no region (""): folding
// "us-central1 <password>" would make one token of it, shown as a region.
func NormalizeRegion(r string) string {
	r = strings.TrimSpace(r)
	if planparse.ShownName(r) != r {
		return ""
	}
	return strings.ToLower(strings.ReplaceAll(r, " ", ""))
}

// Lookup returns what is known about a SKU: the curated catalog row when
// there is one, else the bulk layer's facts (see Bulk), else the facts of
// the SKU name's family (FromFamily set), else a SKU with Known false.
// Names match case-insensitively; the returned Name is the name as asked.
func (c *Catalog) Lookup(cloud, name string) SKU {
	k := key(cloud, name)
	if r := c.rows[k]; r != nil {
		s := r.sku
		s.Name = name
		return s
	}
	var s SKU
	ok := false
	if b := c.bulkLayer(); b != nil {
		s, ok = b.facts(cloud, name)
	}
	if !ok {
		s, ok = FamilyFacts(cloud, name)
	}
	if !ok {
		s = SKU{Cloud: cloud, Name: name}
	}
	if d := RetiredOn(cloud, name); d != "" {
		s.Retired, s.RetiredOn = true, d
	}
	return s
}

// Price returns the on-demand Linux USD/hour of a SKU in a region, and
// false when the catalog has no price there. It never returns 0 with true,
// and never an approximation (see Quote).
func (c *Catalog) Price(cloud, sku, region string) (float64, bool) {
	p, ok := c.PriceInfo(cloud, sku, region)
	return p.USDPerHour, ok
}

// PriceInfo is Price with the price's source and observation date. A
// curated price wins over the bulk layer's.
func (c *Catalog) PriceInfo(cloud, sku, region string) (Price, bool) {
	reg := NormalizeRegion(region)
	if r := c.rows[key(cloud, sku)]; r != nil {
		if p, ok := r.prices[reg]; ok {
			return p, true
		}
	}
	b := c.bulkLayer()
	if b == nil {
		return Price{}, false
	}
	switch cloud {
	case CloudAzure:
		return b.azurePrice(sku, reg)
	case CloudAWS:
		if reg == BulkAWSRegion {
			return b.ec2Price(sku)
		}
	case CloudGCP:
		return b.gcpPrice(sku, reg)
	}
	return Price{}, false
}

// Price bases, as Quote.Basis reports them.
const (
	// BasisExact is the list price of the SKU in the region asked.
	BasisExact = "exact"
	// BasisApproximate is another region's list price: an EC2 type the
	// catalog prices only in us-east-1 is quoted at that price elsewhere
	// (other regions usually differ by 0-30%).
	BasisApproximate = "approximate"
)

// Quote is a price with how it was found.
type Quote struct {
	Price
	// Basis is BasisExact or BasisApproximate.
	Basis string
	// Region is the region whose price this is: the one asked when
	// exact, us-east-1 when approximate.
	Region string
}

// Quote returns the price of a SKU in a region: exact when the catalog
// prices it there; for an EC2 type it does not (or when the region is
// unknown, ""), the us-east-1 list price marked approximate; false when
// neither is known.
func (c *Catalog) Quote(cloud, sku, region string) (Quote, bool) {
	reg := NormalizeRegion(region)
	if reg != "" {
		if p, ok := c.PriceInfo(cloud, sku, reg); ok {
			return Quote{Price: p, Basis: BasisExact, Region: reg}, true
		}
	}
	if cloud == CloudAWS {
		if p, ok := c.PriceInfo(cloud, sku, BulkAWSRegion); ok {
			return Quote{Price: p, Basis: BasisApproximate, Region: BulkAWSRegion}, true
		}
	}
	return Quote{}, false
}

// Regions lists, sorted, the regions where the catalog prices a SKU
// exactly (curated rows and the bulk layer).
func (c *Catalog) Regions(cloud, sku string) []string {
	set := map[string]bool{}
	if r := c.rows[key(cloud, sku)]; r != nil {
		for reg := range r.prices {
			set[reg] = true
		}
	}
	if b := c.bulkLayer(); b != nil {
		for _, reg := range b.regions(cloud, sku) {
			set[reg] = true
		}
	}
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for reg := range set {
		out = append(out, reg)
	}
	sort.Strings(out)
	return out
}

// Generated is when pricegen wrote the catalog.
func (c *Catalog) Generated() time.Time { return c.file.Generated }

// Observed returns the oldest and newest price observation dates in the
// catalog (the first ten characters of each Observed that starts with a
// date), so a reader can say how old the bundled prices are.
func (c *Catalog) Observed() (oldest, newest string) {
	for _, s := range c.file.SKUs {
		for _, p := range s.Prices {
			d := observedDate(p.Observed)
			if d == "" {
				continue
			}
			if oldest == "" || d < oldest {
				oldest = d
			}
			if d > newest {
				newest = d
			}
		}
	}
	return oldest, newest
}

func observedDate(s string) string {
	if len(s) < 10 {
		return ""
	}
	d := s[:10]
	if _, err := time.Parse("2006-01-02", d); err != nil {
		return ""
	}
	return d
}

// SKUs returns every catalog row's facts, sorted by cloud and name.
func (c *Catalog) SKUs() []SKU {
	out := make([]SKU, 0, len(c.rows))
	for _, r := range c.rows {
		out = append(out, r.sku)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cloud != out[j].Cloud {
			return out[i].Cloud < out[j].Cloud
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// File returns a deep copy of the catalog's file form, for pricegen's merge step.
func (c *Catalog) File() CatalogFile {
	f := c.file
	f.SKUs = make([]CatalogSKU, len(c.file.SKUs))
	for i, s := range c.file.SKUs {
		s.Prices = append([]CatalogPrice(nil), s.Prices...)
		f.SKUs[i] = s
	}
	f.Disks = append([]CatalogDisk(nil), c.file.Disks...)
	return f
}
