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
	for _, m := range g.models {
		notes = append(notes, text(m))
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

// leftOut counts the resources the figures leave out: unpriced ones and
// those not estimated.
func (v *view) leftOut() int {
	n := 0
	for _, p := range v.r.Projects {
		n += p.Cost.UnpricedResources + len(p.Cost.NotEstimated)
	}
	return n
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
			return s + ": spot, at most " + money(&c) + " per hour at the expected scale (the on-demand price, a ceiling, not the expected cost); give your spot rate under `pricing.spot_prices`."
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
		items = append(items, strconv.Itoa(g.n)+" × "+code(g.typ)+" ("+text(g.kind)+")")
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
	tb := newTable(tag, "GPUs", "GPUs at maximum scale", "Hourly before>", "Hourly after>", "Change>")
	for _, c := range rows {
		name := code(c.Value)
		if c.Value == infra.Untagged {
			name = "(untagged)"
		}
		if c.UnpricedResources > 0 {
			name += " (" + plural(c.UnpricedResources, "resource", "resources") + " not priced)"
		}
		before, after, d := c.HourlyBefore, c.HourlyAfter, c.HourlyDelta
		tb.add(name, beforeAfter(gpuList(c.GPUsBefore, false), gpuList(c.GPUsAfter, false)),
			beforeAfter(gpuList(c.GPUsBefore, true), gpuList(c.GPUsAfter, true)), money(&before), money(&after), delta(&d))
	}
	s := section{Heading: "Cost by cost center", Table: tb,
		Intro: "GPUs (model × count) and the priced hourly cost of every project, by the value of " + tag + "; the rows add up to the totals above."}
	return execute("section", s)
}

// gpuList is "2 × A100 PCIe, 8 × H100", or "none".
func gpuList(l []review.GPUCount, atMost bool) string {
	if len(l) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(l))
	for _, g := range l {
		n := g.Count
		if atMost {
			n = g.AtMost
		}
		parts = append(parts, num(n)+" × "+text(infra.ShortModel(g.Model)))
	}
	return strings.Join(parts, ", ")
}
