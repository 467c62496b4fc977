package comment

import (
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// gpu renders the GPU resources changed (at most limit rows when limit >= 0).
func (v *view) gpu(limit int) (string, int) {
	v.prepare()
	if v.gpuRows.n == 0 {
		return "", 0
	}
	t := v.gpuTable
	t.Rows = v.gpuRows.first(limit)
	s := section{Heading: "GPU changes", Table: t,
		Intro: "Per resource: SKU, accelerators per node, node counts and the GPUs of the whole fleet (expected scale), before → after."}
	n := v.gpuRows.n - len(t.Rows)
	if n > 0 {
		s.LeftOut = "_… and " + plural(n, "more GPU resource", "more GPU resources") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s), n
}

// gpuList is the GPU table's header and its rows: one per changed resource
// that has accelerators on either side, or that a gpu-* rule has a finding
// about; resources with findings first (they stay when the list is cut),
// plan order within.
func (v *view) gpuList() (table, *lazyItems[string]) {
	cols := []string{"Resource"}
	if v.multi {
		cols = append(cols, "Project")
	}
	cols = append(cols, "SKU", "GPUs per node", "Nodes min / expected / max", "Fleet GPUs", "Hourly")
	var first, later []changeRef // rows without findings go after those with
	for i, p := range v.r.Projects {
		for _, c := range p.Changes {
			r := c.Resource
			if r == nil || actionKey(c) == "no-op" || actionKey(c) == "read" {
				continue
			}
			k := findingKey("", p.Name, c.Address())
			if !r.Before.HasGPU() && !r.After.HasGPU() && !v.gpuIssues[k] {
				continue
			}
			// An endpoint configuration is how its endpoints are priced, not
			// a fleet of its own: one row per endpoint, so GPUs add up.
			if r.Cost.BilledVia != "" && r.Cost.BilledVia != infra.BilledViaNodes && !v.gpuIssues[k] {
				continue
			}
			if v.issues[k] {
				first = append(first, changeRef{p, i, c})
			} else {
				later = append(later, changeRef{p, i, c})
			}
		}
	}
	refs := append(first, later...)
	return newTable(cols...), newLazy(len(refs), func(j int) string { return v.gpuRow(refs[j]) })
}

func (v *view) gpuRow(ref changeRef) string {
	p, i, c := ref.p, ref.i, ref.c
	r := c.Resource
	addr := codeCell(c.Address())
	if d := c.Source.Deposed; d != "" {
		addr += " (deposed " + codeCell(planparse.ShownName(d)) + ")"
	}
	cells := []string{addr}
	if v.multi {
		cells = append(cells, codeCell(v.projectName(p, i)))
	}
	hb := hourlyRange(r.Cost.HourlyBefore, nil, nil, r.Cost.Approximate)
	switch {
	case r.Before == nil:
		hb = "—"
	case r.Cost.HourlyBefore == nil && spotCell(r.Before) != "":
		hb = spotCell(r.Before)
	}
	after := r.After
	ha := hourlyRange(r.Cost.HourlyAfter, r.Cost.MinHourlyAfter, r.Cost.MaxHourlyAfter, r.Cost.Approximate)
	switch {
	case after == nil:
		ha = "—"
	case r.Cost.HourlyAfter == nil && spotCell(after) != "":
		ha = spotCell(after)
	}
	if m := capacityMark(after); m != "" && !strings.HasPrefix(m, "spot") {
		// Spot says so in its price ("spot, at most", "your spot price").
		ha += " (" + m + ")"
	}
	if c.PriceNote() != "" {
		ha += " (" + text(c.PriceNote()) + ")"
	}
	if reg := c.PriceRegion(); reg != "" {
		ha += " in " + codeCell(reg)
	}
	fl := fleet(r.Before, after)
	if actionKey(c) == "forget" {
		// Removed from state, not destroyed: the fleet keeps running and billing.
		after, ha = r.Before, hb
		fl = fleet(r.Before, after) + " (no longer managed by Terraform; keeps running and billing)"
	}
	per, count := perNode, nodes
	if r.Kind == infra.KindWorkload {
		// A workload's GPUs are per pod, its counts replicas, and it
		// bills through the nodes that run it.
		per, count = perPod, pods
		if r.Cost.HourlyBefore == nil && r.Before != nil {
			hb = "through its nodes"
		}
		if r.Cost.HourlyAfter == nil && after != nil {
			ha = "through its nodes"
		}
	}
	cells = append(cells,
		beforeAfter(sideSKU(r.Before), sideSKU(after)),
		beforeAfter(per(r.Before), per(after)),
		beforeAfter(count(r.Before), count(after)),
		fl,
		beforeAfter(hb, ha))
	return "| " + strings.Join(cells, " | ") + " |"
}

var endpointTypes = map[string]bool{
	"aws_sagemaker_endpoint":                      true,
	"azurerm_machine_learning_online_endpoint":    true,
	"azurerm_machine_learning_inference_endpoint": true,
	"google_vertex_ai_endpoint":                   true,
	"google_vertex_ai_index_endpoint":             true,
	"aws_bedrock_provisioned_model_throughput":    true,
	"azurerm_cognitive_deployment":                true,
	"databricks_model_serving":                    true,
	"azurerm_machine_learning_online_deployment":  true,
}

func isEndpoint(c *review.Change) bool {
	if c.Resource != nil {
		return c.Resource.Kind == infra.KindEndpoint
	}
	return endpointTypes[c.Type()]
}

// endpoints lists serving endpoints that are replaced, with what forces it.
func (v *view) endpoints(limit int) (string, int) {
	v.prepare()
	total := v.endpointItems.n
	if total == 0 {
		return "", 0
	}
	items := v.endpointItems.first(limit)
	s := section{Heading: "Serving endpoints to be replaced", List: items,
		Intro: "Replacing an endpoint destroys it and creates a new one; traffic to it is affected."}
	if n := total - len(items); n > 0 {
		s.LeftOut = "_… and " + plural(n, "more endpoint", "more endpoints") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s), total - len(items)
}

func (v *view) endpoint(p *review.Project, i int, c *review.Change) string {
	s := code(c.Address())
	if v.multi {
		s += " in " + code(v.projectName(p, i))
	}
	if p.Environment != "" {
		s += " (" + code(p.Environment) + ")"
	}
	s += ": "
	forced := v.forcing(p, c)
	switch {
	case len(forced) > 0:
		s += "replaced because " + strings.Join(forced, ", ") + " cannot be changed in place. "
	case c.Reason() != "":
		s += "replaced because " + text(c.Reason()) + ". "
	default:
		s += "replaced. "
	}
	switch c.ReplaceOrder() {
	case string(planparse.CreateThenDelete):
		s += "The new endpoint is created before the old one is deleted; both bill while it runs."
	default:
		s += "The old endpoint is deleted first: requests fail until the new one is in service."
	}
	for _, rp := range c.ReplacePaths() {
		if rp == "name" {
			s += " Its name changes, so callers that use the old name break."
			break
		}
	}
	return s
}

// forcing names the attributes that force a replace, with their values
// when the diff has them (at most 5).
func (v *view) forcing(p *review.Project, c *review.Change) []string {
	var out []string
	var diffs []planparse.ShownDiff
	if c.Source != nil && len(c.ReplacePaths()) > 0 {
		diffs = v.r.Viewer.Diff(c.Source)
	}
	for _, rp := range c.ReplacePaths() {
		if len(out) == 5 {
			out = append(out, "…")
			break
		}
		s := code(rp)
		for _, d := range diffs {
			if d.Path == rp {
				s += " (" + shownChange(p, d, code) + ")"
				break
			}
		}
		out = append(out, s)
	}
	return out
}

// cost renders the cost section: totals, per project, unpriced items (at
// most limit unpriced items when limit >= 0).
func (v *view) cost(limit int) (string, int) {
	t := v.r.Totals
	v.prepare()
	total := v.unpriced.n
	unpriced := v.unpriced.first(limit)
	if !v.priced && total == 0 {
		if !changed(v.total) {
			return "", 0
		}
		s := section{Heading: "Cost", Intro: "Nothing in this plan has an hourly price in planwarden's catalog."}
		if ne := v.notEstimatedItem(); ne != "" {
			// Never "no cost": these bill, and are left out of every figure.
			s.Intro = "No hourly figure: nothing in this plan is priced, and what bills is not estimated."
			s.List = []string{ne}
		}
		return execute("section", s), 0
	}
	tb := newTable(" ", "Before>", "After>", "Change>")
	tb.add("Hourly", money(t.HourlyBefore), money(t.HourlyAfter), delta(t.HourlyDelta))
	tb.add("Monthly ("+strconv.Itoa(infra.HoursPerMonth)+" h)", money(infra.Monthly(t.HourlyBefore)), money(infra.Monthly(t.HourlyAfter)), delta(infra.Monthly(t.HourlyDelta)))
	tb.add("Hourly at maximum scale", money(t.MaxHourlyBefore), money(t.MaxHourlyAfter), delta(t.MaxHourlyDelta))
	if sb, ok := v.spotBound(); ok {
		// Spot with no spot price: its ceiling, labelled, never the expected cost.
		before, d := "unknown", "unknown"
		if sb.beforeKnown {
			x := sb.after - sb.before
			before, d = money(&sb.before), "at most "+delta(&x)
		}
		tb.add("Hourly at most, spot at the on-demand price", before, "at most "+money(&sb.after), d)
	}
	s := section{Heading: "Cost", Table: tb, Intro: v.costCaption()}
	if v.multi {
		var pr []string
		for i, p := range v.r.Projects {
			if limit >= 0 && i >= limit {
				pr = append(pr, "… and "+plural(len(v.r.Projects)-i, "more project", "more projects"))
				break
			}
			c := p.Cost
			line := code(v.projectName(p, i)) + ": " + money(c.HourlyBefore) + " → " + money(c.HourlyAfter) + " per hour (" + delta(c.HourlyDelta) + ")"
			if money(c.MaxHourlyBefore) != money(c.HourlyBefore) || money(c.MaxHourlyAfter) != money(c.HourlyAfter) {
				line += "; at maximum scale " + money(c.MaxHourlyBefore) + " → " + money(c.MaxHourlyAfter)
			}
			pr = append(pr, line)
		}
		s.List = pr
	}
	s.List = append(s.List, v.yourPriceItems()...)
	s.List = append(s.List, v.approximateItems()...)
	if len(unpriced) > 0 {
		s.List = append(s.List, unpriced...)
	}
	if ne := v.notEstimatedItem(); ne != "" {
		s.List = append(s.List, ne)
	}
	if n := total - len(unpriced); n > 0 {
		s.LeftOut = "_… and " + plural(n, "more unpriced item", "more unpriced items") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s) + v.costCenters(), total - len(unpriced)
}

// costCaption says exactly what the figures cover: which resources (changed
// or not), at which scale and prices, and what they leave out.
func (v *view) costCaption() string {
	priced, unpriced, notEst, disks, yours := 0, 0, 0, 0, 0
	for _, p := range v.r.Projects {
		priced += p.Cost.PricedResources
		unpriced += p.Cost.UnpricedResources
		for _, n := range p.Cost.NotEstimated {
			if n.Kind == "disk" {
				disks++
			} else {
				notEst++
			}
		}
		yours += p.Cost.YourPriceResources
	}
	prices := "On-demand list prices"
	if yours > 0 {
		prices = "Your prices (the config's `pricing` where it names the SKU, on-demand list prices elsewhere)"
	}
	s := prices + " in USD of the " + plural(priced, "resource", "resources") +
		" planwarden prices in " + map[bool]string{true: "these plans", false: "this plan"}[v.multi] +
		", changed or unchanged, at the expected node counts (and at every autoscaled fleet's maximum)."
	var out []string
	if unpriced > 0 {
		out = append(out, plural(unpriced, "resource", "resources")+" with no price")
	}
	if notEst > 0 {
		out = append(out, plural(notEst, "resource that bills", "resources that bill")+" by the hour but planwarden does not estimate")
	}
	if disks > 0 {
		out = append(out, plural(disks, "disk", "disks")+" with no price")
	}
	if len(out) > 0 {
		last := len(out) - 1
		list := out[last]
		if last > 0 {
			list = strings.Join(out[:last], ", ") + " and " + list
		}
		s += " Left out: " + list + " (listed below)."
	}
	return s + " Unknown figures stay unknown, never 0."
}

// approximateNamed is how many approximately priced resources a project's
// item names before it counts the rest.
const approximateNamed = 5

// approximateItems names, once per project, the resources priced at
// another region's list price.
func (v *view) approximateItems() []string {
	var out []string
	for i, p := range v.r.Projects {
		var addrs []string // the first ones named, then counted
		n := 0
		regions := map[string]bool{}
		for _, c := range p.Changes {
			if c.PriceBasis() == infra.BasisApproximate {
				if n++; n <= approximateNamed {
					addrs = append(addrs, code(c.Address()))
				}
				regions[c.PriceRegion()] = true
			}
		}
		if n == 0 {
			continue
		}
		rs := make([]string, 0, len(regions))
		for r := range regions {
			rs = append(rs, code(r))
		}
		slices.Sort(rs)
		s := "≈ Approximate: " + listCounted(addrs, n)
		if v.multi {
			s += " in " + code(v.projectName(p, i))
		}
		out = append(out, s+": priced at the "+strings.Join(rs, ", ")+" list price, since the catalog has no price in their region, or the plan does not name it (other regions usually differ by 0–30%).")
	}
	return out
}

// listSome joins up to n items and says how many more there are.
func listSome(items []string, n int) string {
	return listCounted(items[:min(n, len(items))], len(items))
}

// listCounted joins the named items of total and says how many more there are.
func listCounted(named []string, total int) string {
	if total <= len(named) {
		return strings.Join(named, ", ")
	}
	return strings.Join(named, ", ") + " and " + groupInt(total-len(named)) + " more"
}

// yourPriceItems says, once per project, that figures use the config's
// pricing, and what the change is at list prices.
func (v *view) yourPriceItems() []string {
	var out []string
	for i, p := range v.r.Projects {
		c := p.Cost
		if c.YourPriceResources == 0 {
			continue
		}
		s := "Your prices: the figures use the `pricing` of the repository's config for " +
			plural(c.YourPriceResources, "resource", "resources")
		if v.multi {
			s += " of " + code(v.projectName(p, i))
		}
		s += "; at on-demand list prices the change is " + delta(c.ListHourlyDelta) + " per hour (" + money(c.ListHourlyBefore) + " → " + money(c.ListHourlyAfter) + ")."
		out = append(out, s)
	}
	return out
}

// perPod is a Kubernetes workload's accelerators per pod.
func perPod(s *infra.Side) string {
	if s == nil || len(s.Groups) == 0 {
		return perNode(s)
	}
	return perNode(s) + " per pod"
}

// pods is a Kubernetes workload's replicas, min / expected / max.
func pods(s *infra.Side) string {
	n := nodes(s)
	if s == nil || len(s.Groups) == 0 || strings.HasPrefix(n, "known") || n == "unknown" {
		return n
	}
	return n + " pods"
}
