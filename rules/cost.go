package rules

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// costIncrease: a resource's hourly cost, at the expected scale or at the
// autoscaler's maximum, rises by more than a threshold. One finding per
// resource, at the higher severity its two deltas reach; an unknown figure
// is not judged here (unpriced-sku reports it).
type costIncrease struct{}

func (costIncrease) severity(*scope) Severity { return SeverityWarn }

func (costIncrease) check(s *scope) []draft {
	set := s.cfg.Rules.CostIncrease
	hw, hb := orDefault(set.HourlyDelta.Warn, defaultHourlyWarn), orDefault(set.HourlyDelta.Block, defaultHourlyBlock)
	mw, mb := orDefault(set.MaxHourlyDelta.Warn, defaultMaxHourlyWarn), orDefault(set.MaxHourlyDelta.Block, defaultMaxHourlyBlock)
	level := func(v, warn, block float64) Severity {
		switch {
		case v > block:
			return SeverityBlock
		case v > warn:
			return SeverityWarn
		}
		return ""
	}
	out := s.spare()
	var sumD, sumM float64
	var nD, nM int
	worst := Severity("")
	remedy := "" // the same for every resource: made at the first finding
	var msg sentence
	for _, c := range s.changedResources() {
		r, a := c.r, s.action(c.r)
		// A resource billed through another (a SageMaker endpoint
		// configuration, through its endpoints) is judged there.
		if c.billed {
			continue
		}
		delta, okD := hourlyDelta(r, a)
		maxDelta, okM := maxHourlyDelta(r, a)
		if okD && delta != 0 {
			sumD += delta
			nD++
		}
		if okM && maxDelta != 0 {
			sumM += maxDelta
			nM++
		}
		var lD, lM Severity
		if okD {
			lD = level(delta, hw, hb)
		}
		if okM {
			lM = level(maxDelta, mw, mb)
		}
		sev := worse(lD, lM)
		if sev == "" {
			continue
		}
		worst = worse(worst, sev)
		msg = msg[:0]
		msg.subject(r)
		msg.add(" can cost ")
		if lD != "" {
			msg.money(delta)
			msg.add(" more at the expected scale (")
			msg.money(val(r.Cost.HourlyBefore))
			msg.add(" -> ")
			msg.money(*r.Cost.HourlyAfter)
			msg.add(")")
		}
		if lM != "" {
			if lD != "" {
				msg.add(", and ")
			}
			before := r.Cost.MaxHourlyBefore
			if before == nil {
				before = r.Cost.HourlyBefore
			}
			msg.money(maxDelta)
			msg.add(" more at maximum scale (")
			msg.money(val(before))
			msg.add(" -> ")
			msg.money(*r.Cost.MaxHourlyAfter)
			msg.nodes(r)
			msg.add(")")
		}
		if remedy == "" {
			limits := fmt.Sprintf("warn above %s and block above %s added at the expected scale, warn above %s and block above %s at maximum scale",
				money(hw), money(hb), money(mw), money(mb))
			remedy = "Check the SKU and the node counts; the thresholds (" + limits + ") are under rules.cost-increase."
		}
		out = append(out, draft{address: r.Address, severity: sev, message: s.texts.keep(msg), remedy: remedy})
	}
	// Many small increases can add up to one a threshold is for.
	var parts []string
	sev := Severity("")
	if l := level(sumD, hw, hb); l != "" && nD > 1 && rankSev(l) > rankSev(worst) {
		sev = worse(sev, l)
		parts = append(parts, fmt.Sprintf("%s more at the expected scale", money(sumD)))
	}
	if l := level(sumM, mw, mb); l != "" && nM > 1 && rankSev(l) > rankSev(worst) {
		sev = worse(sev, l)
		parts = append(parts, fmt.Sprintf("%s more at maximum scale", money(sumM)))
	}
	if sev != "" {
		n := max(nD, nM)
		out = append(out, draft{
			severity: sev,
			message:  fmt.Sprintf("the changes of project %s together can cost %s, over %d resources", code(s.project.Name), strings.Join(parts, " and "), n),
			remedy:   "Check the SKUs and node counts of the resources whose cost rises; the thresholds are under rules.cost-increase.",
		})
	}
	out = append(out, s.projectCostLimits(set)...)
	if s.first && len(s.cfg.CostAllocation.MonthlyBudget) > 0 {
		out = append(out, s.costCenterBudgets()...)
	}
	return out
}

