package review

import "github.com/planwarden/planwarden/infra"

// projectCost is infra.Sum in the report's shape. Sum leaves a resource
// with any unpriced part out of every figure (so a SKU with no price never
// looks like a saving) and lists it under Unpriced. A project with nothing
// planwarden prices costs 0; one whose every priced resource is unpriced
// has null figures.
func projectCost(resources []*infra.Resource) Cost {
	pc := infra.Sum(resources)
	c := Cost{Currency: "USD", Unpriced: make([]Unpriced, 0, len(pc.Unpriced)),
		HourlyBefore: pc.HourlyBefore, HourlyAfter: pc.HourlyAfter, HourlyDelta: pc.HourlyDelta,
		MaxHourlyAfter: pc.MaxHourlyAfter, PricedResources: pc.Priced, UnpricedResources: pc.UnpricedResources,
		ApproximateResources: pc.Approximate}
	if pc.Priced == 0 && pc.UnpricedResources == 0 {
		zero := 0.0
		c.HourlyBefore, c.HourlyAfter, c.HourlyDelta, c.MaxHourlyAfter = &zero, &zero, &zero, &zero
	}
	for _, u := range pc.Unpriced {
		c.Unpriced = append(c.Unpriced, Unpriced{Address: u.Address, SKU: u.SKU, Reason: u.Reason, Region: u.Region, Side: u.Side})
	}
	c.HourlyBefore, c.HourlyAfter, c.HourlyDelta, c.MaxHourlyAfter = round(c.HourlyBefore), round(c.HourlyAfter), round(c.HourlyDelta), round(c.MaxHourlyAfter)
	return c
}

func totals(projects []*Project) Totals {
	var before, after, maxAfter, diff sum
	t := Totals{}
	for _, p := range projects {
		before.add(p.Cost.HourlyBefore)
		after.add(p.Cost.HourlyAfter)
		maxAfter.add(p.Cost.MaxHourlyAfter)
		diff.add(p.Cost.HourlyDelta)
		t.UnpricedCount += len(p.Cost.Unpriced)
	}
	t.HourlyBefore, t.HourlyAfter, t.MaxHourlyAfter = before.value(), after.value(), maxAfter.value()
	t.HourlyDelta = diff.value()
	return t
}

// sum adds known figures and remembers whether any was unknown.
type sum struct {
	total          float64
	known, unknown int
}

func (s *sum) add(v *float64) {
	if v == nil {
		s.unknown++
		return
	}
	s.known++
	s.total += *v
}

// value is the sum of the known figures; nil when only unknown ones were added.
func (s *sum) value() *float64 {
	if s.known == 0 && s.unknown > 0 {
		return nil
	}
	return round(&s.total)
}

// round keeps figures to a hundredth of a cent, so sums do not show float noise.
func round(p *float64) *float64 {
	if p == nil {
		return nil
	}
	const q = 10000
	v := *p
	if v < 0 {
		v = -float64(int64(-v*q+0.5)) / q
	} else {
		v = float64(int64(v*q+0.5)) / q
	}
	return &v
}
