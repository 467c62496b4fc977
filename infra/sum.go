package infra

// PlanCost is the hourly estimate of a whole plan, in USD.
//
// Totals cover only the resources whose every figure is known: a
// resource with anything unpriced is left out of all totals (never
// counted as zero, so a missing price never looks like a saving) and is
// counted in UnpricedResources, with its reasons in Unpriced. A total is
// nil when no resource could be priced. Resources that bill through
// another (Cost.BilledVia) are left out entirely, and so is a disk
// resource with no price (its Cost.DiskGaps list it as not estimated).
type PlanCost struct {
	HourlyBefore, HourlyAfter, HourlyDelta *float64
	// MaxHourlyBefore and MaxHourlyAfter are every autoscaled fleet at its
	// maximum; MinHourlyAfter at its minimum.
	MaxHourlyBefore, MaxHourlyAfter, MinHourlyAfter *float64
	// OverlapHourly is what the create-before-destroy replacements (and
	// SageMaker blue/green updates) cost while old and new both run; nil
	// when there are none.
	OverlapHourly *float64
	// ListHourlyBefore and ListHourlyAfter are the totals at list prices
	// (equal to HourlyBefore/After when no Pricing applies); YourPrice
	// counts the priced resources with a price of your own.
	ListHourlyBefore, ListHourlyAfter *float64
	YourPrice                         int
	// Priced is how many resources the totals cover.
	Priced int
	// Approximate is how many of them are priced, in part, at another
	// region's list price (Cost.Approximate).
	Approximate int
	// UnpricedResources is how many resources were left out of the totals.
	UnpricedResources int
	// Unpriced lists every unpriced item, in plan order.
	Unpriced []Unpriced
}

// Sum totals the costs of Analyze's resources; see PlanCost for what is
// included.
func Sum(resources []*Resource) PlanCost {
	var pc PlanCost
	var b, a, bMax, aMax, aMin, overlap, lb, la float64
	anyOverlap := false
	// The unpriced items are counted first: a large plan has thousands.
	n := 0
	for _, r := range resources {
		if r != nil && r.Cost.BilledVia == "" && !summable(&r.Cost) {
			n += len(r.Cost.Unpriced)
		}
	}
	if n > 0 {
		pc.Unpriced = make([]Unpriced, 0, n)
	}
	for _, r := range resources {
		if r == nil || r.Cost.BilledVia != "" {
			continue
		}
		c := &r.Cost
		if !summable(c) && len(c.Unpriced) == 0 && len(c.DiskGaps) > 0 {
			continue // a disk with no price: listed as not estimated
		}
		if !summable(c) {
			pc.UnpricedResources++
			pc.Unpriced = append(pc.Unpriced, c.Unpriced...)
			continue
		}
		pc.Priced++
		if c.Approximate {
			pc.Approximate++
		}
		if c.YourPrice {
			pc.YourPrice++
		}
		lb += val(c.ListHourlyBefore, *c.HourlyBefore)
		la += val(c.ListHourlyAfter, *c.HourlyAfter)
		b += *c.HourlyBefore
		a += *c.HourlyAfter
		bMax += *c.MaxHourlyBefore
		aMax += *c.MaxHourlyAfter
		aMin += *c.MinHourlyAfter
		if c.OverlapHourly != nil {
			overlap += *c.OverlapHourly
			anyOverlap = true
		}
	}
	if pc.Priced == 0 {
		return pc
	}
	pc.HourlyBefore, pc.HourlyAfter, pc.HourlyDelta = ptr(b), ptr(a), ptr(a-b)
	pc.ListHourlyBefore, pc.ListHourlyAfter = ptr(lb), ptr(la)
	pc.MaxHourlyBefore, pc.MaxHourlyAfter, pc.MinHourlyAfter = ptr(bMax), ptr(aMax), ptr(aMin)
	if anyOverlap {
		pc.OverlapHourly = ptr(overlap)
	}
	return pc
}

// summable reports whether a resource's cost goes into the totals: every
// figure Sum adds is known.
func summable(c *Cost) bool {
	return c.Priced() && c.MaxHourlyAfter != nil && c.MaxHourlyBefore != nil && c.MinHourlyAfter != nil
}

// val is *p, or def when p is nil.
func val(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}