// costCenterBudgets judges each cost center's monthly cost after a change
// that raises it, across every project evaluated together, against its
// budget (cost_allocation.monthly_budget).
func (s *scope) costCenterBudgets() []draft {
	plans := make([][]*infra.Resource, len(s.all))
	for i, p := range s.all {
		plans[i] = p.Resources
	}
	var out []draft
	for _, cc := range infra.CostCenters(s.cfg.CostCenterTags(), plans...) {
		b, ok := s.cfg.CostAllocation.MonthlyBudget[cc.Value]
		if !ok || cc.HourlyAfter-cc.HourlyBefore <= 0.005 {
			continue
		}
		monthly := cc.HourlyAfter * infra.HoursPerMonth
		if sev := levelOf(monthly, b.Warn, b.Block); sev != "" {
			out = append(out, draft{severity: sev,
				message: fmt.Sprintf("cost center %s would cost %s per month after this change (%s more per month, across the projects of this pull request), over its budget (%s)",
					code(cc.Value), infra.FormatUSD(monthly, "$"), infra.FormatUSD((cc.HourlyAfter-cc.HourlyBefore)*infra.HoursPerMonth, "$"), limitText(b.Warn, b.Block, "/month")),
				remedy: "Reduce what the change adds, or raise the budget under cost_allocation.monthly_budget." + cc.Value + " (on the base branch)."})
		}
	}
	return out
}

// projectCostLimits judges the project's cost as a whole: the share of
// its hourly cost the change adds (percent), and its monthly cost after a
// change that raises it against the environment's budget. Figures cover
// the resources planwarden prices (infra.Sum); nothing is judged when
// they are unknown.
func (s *scope) projectCostLimits(set CostSetting) []draft {
	pc := s.project.Sum
	if pc == nil {
		sum := infra.Sum(s.resources)
		pc = &sum
	}
	if pc.HourlyBefore == nil || pc.HourlyAfter == nil || *pc.HourlyAfter-*pc.HourlyBefore <= 0.005 {
		return nil
	}
	before, after := *pc.HourlyBefore, *pc.HourlyAfter
	delta := after - before
	var out []draft
	if before > 0 {
		pct := 100 * delta / before
		if sev := levelOf(pct, set.Percent.Warn, set.Percent.Block); sev != "" {
			out = append(out, draft{severity: sev,
				message: fmt.Sprintf("the changes of project %s raise its hourly cost by %s%% (%s -> %s, %s more)",
					code(s.project.Name), strconv.FormatFloat(math.Round(pct*10)/10, 'f', -1, 64), money(before), money(after), money(delta)),
				remedy: "Check the SKUs and node counts of the resources whose cost rises; the percent thresholds (" + limitText(set.Percent.Warn, set.Percent.Block, "%") +
					") are under rules.cost-increase.percent."})
		}
	}
	if b, ok := set.MonthlyBudget[s.env]; ok {
		monthly := after * infra.HoursPerMonth
		if sev := levelOf(monthly, b.Warn, b.Block); sev != "" {
			out = append(out, draft{severity: sev,
				message: fmt.Sprintf("project %s would cost %s per month in %s after this change (%s more per month), over its budget (%s)",
					code(s.project.Name), infra.FormatUSD(monthly, "$"), code(s.env), infra.FormatUSD(delta*infra.HoursPerMonth, "$"), limitText(b.Warn, b.Block, "/month")),
				remedy: "Reduce what the change adds, or raise the budget under rules.cost-increase.monthly_budget." + s.env + " (on the base branch)."})
		}
	}
	return out
}

// levelOf is block above block, warn above warn; nil levels are not set.
func levelOf(v float64, warn, block *float64) Severity {
	switch {
	case block != nil && v > *block:
		return SeverityBlock
	case warn != nil && v > *warn:
		return SeverityWarn
	}
	return ""
}

// limitText says the levels that are set: "warn above 20%, block above 100%".
func limitText(warn, block *float64, unit string) string {
	f := func(v float64) string {
		if unit == "%" {
			return strconv.FormatFloat(v, 'f', -1, 64) + "%"
		}
		return infra.FormatUSD(v, "$") + unit
	}
	var parts []string
	if warn != nil {
		parts = append(parts, "warn above "+f(*warn))
	}
	if block != nil {
		parts = append(parts, "block above "+f(*block))
	}
	return strings.Join(parts, ", ")
}

func rankSev(s Severity) int {
	switch s {
	case SeverityBlock:
		return 2
	case SeverityWarn:
		return 1
	}
	return 0
}

