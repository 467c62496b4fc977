package infra

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// gcpBulk is a Compute Engine machine type's row: its facts as the
// source gives them (vCPU may be a fraction for shared-core types) and
// its "idx=price" fields, parsed only when a price is looked up.
type gcpBulk struct {
	vcpu, memGiB float64
	gpus         int
	gpuType      string // Compute Engine accelerator type, e.g. nvidia-tesla-a100
	prices       string
}

// gcpRow parses a G row: vcpu, memory GiB, GPU count, accelerator type,
// then its prices.
func (b *Bulk) gcpRow(l bulkLine) (*gcpBulk, error) {
	f := strings.SplitN(l.rest, "\t", 5)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("bulk catalog line %d: %s: "+format, append([]any{l.line, l.name}, args...)...)
	}
	if len(f) < 5 {
		return nil, bad("gcp row has %d fields after the name, want vcpu, memory, GPU count, GPU type and prices", len(f))
	}
	g := &gcpBulk{gpuType: f[3], prices: f[4]}
	var err error
	if g.vcpu, err = strconv.ParseFloat(f[0], 64); err != nil || !(g.vcpu > 0) {
		return nil, bad("vcpu %q is not a positive number", f[0])
	}
	if g.memGiB, err = strconv.ParseFloat(f[1], 64); err != nil || !(g.memGiB > 0) {
		return nil, bad("memory_gib %q is not a positive number", f[1])
	}
	if g.gpus, err = strconv.Atoi(f[2]); err != nil || g.gpus < 0 {
		return nil, bad("gpu_count %q is not a whole number", f[2])
	}
	if _, _, known := GCPAccelerator(g.gpuType); (g.gpus > 0) != (g.gpuType != "") || g.gpuType != "" && !known {
		return nil, bad("gpu_count %d with accelerator type %q: want a known type with a count, or neither", g.gpus, g.gpuType)
	}
	if _, err := regionPrices(l, g.prices, b.gcpRegions, "gcp"); err != nil {
		return nil, err
	}
	return g, nil
}

func (b *Bulk) gcpLine(name string) (bulkLine, *gcpBulk) {
	l, ok := b.gcp[strings.ToLower(name)]
	if !ok {
		return l, nil
	}
	g, err := b.gcpRow(l)
	if err != nil {
		return l, nil
	}
	return l, g
}

// gcpPrice is the bulk on-demand price of a machine type in a region.
func (b *Bulk) gcpPrice(name, region string) (Price, bool) {
	l, ok := b.gcp[strings.ToLower(name)]
	idx, known := b.gcpRegionIdx[region]
	if !ok || !known {
		return Price{}, false
	}
	_, fields, _ := strings.Cut(l.rest, "\t")
	for range 3 {
		_, fields, _ = strings.Cut(fields, "\t")
	}
	v, ok := priceAt(fields, idx)
	if !ok {
		return Price{}, false
	}
	return Price{USDPerHour: v, Observed: b.gcpSrc.Observed, Source: b.gcpSrc.Source}, true
}

// sku is a machine type's facts: the family rules' GPU model when they
// name the same accelerator and count, else the accelerator type's.
func (g *gcpBulk) sku(name string) SKU {
	s := SKU{Cloud: CloudGCP, Name: name, MemoryGiB: g.memGiB, Known: true}
	if g.vcpu == math.Trunc(g.vcpu) {
		s.VCPU = int(g.vcpu)
	}
	fam, famOK := FamilyFacts(CloudGCP, name)
	if famOK {
		s.Family = fam.Family
	} else if f, _, ok := strings.Cut(strings.ToLower(name), "-"); ok {
		s.Family = f
	}
	if g.gpus == 0 {
		return s
	}
	model, mem, _ := GCPAccelerator(g.gpuType)
	if famOK && fam.HasGPU() && fam.GPUCount == float64(g.gpus) && fam.GPUModel == model {
		s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator = fam.GPUCount, fam.GPUModel, fam.GPUMemoryGiB, fam.Accelerator
		return s
	}
	s.GPUCount, s.GPUModel, s.GPUMemoryGiB, s.Accelerator = float64(g.gpus), model, round4(mem*float64(g.gpus)), AcceleratorNVIDIA
	return s
}
