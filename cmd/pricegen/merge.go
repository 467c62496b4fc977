package main

import (
	"sort"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// observation is one price a source reported, with whatever specs the
// source carries.
type observation struct {
	Cloud, SKU, Region string
	USDPerHour         float64
	Observed, Source   string
	// Facts are the source's specs (Prices unused). Curated facts (the CSV)
	// replace catalog facts; API facts only fill blanks, so a refresh never
	// loses the GPU facts the catalog already has.
	Facts   infra.CatalogSKU
	Curated bool
}

// mergeOptions say which new SKUs a refresh may add.
type mergeOptions struct {
	// All adds every SKU seen; otherwise a refresh adds only SKUs whose
	// family carries an accelerator (existing rows are always updated).
	All bool
}

// mergeStats counts what a merge did.
type mergeStats struct {
	Updated, Added, Skipped int
	// NeedRule lists accelerated SKUs left out because no family rule
	// names their accelerator.
	NeedRule []string
}

func appendOnce(l []string, s string) []string {
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}

// merge folds observations into a catalog file: a price for an existing
// (cloud, sku, region) is replaced, new regions and SKUs are added, GPU
// facts are kept. The result is sorted by cloud, name and region so that
// regenerating gives a stable diff.
func merge(base infra.CatalogFile, obs []observation, opt mergeOptions) (infra.CatalogFile, mergeStats) {
	var st mergeStats
	idx := map[string]int{}
	out := base
	out.SKUs = append([]infra.CatalogSKU(nil), base.SKUs...)
	for i, s := range out.SKUs {
		out.SKUs[i].Prices = append([]infra.CatalogPrice(nil), s.Prices...)
		idx[s.Cloud+"/"+strings.ToLower(s.Name)] = i
	}
	for _, o := range obs {
		k := o.Cloud + "/" + strings.ToLower(o.SKU)
		i, ok := idx[k]
		if !ok {
			fam, known := infra.FamilyFacts(o.Cloud, o.SKU)
			if !o.Curated && o.Facts.GPUCount > 0 && !(known && fam.HasGPU()) {
				// The price list counts accelerators but does not name them:
				// such a SKU needs a family rule before it can be added.
				st.NeedRule = appendOnce(st.NeedRule, o.Cloud+"/"+o.SKU)
				continue
			}
			if !opt.All && !o.Curated && !(known && fam.HasGPU()) {
				st.Skipped++
				continue
			}
			s := infra.CatalogSKU{Cloud: o.Cloud, Name: o.SKU}
			if known {
				s.Family, s.VCPU = fam.Family, fam.VCPU
				s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator = fam.GPUCount, fam.GPUModel, fam.GPUMemoryGiB, fam.Accelerator
				s.Retired, s.RetiredOn = fam.Retired, fam.RetiredOn
			}
			out.SKUs = append(out.SKUs, s)
			i = len(out.SKUs) - 1
			idx[k] = i
			st.Added++
		} else {
			st.Updated++
		}
		s := &out.SKUs[i]
		applyFacts(s, o.Facts, o.Curated)
		if d := infra.RetiredOn(s.Cloud, s.Name); d != "" {
			s.Retired, s.RetiredOn = true, d
		}
		if o.USDPerHour > 0 && o.Region != "" {
			p := infra.CatalogPrice{Region: infra.NormalizeRegion(o.Region), USDPerHour: o.USDPerHour, Observed: o.Observed, Source: o.Source}
			replaced := false
			for j := range s.Prices {
				if infra.NormalizeRegion(s.Prices[j].Region) == p.Region {
					s.Prices[j], replaced = p, true
				}
			}
			if !replaced {
				s.Prices = append(s.Prices, p)
			}
		}
	}
	for i := range out.SKUs {
		ps := out.SKUs[i].Prices
		sort.Slice(ps, func(a, b int) bool { return ps[a].Region < ps[b].Region })
	}
	sort.Slice(out.SKUs, func(a, b int) bool {
		x, y := out.SKUs[a], out.SKUs[b]
		if x.Cloud != y.Cloud {
			return x.Cloud < y.Cloud
		}
		return x.Name < y.Name
	})
	out.Format = infra.CatalogFormat
	return out, st
}

// applyFacts copies specs into a row: all of them when curated, else only
// into empty fields; GPU facts from an API never replace existing ones.
func applyFacts(s *infra.CatalogSKU, f infra.CatalogSKU, curated bool) {
	set := func(empty bool) bool { return curated || empty }
	if f.Family != "" && set(s.Family == "") {
		s.Family = f.Family
	}
	if f.VCPU > 0 && set(s.VCPU == 0) {
		s.VCPU = f.VCPU
	}
	if f.MemoryGiB > 0 && set(s.MemoryGiB == 0) {
		s.MemoryGiB = f.MemoryGiB
	}
	if f.Source != "" && set(s.Source == "") {
		s.Source = f.Source
	}
	hasGPU := s.GPUCount > 0
	if curated || !hasGPU && f.GPUCount > 0 {
		if curated || f.GPUModel != "" {
			s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator = f.GPUCount, f.GPUModel, f.GPUMemoryGiB, f.Accelerator
		}
	}
	if hasGPU && s.GPUMemoryGiB == 0 && f.GPUMemoryGiB > 0 {
		s.GPUMemoryGiB = f.GPUMemoryGiB
	}
}

// acceleratorOf names the accelerator kind from a GPU model string.
func acceleratorOf(model string, count float64) infra.Accelerator {
	m := strings.ToLower(model)
	switch {
	case count <= 0:
		return infra.AcceleratorNone
	case strings.Contains(m, "inferentia"):
		return infra.AcceleratorInferentia
	case strings.Contains(m, "trainium"):
		return infra.AcceleratorTrainium
	case strings.Contains(m, "amd") || strings.Contains(m, "radeon"):
		return infra.AcceleratorAMD
	}
	return infra.AcceleratorNVIDIA
}
