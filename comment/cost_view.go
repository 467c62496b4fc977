package comment

import (
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// gpuChange is the GPUs of every project before and after, at the
// expected and the maximum scale, with the models whose count changes.
type gpuChange struct {
	before, after, maxBefore, maxAfter float64
	known                              bool
	models                             []string
}

// gpuTotals sums the accelerators of every resource of the report (a
// resource billed through another is counted there; a forgotten one keeps
// its GPUs).
func (v *view) gpuTotals() gpuChange {
	g := gpuChange{known: true}
	for _, p := range v.r.Projects {
		for _, r := range p.Resources {
			if r == nil || r.Cost.BilledVia != "" {
				continue
			}
			after := r.After
			if r.Action == planparse.ActionForget {
				after = r.Before
			}
			eb, ea, mb, ma := r.Before.GPUs(false), after.GPUs(false), r.Before.GPUs(true), after.GPUs(true)
			g.before, g.after, g.maxBefore, g.maxAfter = g.before+eb, g.after+ea, g.maxBefore+mb, g.maxAfter+ma
			if eb == ea && mb == ma {
				continue
			}
			g.known = g.known && r.Before.GPUsKnown() && after.GPUsKnown()
			for _, s := range []*infra.Side{r.Before, after} {
				if m := sideModel(s); m != "" && !slices.Contains(g.models, m) {
					g.models = append(g.models, m)
				}
			}
		}
	}
	return g
}

// sideModel is the short model of a side's first accelerator.
func sideModel(s *infra.Side) string {
	if s == nil {
		return ""
	}
	for i := range s.Groups {
		gr := &s.Groups[i]
		if gr.SKU.HasGPU() {
			return infra.ShortModel(gr.SKU.GPUModel)
		}
		for _, at := range gr.Attached {
			if at.Count > 0 && at.GPUModel != "" {
				return infra.ShortModel(at.GPUModel)
			}
		}
	}
	return ""
}

// gpuHeadline says how the GPUs change, "" when they do not: "2 → 0
// (V100)", "0 → 0, up to 10 at maximum scale (A100 PCIe)".
func (g gpuChange) text() string {
	if g.before == g.after && g.maxBefore == g.maxAfter {
		return ""
	}
	if !g.known {
		return "change unknown (a SKU or count is not known)"
	}
	var notes []string
	if len(g.models) > 0 {
		ms := make([]string, len(g.models))
		for i, m := range g.models {
			ms[i] = text(m)
		}
		notes = append(notes, strings.Join(ms, ", "))
	}
	if g.maxBefore != g.before || g.maxAfter != g.after {
		notes = append(notes, "at maximum scale "+num(g.maxBefore)+" → "+num(g.maxAfter))
	}
	s := num(g.before) + " → " + num(g.after)
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// costRange is the hourly cost after the change from every autoscaled
// fleet at its minimum to its maximum, when those differ: "\$0.00–\$36.73
// per hour".
func costRange(t review.Totals) string {
	lo, hi := t.MinHourlyAfter, t.MaxHourlyAfter
	if lo == nil || hi == nil || money(lo) == money(hi) {
		return ""
	}
	return money(lo) + "–" + money(hi) + " per hour"
}

// leftOut counts what the figures leave out: unpriced resources and
// those not estimated, and apart the disks with no price (of resources
// that may be priced themselves).
func (v *view) leftOut() int {
	r, d := v.leftOutParts()
	return r + d
}

func (v *view) leftOutParts() (resources, disks int) {
	for _, p := range v.r.Projects {
		resources += p.Cost.UnpricedResources
		for _, n := range p.Cost.NotEstimated {
			if n.Kind == "disk" {
				disks++
			} else {
				resources++
			}
		}
	}
	return resources, disks
}

// leftOutText is "1 resource and 2 disks are", "2 resources are".
func (v *view) leftOutText() string {
	r, d := v.leftOutParts()
	switch {
	case d == 0:
		return plural(r, "resource is", "resources are")
	case r == 0:
		return plural(d, "disk is", "disks are")
	}
	return plural(r, "resource", "resources") + " and " + plural(d, "disk", "disks") + " are"
}

// unpricedGroup is the unpriced items of one SKU, region and reason.
type unpricedGroup struct {
	u       review.Unpriced
	names   []string
	n       int
	ceiling float64
}

// unpricedItems lists what has no price, one line per SKU, region and
// reason (thirty spot pools of one SKU are one line), naming the first
// resources and how many more.
func (v *view) unpricedItems() *lazyItems[string] {
	var groups []*unpricedGroup
	index := map[[4]string]*unpricedGroup{}
	for i, p := range v.r.Projects {
		seen := make(map[review.Unpriced]bool, len(p.Cost.Unpriced))
		for _, u := range p.Cost.Unpriced {
			if seen[u] {
				continue
			}
			seen[u] = true
			k := [4]string{u.SKU, u.Region, u.Reason, u.Capacity}
			g := index[k]
			if g == nil {
				g = &unpricedGroup{u: u}
				index[k] = g
				groups = append(groups, g)
			}
			g.n++
			if u.CeilingHourly != nil {
				g.ceiling += *u.CeilingHourly
			}
			if len(g.names) < 3 {
				name := code(u.Address)
				if v.multi {
					name += " in " + code(v.projectName(p, i))
				}
				g.names = append(g.names, name)
			}
		}
	}
	return newLazy(len(groups), func(j int) string {
		g := groups[j]
		u := g.u
		lead := "Not priced: "
		if u.Capacity == infra.CapacitySpot {
			lead = "Spot: "
		}
		s := lead + listCounted(g.names, g.n)
		if u.SKU != "" {
			s += " (" + code(u.SKU)
			if u.Region != "" {
				s += " in " + code(u.Region)
			}
			s += ")"
		}
		if u.Capacity == infra.CapacitySpot && g.ceiling > 0 {
			c := g.ceiling
			return s + ": spot, at most " + money(&c) + " per hour at the expected scale (the on-demand price, a ceiling, not the expected cost); give your spot rate under `pricing.spot_prices`, or a discount with `capacity: spot` under `pricing.discounts`."
		}
		return s + ": " + text(orUnknown(u.Reason, "no reason given"))
	})
}

// notEstimatedItem lists, once and grouped by type with counts, the
// resources that bill but that planwarden does not estimate, and the
// disks it could not price.
func (v *view) notEstimatedItem() string {
	type group struct {
		typ, kind, reason string
		n                 int
	}
	var groups []*group
	index := map[[2]string]*group{}
	for _, p := range v.r.Projects {
		for _, n := range p.Cost.NotEstimated {
			k := [2]string{n.Type, n.Reason}
			if n.Kind == "disk" {
				k = [2]string{"disk", diskReason(n.Reason)}
			}
			g := index[k]
			if g == nil {
				g = &group{typ: n.Type, kind: n.Kind, reason: k[1]}
				index[k] = g
				groups = append(groups, g)
			}
			g.n++
		}
	}
	if len(groups) == 0 {
		return ""
	}
	items := make([]string, 0, len(groups))
	for _, g := range groups {
		if g.kind == "disk" {
			items = append(items, plural(g.n, "disk", "disks")+" ("+text(g.reason)+")")
			continue
		}
		what := text(g.kind)
		if g.reason != infra.NotEstimatedReason("") {
			// Serving endpoints that bill other than by a VM rate say how.
			what += ": " + text(g.reason)
		}
		items = append(items, strconv.Itoa(g.n)+" × "+code(g.typ)+" ("+what+")")
	}
	return "Not estimated, left out of the figures: " + listSome(items, 8) + "."
}

// diskReason is a disk gap's reason without the disk's name.
func diskReason(r string) string {
	if _, after, ok := strings.Cut(r, ": "); ok {
		return after
	}
	return r
}

// costCenters is the roll-up by cost center: GPUs and hourly cost before
// and after, one row per value of the cost-allocation tag.
func (v *view) costCenters() string {
	rows := v.r.CostCenters
	if !slices.ContainsFunc(rows, func(c review.CostCenter) bool { return c.Value != infra.Untagged }) {
		return "" // nothing carries a cost-allocation tag: one row would repeat the totals
	}
	tag := "cost center"
	if len(v.r.CostCenterTags) > 0 {
		tag = code(v.r.CostCenterTags[0])
	}
	budgets := slices.ContainsFunc(rows, func(c review.CostCenter) bool { return c.MonthlyBudget != nil })
	cols := []string{tag, "GPUs", "GPUs at maximum scale", "Hourly before>", "Hourly after>", "Change>"}
	if budgets {
		cols = append(cols, "Monthly after, budget>")
	}
	tb := newTable(cols...)
	for _, c := range rows {
		name := code(c.Value)
		if c.Value == infra.Untagged {
			name = "(untagged)"
		}
		var notes []string
		if c.UnpricedResources > 0 {
			notes = append(notes, plural(c.UnpricedResources, "resource", "resources")+" not priced")
		}
		if c.GPUsUnknownResources > 0 {
			notes = append(notes, "GPUs of "+plural(c.GPUsUnknownResources, "resource", "resources")+" unknown")
		}
		if len(notes) > 0 {
			name += " (" + strings.Join(notes, "; ") + ")"
		}
		before, after, d := c.HourlyBefore, c.HourlyAfter, c.HourlyDelta
		cells := []string{name, beforeAfter(gpuList(c.GPUsBefore, false), gpuList(c.GPUsAfter, false)),
			beforeAfter(gpuList(c.GPUsBefore, true), gpuList(c.GPUsAfter, true)), money(&before), money(&after), delta(&d)}
		if budgets {
			cells = append(cells, budgetCell(c))
		}
		tb.add(cells...)
	}
	s := section{Heading: "Cost by cost center", Table: tb,
		Intro: "GPUs (model × count) and the priced hourly cost of every project, by the value of " + tag + "; the rows add up to the totals above."}
	return execute("section", s)
}

// gpuList is "2 × A100 PCIe, 8 × H100" (models as reviewers say them,
// those of one short name added up), or "none" when there are none at
// that scale (a pool at 0 of 10 nodes has none at the expected scale).
func gpuList(l []review.GPUCount, atMost bool) string {
	var names []string
	counts := map[string]float64{}
	for _, g := range l {
		n := g.Count
		if atMost {
			n = g.AtMost
		}
		if n <= 0 {
			continue
		}
		m := infra.ShortModel(g.Model)
		if _, ok := counts[m]; !ok {
			names = append(names, m)
		}
		counts[m] += n
	}
	if len(names) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(names))
	for _, m := range names {
		parts = append(parts, num(counts[m])+" × "+text(m))
	}
	return strings.Join(parts, ", ")
}

// spotBound is what the plans cost at most when the only figures missing
// are spot capacity with no spot price: those at their ceiling (the
// on-demand price), everything else as priced. It is a bound, never the
// expected cost.
type spotBound struct {
	before, after, afterMax float64
	// beforeKnown is false when a before side is spot with no price too:
	// then the change has no bound, only the cost after it.
	beforeKnown bool
	// n counts the resources at their ceiling.
	n int
}

// spotBound is the bound of the report, false when anything other than
// spot capacity is unpriced, or nothing is spot without a price.
func (v *view) spotBound() (spotBound, bool) {
	if v.spot == nil {
		b, ok := v.makeSpotBound()
		v.spot = &spotResult{b, ok}
	}
	return v.spot.b, v.spot.ok
}

func (v *view) makeSpotBound() (spotBound, bool) {
	b := spotBound{beforeKnown: true}
	for _, p := range v.r.Projects {
		for _, r := range p.Resources {
			if r == nil || r.Cost.BilledVia != "" {
				continue
			}
			if len(r.Cost.DiskGaps) > 0 {
				return b, false
			}
			after := r.After
			if r.Action == planparse.ActionForget {
				after = r.Before
			}
			c := &r.Cost
			switch {
			case c.HourlyBefore != nil:
				b.before += *c.HourlyBefore
			case r.Before == nil:
			default:
				if _, _, _, ok := r.Before.SpotCeiling(); !ok {
					return b, false
				}
				b.beforeKnown = false
			}
			switch {
			case c.HourlyAfter != nil:
				b.after += *c.HourlyAfter
				if c.MaxHourlyAfter != nil {
					b.afterMax += *c.MaxHourlyAfter
				} else {
					b.afterMax += *c.HourlyAfter
				}
			case after == nil:
			default:
				_, exp, hi, ok := after.SpotCeiling()
				if !ok {
					return b, false
				}
				b.n++
				b.after += exp
				b.afterMax += hi
			}
		}
	}
	return b, b.n > 0
}

// text is the headline's cost when spot capacity has no price: "spot, at
// most +\$220.38 per hour (the on-demand price as a ceiling, not the
// expected cost; 30 resources have no spot price)".
func (b spotBound) text() string { return "spot, " + b.bound() }

// bound is text's figure: "at most +\$220.38 per hour (...)".
func (b spotBound) bound() string {
	s := "at most "
	if b.beforeKnown {
		d := b.after - b.before
		s += delta(&d) + " per hour"
	} else {
		s += money(&b.after) + " per hour after it"
	}
	return s + " (the on-demand price as a ceiling, not the expected cost; " +
		plural(b.n, "resource has", "resources have") + " no spot price)"
}

// spotCell is a side's hourly cell when its spot capacity has no price:
// "spot, at most \$7.35 (on-demand ceiling; up to \$29.38)", "" when the
// side is not such.
func spotCell(s *infra.Side) string {
	_, exp, hi, ok := s.SpotCeiling()
	if !ok {
		return ""
	}
	out := "spot, at most " + money(&exp) + " (the on-demand ceiling"
	if money(&hi) != money(&exp) {
		out += "; up to " + money(&hi) + " at maximum scale"
	}
	return out + ")"
}

// capacityMark says how a side's instances are bought when not on
// demand: spot, in a capacity reservation, in a Capacity Block; "" on
// demand.
func capacityMark(s *infra.Side) string {
	if s == nil {
		return ""
	}
	for i := range s.Groups {
		switch s.Groups[i].Capacity {
		case infra.CapacitySpot:
			return "spot capacity"
		case infra.CapacityReservation:
			return "capacity reservation: billed at the on-demand rate whether used or not"
		case infra.CapacityBlock:
			return "Capacity Block: paid up front for the block, not by the hour"
		}
	}
	return ""
}

// diskNote names the priced disks of an instance of a VM or pool, which
// its hourly figure includes: "OS disk `Premium_LRS` P30, 1,024 GiB:
// \$135.17 a month each". A disk resource's own row needs none.
func diskNote(s *infra.Side) string {
	if s == nil || len(s.Groups) == 0 {
		return ""
	}
	var parts []string
	for _, d := range s.Disks {
		if d.Hourly == nil || len(parts) == 3 {
			continue
		}
		p := text(d.Name) + " " + codeCell(d.Type)
		if d.Tier != "" {
			p += " " + text(d.Tier)
		}
		m := *d.Hourly * infra.HoursPerMonth
		parts = append(parts, p+", "+groupInt(d.SizeGiB)+" GiB: "+money(&m)+" a month")
	}
	if len(parts) == 0 {
		return ""
	}
	each := ""
	if s.Groups[0].Scale.Max > 1 {
		each = " per node"
	}
	return "with " + strings.Join(parts, "; ") + each
}

// budgetCell is a cost center's monthly cost after the change (730 hours
// at the expected scale) beside its budget (cost_allocation.monthly_budget):
// "\$45,581.20 of warn \$40,000.00, block \$80,000.00"; "—" with none.
func budgetCell(c review.CostCenter) string {
	b := c.MonthlyBudget
	if b == nil {
		return "—"
	}
	m := c.HourlyAfter * infra.HoursPerMonth
	var limits []string
	if b.Warn != nil {
		limits = append(limits, "warn "+money(b.Warn))
	}
	if b.Block != nil {
		limits = append(limits, "block "+money(b.Block))
	}
	return money(&m) + " of " + strings.Join(limits, ", ")
}