func val(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func worse(a, b Severity) Severity {
	if a == SeverityBlock || b == SeverityBlock {
		return SeverityBlock
	}
	if a == SeverityWarn || b == SeverityWarn {
		return SeverityWarn
	}
	if a != "" {
		return a
	}
	return b
}

// hourlyDelta is the change of the expected hourly cost; a create starts
// from zero. It is unknown when either side is.
func hourlyDelta(r *infra.Resource, a planparse.Action) (float64, bool) {
	if r.Cost.HourlyAfter == nil {
		return 0, false
	}
	before := r.Cost.HourlyBefore
	if before == nil {
		if a != planparse.ActionCreate && r.Before != nil {
			return 0, false
		}
		return *r.Cost.HourlyAfter, true
	}
	return *r.Cost.HourlyAfter - *before, true
}

// maxHourlyDelta is the change of the hourly cost at maximum scale: from
// the old maximum (or the old expected cost when the old fleet had no
// autoscaling) to the new maximum.
func maxHourlyDelta(r *infra.Resource, a planparse.Action) (float64, bool) {
	if r.Cost.MaxHourlyAfter == nil {
		return 0, false
	}
	before := r.Cost.MaxHourlyBefore
	if before == nil {
		before = r.Cost.HourlyBefore
	}
	if before == nil {
		if a != planparse.ActionCreate && r.Before != nil {
			return 0, false
		}
		return *r.Cost.MaxHourlyAfter, true
	}
	return *r.Cost.MaxHourlyAfter - *before, true
}

// nodes adds "; " and how the maximum node count changes: "max 1 -> 36 x
// Standard_NC24ads_A100_v4 (1 x A100)", or "up to 8 x ..." for a new
// fleet; nothing when it does not change or a single instance is created.
func (t *sentence) nodes(r *infra.Resource) {
	maxOf := func(s *infra.Side) (int, bool) {
		if s == nil {
			return 0, false
		}
		n := 0
		for gi := range s.Groups {
			g := &s.Groups[gi]
			if g.Scale.Unknown {
				return 0, false
			}
			n += g.Scale.Max
		}
		return n, len(s.Groups) > 0
	}
	after, ok := maxOf(r.After)
	if !ok {
		return
	}
	before, existed := maxOf(r.Before)
	switch {
	case !existed && after > 1:
		t.add("; up to ")
	case !existed || before == after:
		return
	default:
		t.add("; max ")
		*t = strconv.AppendInt(*t, int64(before), 10)
		t.add(" -> ")
	}
	*t = strconv.AppendInt(*t, int64(after), 10)
	t.add(" x ")
	t.sku(r.After)
}

// unpricedSKU: a SKU of a resource being created or changed has no price,
// so cost-increase cannot judge it. One finding per SKU, region and
// reason (thirty spot pools of one SKU are one finding, not thirty), at
// the first resource's address, naming how many resources it covers.
type unpricedSKU struct{}

func (unpricedSKU) severity(*scope) Severity { return SeverityWarn }

// unpricedGroup is the resources of one SKU, region and reason.
type unpricedGroup struct {
	u       infra.Unpriced
	first   *infra.Resource
	names   []string // the first few resources, as subjects
	n       int
	ceiling float64
}

// unpricedNamed is how many resources a grouped finding names.
const unpricedNamed = 3

func (unpricedSKU) check(s *scope) []draft {
	var groups []*unpricedGroup
	var index map[[3]string]*unpricedGroup
	for _, c := range s.changedResources() {
		r := c.r
		if len(r.Cost.Unpriced) == 0 || r.Cost.BilledVia == infra.BilledViaNodes {
			continue // a Kubernetes resource bills through its nodes
		}
		for i, u := range r.Cost.Unpriced {
			if slices.ContainsFunc(r.Cost.Unpriced[:i], func(v infra.Unpriced) bool { return sameSKUKey(u, v) }) {
				continue // a SKU and region said before
			}
			k := [3]string{u.SKU, u.Region, u.Reason}
			g := index[k]
			if g == nil {
				if index == nil {
					index = map[[3]string]*unpricedGroup{}
				}
				g = &unpricedGroup{u: u, first: r}
				index[k] = g
				groups = append(groups, g)
			}
			g.n++
			g.ceiling += u.Ceiling
			if len(g.names) < unpricedNamed {
				g.names = append(g.names, subject(r))
			}
		}
	}
	out := s.spare()
	var msg sentence
	for _, g := range groups {
		u := g.u
		msg = msg[:0]
		msg.add("the cost of ")
		if g.n == 1 {
			msg.subject(g.first)
		} else {
			msg.add(count(float64(g.n)), " resources")
		}
		if u.SKU != "" || g.n > 1 {
			// One parenthesis: the SKU and region, then the resources.
			msg.add(" (")
			if u.SKU != "" {
				msg.code(planparse.ShownName(u.SKU))
				if u.Region != "" {
					msg.add(" in ", planparse.ShownName(u.Region))
				}
			}
			if g.n > 1 {
				if u.SKU != "" {
					msg.add(": ")
				}
				msg.add(strings.Join(g.names, ", "))
				if more := g.n - len(g.names); more > 0 {
					msg.add(" and ", count(float64(more)), " more")
				}
			}
			msg.add(")")
		}
		reason := u.Reason
		if reason == "" {
			reason = "its SKU is not in planwarden's price catalog"
		}
		msg.add(" is not checked: ", reason)
		if u.Capacity == infra.CapacitySpot && g.ceiling > 0 {
			msg.add("; spot, at most ")
			msg.money(g.ceiling)
			msg.add(" at the expected scale (the on-demand price as a ceiling, not the expected cost)")
		}
		addr := u.Address
		if addr == "" {
			addr = g.first.Address
		}
		out = append(out, draft{address: addr, message: s.texts.keep(msg), remedy: unpricedRemedy(u)})
	}
	return out
}

// unpricedRemedy says how to give an unpriced item a price: the config's
// pricing key where one applies.
func unpricedRemedy(u infra.Unpriced) string {
	key := "pricing.prices." + u.SKU
	switch {
	case u.Capacity == infra.CapacitySpot:
		return "Give your observed spot rate under pricing.spot_prices." + u.SKU + " (or a discount with capacity: spot under pricing.discounts) in the base branch's config; until then the on-demand price is only its ceiling."
	case u.Capacity == infra.CapacityBlock:
		return "A Capacity Block is paid up front: check the block's price where it was bought; the hourly figures leave it out."
	case strings.HasPrefix(u.Reason, "region unknown"):
		return "Name the region on the resource or its provider block, or pass --default-region, so the SKU can be priced."
	case u.SKU == "" || strings.Contains(u.Reason, "known only after apply"):
		return "Check the hourly price by hand: it can be priced once the plan knows the SKU and the count."
	case strings.HasPrefix(u.Reason, "Windows"):
		return "Give your Windows price under " + key + " in the base branch's config (it applies in every region)."
	case strings.HasPrefix(u.Reason, "no price for"):
		return "Give your hourly price under " + key + " in the base branch's config (it applies in every region), or ask for the region to be added to planwarden's catalog."
	}
	return "Check the SKU name; if it is right, give its hourly price under " + key + " in the base branch's config, or ask for it to be added to planwarden's catalog."
}

// sameSKUKey reports whether u and v have the same SKU and region, as
// the texts SKU + "\x00" + region (a NUL inside a SKU or region can make
// two such pairs one text), without making the texts.
func sameSKUKey(u, v infra.Unpriced) bool {
	if len(u.SKU)+len(u.Region) != len(v.SKU)+len(v.Region) {
		return false
	}
	if u.SKU == v.SKU {
		return u.Region == v.Region
	}
	at := func(x infra.Unpriced, i int) byte {
		switch {
		case i < len(x.SKU):
			return x.SKU[i]
		case i == len(x.SKU):
			return 0
		}
		return x.Region[i-len(x.SKU)-1]
	}
	for i := 0; i <= len(u.SKU)+len(u.Region); i++ {
		if at(u, i) != at(v, i) {
			return false
		}
	}
	return true
}

// allowedSKUs: a resource gets a SKU outside its environment's allow-list.
// It judges new SKUs only: a create, or a SKU that changes.
type allowedSKUs struct{}

func (allowedSKUs) severity(*scope) Severity { return SeverityBlock }

func (allowedSKUs) check(s *scope) []draft {
	list := s.cfg.AllowedSKUs(s.env)
	if len(list) == 0 {
		return nil
	}
	out := s.spare()
	for _, c := range s.changedResources() {
		r := c.r
		if r.Cost.BilledVia == infra.BilledViaNodes {
			continue // GPU requests and NodePool families are no SKUs
		}
		old := map[string]bool{}
		if r.Before != nil {
			old[strings.ToLower(r.Before.SKU)] = true
			for gi := range r.Before.Groups {
				g := &r.Before.Groups[gi]
				old[strings.ToLower(g.SKU.Name)] = true
			}
		}
		names := []string{r.After.SKU}
		for gi := range r.After.Groups {
			g := &r.After.Groups[gi]
			names = append(names, g.SKU.Name)
		}
		seen := map[string]bool{}
		for _, n := range names {
			l := strings.ToLower(n)
			if n == "" || n == planparse.UnknownText || seen[l] || old[l] {
				continue
			}
			seen[l] = true
			if skuAllowed(list, n) {
				continue
			}
			out = append(out, draft{
				address: r.Address,
				message: fmt.Sprintf("%s gets %s, which is not allowed in %s (allowed: %s)", subject(r), planparse.ShownName(n), s.env, strings.Join(list, ", ")),
				remedy:  fmt.Sprintf("Use an allowed SKU, or add %s to environments.%s.allowed_skus on the base branch first.", planparse.ShownName(n), s.env),
			})
		}
	}
	return out
}
