package infra

import (
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Untagged is the cost center of a resource that carries none of the
// cost-allocation tags.
const Untagged = "(untagged)"

// CostCenter is the GPUs and the hourly cost of the resources of one
// cost center (a value of the cost-allocation tags), across every plan
// rolled up. Hourly figures cover the resources Sum prices, so the
// cost centers of a roll-up add up to the plans' totals; Unpriced counts
// the resources left out of them.
type CostCenter struct {
	Value string
	// GPUsBefore and GPUsAfter are the accelerators by model, sorted by
	// model, at the expected and the maximum scale.
	GPUsBefore, GPUsAfter           []GPUCount
	HourlyBefore, HourlyAfter       float64
	MaxHourlyBefore, MaxHourlyAfter float64
	Resources, Unpriced             int
	// GPUsUnknown counts the resources whose GPUs on a side are not
	// known (a SKU no catalog row or family rule knows, a count known only
	// after apply): the GPU figures leave them out, never count them as 0.
	GPUsUnknown int
}

// GPUCount is how many accelerators of one model a cost center has.
type GPUCount struct {
	Model         string
	Count, AtMost float64
}

// CostCenters rolls the resources of every plan up by cost center: a
// side's center is the value of the first of keys its tags carry
// (Untagged when none); before figures go to the before side's center and
// after figures to the after side's. Resources billed through another
// (Cost.BilledVia) are left out, as Sum leaves them. Centers come sorted
// by value, Untagged last.
func CostCenters(keys []string, plans ...[]*Resource) []CostCenter {
	byValue := map[string]*CostCenter{}
	gpus := map[string]map[string]*[2]GPUCount{} // center -> model -> before, after
	at := func(v string) *CostCenter {
		c := byValue[v]
		if c == nil {
			c = &CostCenter{Value: v}
			byValue[v] = c
			gpus[v] = map[string]*[2]GPUCount{}
		}
		return c
	}
	center := func(s *Side) string {
		for _, k := range keys {
			if v := s.Tag(k); v != "" && v != "null" {
				return v
			}
		}
		return Untagged
	}
	for _, rs := range plans {
		for _, r := range rs {
			if r == nil || r.Cost.BilledVia != "" {
				continue
			}
			after := r.After
			if r.Action == planparse.ActionForget {
				after = r.Before // it keeps running, outside Terraform
			}
			var cb, ca *CostCenter
			var vb, va string
			if r.Before != nil {
				vb = center(r.Before)
				cb = at(vb)
			}
			if after != nil {
				va = vb
				if after != r.Before {
					va = center(after)
				}
				ca = at(va)
			}
			if ca == nil {
				ca = cb
			}
			ca.Resources++
			c := &r.Cost
			switch {
			case summable(c):
				if cb != nil {
					cb.HourlyBefore += *c.HourlyBefore
					cb.MaxHourlyBefore += *c.MaxHourlyBefore
				}
				ca.HourlyAfter += *c.HourlyAfter
				ca.MaxHourlyAfter += *c.MaxHourlyAfter
			case len(c.Unpriced) > 0 || len(c.DiskGaps) == 0:
				ca.Unpriced++
			}
			if !r.Before.GPUsKnown() || !after.GPUsKnown() {
				ca.GPUsUnknown++
			}
			for i, x := range []struct {
				s *Side
				v string
			}{{r.Before, vb}, {after, va}} {
				if x.s == nil || !x.s.HasGPU() {
					continue
				}
				addGPUs(gpus[x.v], x.s, i)
			}
		}
	}
	out := make([]CostCenter, 0, len(byValue))
	for v, c := range byValue {
		for model, g := range gpus[v] {
			if g[0].Count > 0 || g[0].AtMost > 0 {
				g[0].Model = model
				c.GPUsBefore = append(c.GPUsBefore, g[0])
			}
			if g[1].Count > 0 || g[1].AtMost > 0 {
				g[1].Model = model
				c.GPUsAfter = append(c.GPUsAfter, g[1])
			}
		}
		for _, l := range [][]GPUCount{c.GPUsBefore, c.GPUsAfter} {
			sort.Slice(l, func(i, j int) bool { return l[i].Model < l[j].Model })
		}
		c.HourlyBefore, c.HourlyAfter = round6(c.HourlyBefore), round6(c.HourlyAfter)
		c.MaxHourlyBefore, c.MaxHourlyAfter = round6(c.MaxHourlyBefore), round6(c.MaxHourlyAfter)
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Value == Untagged) != (out[j].Value == Untagged) {
			return out[j].Value == Untagged
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// addGPUs adds a side's accelerators, by model, to slot i (0 before, 1 after).
func addGPUs(m map[string]*[2]GPUCount, s *Side, i int) {
	for gi := range s.Groups {
		g := &s.Groups[gi]
		add := func(model string, per float64) {
			if per <= 0 || model == "" {
				return
			}
			x := m[model]
			if x == nil {
				x = &[2]GPUCount{}
				m[model] = x
			}
			x[i].Count += per * float64(g.Scale.Expected)
			x[i].AtMost += per * float64(g.Scale.Max)
		}
		if g.SKU.HasGPU() {
			add(g.SKU.GPUModel, g.SKU.GPUCount)
		}
		for _, at := range g.Attached {
			add(at.GPUModel, float64(at.Count))
		}
	}
}

// ShortModel shortens an accelerator model as reviewers say it: "NVIDIA
// Tesla V100 16GB" is "V100", "NVIDIA A100 80GB PCIe" is "A100 PCIe".
func ShortModel(model string) string {
	var out []string
	for _, w := range strings.Fields(model) {
		lw := strings.ToLower(w)
		if lw == "nvidia" || lw == "tesla" || lw == "amd" || lw == "instinct" || lw == "aws" {
			continue
		}
		if n, ok := strings.CutSuffix(lw, "gb"); ok {
			if _, err := strconv.ParseFloat(n, 64); err == nil {
				continue
			}
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return model
	}
	return strings.Join(out, " ")
}
