package review

import (
	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// projectCost is infra.Sum in the report's shape. Sum leaves a resource
// with any unpriced part out of every figure (so a SKU with no price never
// looks like a saving) and lists it under Unpriced. A project with nothing
// that bills by the hour costs 0; one whose every priced resource is
// unpriced, or whose only hourly resources are not estimated, has null
// figures: nothing is known.
func projectCost(pc infra.PlanCost, notEstimated []NotEstimated) Cost {
	c := Cost{Currency: "USD", Unpriced: make([]Unpriced, 0, len(pc.Unpriced)),
		HourlyBefore: pc.HourlyBefore, HourlyAfter: pc.HourlyAfter, HourlyDelta: pc.HourlyDelta,
		MaxHourlyAfter: pc.MaxHourlyAfter, MaxHourlyBefore: pc.MaxHourlyBefore,
		PricedResources: pc.Priced, UnpricedResources: pc.UnpricedResources,
		ApproximateResources: pc.Approximate, NotEstimated: notEstimated,
		ListHourlyBefore: pc.ListHourlyBefore, ListHourlyAfter: pc.ListHourlyAfter, YourPriceResources: pc.YourPrice,
		MinHourlyAfter: pc.MinHourlyAfter}
	if c.NotEstimated == nil {
		c.NotEstimated = []NotEstimated{}
	}
	if pc.Priced == 0 && pc.UnpricedResources == 0 && len(notEstimated) == 0 {
		zero := 0.0
		c.HourlyBefore, c.HourlyAfter, c.HourlyDelta, c.MaxHourlyAfter, c.MaxHourlyBefore = &zero, &zero, &zero, &zero, &zero
		c.ListHourlyBefore, c.ListHourlyAfter, c.MinHourlyAfter = &zero, &zero, &zero
	}
	c.MaxHourlyDelta = sub(c.MaxHourlyAfter, c.MaxHourlyBefore)
	c.ListHourlyDelta = sub(c.ListHourlyAfter, c.ListHourlyBefore)
	for _, u := range pc.Unpriced {
		x := Unpriced{Address: u.Address, SKU: planparse.ShownName(u.SKU), Reason: planparse.ShownProse(u.Reason),
			Region: planparse.ShownName(u.Region), Side: u.Side, Capacity: u.Capacity}
		if u.Ceiling > 0 {
			x.CeilingHourly = round(&u.Ceiling)
		}
		c.Unpriced = append(c.Unpriced, x)
	}
	c.MinHourlyAfter = round(c.MinHourlyAfter)
	c.HourlyBefore, c.HourlyAfter, c.HourlyDelta, c.MaxHourlyAfter = round(c.HourlyBefore), round(c.HourlyAfter), round(c.HourlyDelta), round(c.MaxHourlyAfter)
	c.MaxHourlyBefore, c.MaxHourlyDelta = round(c.MaxHourlyBefore), round(c.MaxHourlyDelta)
	c.ListHourlyBefore, c.ListHourlyAfter, c.ListHourlyDelta = round(c.ListHourlyBefore), round(c.ListHourlyAfter), round(c.ListHourlyDelta)
	return c
}

func sub(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	d := *a - *b
	return &d
}

// notEstimated lists the plan's managed resources of types that bill by
// the hour and that infra does not estimate, in plan order.
func notEstimated(plan *planparse.Plan, resources []*infra.Resource) []NotEstimated {
	var out []NotEstimated
	for _, c := range plan.Changes {
		if c.Mode != planparse.ModeManaged || c.Action == planparse.ActionRead || c.Deposed != "" {
			continue
		}
		if kind, ok := infra.NotEstimated(c.Type); ok {
			out = append(out, NotEstimated{Address: c.Address, Type: c.Type, Kind: kind, Action: string(c.Action), Reason: infra.NotEstimatedReason(c.Type)})
		}
	}
	// Disks whose price is not known (an Ultra disk, a size from the
	// image), of VMs and pools as of disk resources.
	for _, r := range resources {
		for _, g := range r.Cost.DiskGaps {
			reason := g.Reason
			if g.Group != "" {
				reason = g.Group + ": " + reason
			}
			out = append(out, NotEstimated{Address: r.Address, Type: r.Type, Kind: "disk", Action: string(r.Action), Reason: reason})
		}
	}
	return out
}

// costCenters is the roll-up by cost center of every project's resources,
// with the config's budgets.
func costCenters(cfg *rules.Config, projects []*Project) []CostCenter {
	plans := make([][]*infra.Resource, len(projects))
	for i, p := range projects {
		plans[i] = p.Resources
	}
	rows := infra.CostCenters(cfg.CostCenterTags(), plans...)
	out := make([]CostCenter, 0, len(rows))
	for _, r := range rows {
		c := CostCenter{Value: r.Value, GPUsBefore: gpuCounts(r.GPUsBefore), GPUsAfter: gpuCounts(r.GPUsAfter),
			HourlyBefore: *round(&r.HourlyBefore), HourlyAfter: *round(&r.HourlyAfter), HourlyDelta: *round(ptrTo(r.HourlyAfter - r.HourlyBefore)),
			MaxHourlyBefore: *round(&r.MaxHourlyBefore), MaxHourlyAfter: *round(&r.MaxHourlyAfter),
			Resources: r.Resources, UnpricedResources: r.Unpriced, GPUsUnknownResources: r.GPUsUnknown}
		if b, ok := cfg.CostAllocation.MonthlyBudget[r.Value]; ok {
			c.MonthlyBudget = &b
		}
		out = append(out, c)
	}
	return out
}

func ptrTo(v float64) *float64 { return &v }

func gpuCounts(l []infra.GPUCount) []GPUCount {
	out := make([]GPUCount, len(l))
	for i, g := range l {
		out[i] = GPUCount{Model: g.Model, Count: g.Count, AtMost: g.AtMost}
	}
	return out
}

func totals(projects []*Project) Totals {
	var before, after, maxAfter, diff, maxBefore, maxDiff, minAfter sum
	t := Totals{}
	for _, p := range projects {
		before.add(p.Cost.HourlyBefore)
		after.add(p.Cost.HourlyAfter)
		maxAfter.add(p.Cost.MaxHourlyAfter)
		diff.add(p.Cost.HourlyDelta)
		maxBefore.add(p.Cost.MaxHourlyBefore)
		maxDiff.add(p.Cost.MaxHourlyDelta)
		minAfter.add(p.Cost.MinHourlyAfter)
		t.UnpricedCount += len(p.Cost.Unpriced)
		t.NotEstimatedCount += len(p.Cost.NotEstimated)
	}
	t.HourlyBefore, t.HourlyAfter, t.MaxHourlyAfter = before.value(), after.value(), maxAfter.value()
	t.HourlyDelta = diff.value()
	t.MaxHourlyBefore, t.MaxHourlyDelta = maxBefore.value(), maxDiff.value()
	t.MinHourlyAfter = minAfter.value()
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
