package infra

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// price sets g.Hourly, or g.Unpriced with the reason.
func (a *analysis) price(s *Side, g *Group) {
	if g.Unpriced != "" {
		return
	}
	name := g.SKU.Name
	switch {
	case g.Serverless:
		g.Unpriced = "serverless variant: billed per request and compute-second, no hourly price"
	case name == "":
		g.Unpriced = "no SKU in the plan"
	case !g.SKU.Known:
		g.Unpriced = a.notInCatalog(name)
	case g.Windows:
		g.Unpriced = "Windows: the catalog has Linux prices only"
	case s.Region == "" && g.SKU.Cloud != CloudAWS:
		// An EC2 type gets the us-east-1 list price, marked approximate (Quote).
		g.Unpriced = "region unknown: neither the resource nor its provider names a region, and no default region is set"
	case g.Scale.Unknown:
		g.Unpriced = "instance count known only after apply"
	case len(g.Attached) == 1 && g.Attached[0].Type == unknownAccelerator:
		g.Unpriced = "attached accelerator type or count known only after apply"
	}
	if g.Unpriced != "" {
		return
	}
	x := a.quote(g.SKU.Cloud, name, s.Region)
	if x.list == nil {
		g.Unpriced = x.noPriceText
		return
	}
	q := x.q
	if len(g.Attached) == 0 && !g.Spot {
		// Shared by every group of this SKU and region: nothing writes through them.
		g.ListHourly, g.Hourly, g.PriceNote = x.list, x.yours, x.how
		g.PriceBasis, g.PriceRegion = q.Basis, q.Region
		return
	}
	p := q.USDPerHour
	for _, at := range g.Attached {
		ap, ok := a.cat.Price(CloudGCP, "gpu:"+at.Type, s.Region)
		if !ok {
			g.Unpriced = "attached accelerator: " + a.noPrice(CloudGCP, "gpu:"+at.Type, s.Region)
			return
		}
		p += ap * float64(at.Count)
	}
	list := round6(p)
	yours, how := a.opt.Pricing.apply(g.SKU.Cloud, name, list)
	g.PriceBasis, g.PriceRegion = q.Basis, q.Region
	if g.Spot {
		a.spot(g, list, yours)
		return
	}
	g.ListHourly, g.Hourly, g.PriceNote = &list, &yours, how
}

// notInCatalog is the reason a SKU nobody knows has no price, one string
// per name.
func (a *analysis) notInCatalog(name string) string {
	if r, ok := a.unknown[name]; ok {
		return r
	}
	if a.unknown == nil {
		a.unknown = map[string]string{}
	}
	r := name + " is not in the catalog and no family rule knows it"
	a.unknown[name] = r
	return r
}

// noPrice says why a SKU has no price in a region, naming up to five
// regions that have one.
func (a *analysis) noPrice(cloud, name, region string) string {
	regs := a.cat.Regions(cloud, name)
	switch {
	case len(regs) > 5:
		return fmt.Sprintf("no price for %s in %s (the catalog prices it in %d other regions, such as %s)", name, region, len(regs), strings.Join(regs[:5], ", "))
	case len(regs) > 0:
		return fmt.Sprintf("no price for %s in %s (the catalog prices it in %s)", name, region, strings.Join(regs, ", "))
	}
	return fmt.Sprintf("no price for %s in the catalog", name)
}

// regionList is a one-region PriceRegions list, shared by every resource
// priced in that region: its capacity is 1, so an append copies it.
func (a *analysis) regionList(region string) []string {
	l, ok := a.regions[region]
	if !ok {
		if a.regions == nil {
			a.regions = map[string][]string{}
		}
		l = []string{region}
		a.regions[region] = l
	}
	return l[:1:1]
}

// sideCost sums a side's groups at min, expected and max scale; ok is
// false when any group is unpriced. A side that does not exist costs 0.
func sideCost(s *Side) (lo, exp, hi float64, ok bool) {
	if s == nil {
		return 0, 0, 0, true
	}
	// Each instance of the first group bills its disks; a disk resource
	// (no group) is its disk.
	disks, gaps := diskHourly(s)
	if len(s.Groups) == 0 {
		if len(s.Disks) == 0 || gaps > 0 {
			return 0, 0, 0, false
		}
		return disks, disks, disks, true
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Hourly == nil {
			return 0, 0, 0, false
		}
		h := *g.Hourly
		if i == 0 {
			h += disks
		}
		lo += h * float64(g.Scale.Min)
		exp += h * float64(g.Scale.Expected)
		hi += h * float64(g.Scale.Max)
	}
	return round6(lo), round6(exp), round6(hi), true
}

// listCost is a side's list-price cost at the expected scale: exp itself
// when no group has a price of your own.
func listCost(s *Side, exp float64) float64 {
	if s == nil {
		return exp
	}
	var sum float64
	disks, _ := diskHourly(s)
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.ListHourly == nil {
			return exp
		}
		h := *g.ListHourly
		if i == 0 {
			h += disks
		}
		sum += h * float64(g.Scale.Expected)
	}
	if len(s.Groups) == 0 {
		return exp
	}
	return round6(sum)
}

func (a *analysis) cost(r *Resource, c *planparse.Change) {
	for _, x := range []struct {
		s *Side
		w when
	}{{r.Before, before}, {r.After, after}} {
		if x.s == nil {
			continue
		}
		for i := range x.s.Groups {
			g := &x.s.Groups[i]
			if g.Hourly != nil {
				r.Cost.Approximate = r.Cost.Approximate || g.PriceBasis == BasisApproximate
				r.Cost.YourPrice = r.Cost.YourPrice || g.PriceNote != ""
				switch {
				case len(r.Cost.PriceRegions) == 0:
					r.Cost.PriceRegions = a.regionList(g.PriceRegion)
				case !slices.Contains(r.Cost.PriceRegions, g.PriceRegion):
					r.Cost.PriceRegions = append(r.Cost.PriceRegions, g.PriceRegion)
				}
			}
			if g.Unpriced != "" {
				u := Unpriced{Address: r.Address, SKU: g.SKU.Name, Region: x.s.Region, Reason: g.Unpriced, Side: x.w.String(), Group: g.Name,
					Capacity: g.Capacity}
				if g.SpotCeiling != nil && !g.Scale.Unknown {
					u.Ceiling = round6(*g.SpotCeiling * float64(g.Scale.Expected))
				}
				// The same gap on both sides (an unchanged resource) is one item.
				if i := slices.IndexFunc(r.Cost.Unpriced, func(o Unpriced) bool {
					o.Side = u.Side
					return o == u
				}); i >= 0 {
					r.Cost.Unpriced[i].Side = SideBoth
					continue
				}
				if r.Cost.Unpriced == nil {
					r.Cost.Unpriced = a.newUnpriced(u)
				} else {
					r.Cost.Unpriced = append(r.Cost.Unpriced, u)
				}
			}
		}
	}
	a.diskCosts(r)
	slices.Sort(r.Cost.PriceRegions)
	// The figures are computed into f (set marks the known ones), then
	// shared with every resource whose figures are the same (figuresOf).
	var f [8]float64
	var known uint8
	put := func(i int, v float64, ok bool) {
		if ok {
			f[i], known = v, known|1<<i
		}
	}
	_, bExp, bMax, bOK := sideCost(r.Before)
	aMin, aExp, aMax, aOK := sideCost(r.After)
	if c.Action == planparse.ActionForget {
		// Terraform stops managing the object; it keeps running and billing.
		aMin, aExp, aMax, aOK = bExp, bExp, bMax, bOK
	}
	put(0, bExp, bOK)
	put(1, bMax, bOK)
	put(2, aExp, aOK)
	put(3, aMin, aOK)
	put(4, aMax, aOK)
	put(5, listCost(r.Before, bExp), bOK)
	put(6, listCost(r.After, aExp), aOK)
	if c.Action == planparse.ActionReplace && c.ReplaceOrder == planparse.CreateThenDelete && bOK && aOK {
		put(7, round6(bExp+aExp), true)
	}
	// A SageMaker endpoint moving to another configuration runs both
	// fleets until the new one is in service (blue/green deployment).
	if r.Kind == KindEndpoint && c.Action == planparse.ActionUpdate && r.Before != nil && r.After != nil &&
		r.Before.Config != r.After.Config && bOK && aOK {
		put(7, round6(bExp+aExp), true)
	}
	if known == 0 {
		return
	}
	p := a.figuresOf(&f)
	at := func(i int) *float64 {
		if known&(1<<i) == 0 {
			return nil
		}
		return &p[i]
	}
	r.Cost.HourlyBefore, r.Cost.MaxHourlyBefore = at(0), at(1)
	r.Cost.HourlyAfter, r.Cost.MinHourlyAfter, r.Cost.MaxHourlyAfter = at(2), at(3), at(4)
	r.Cost.ListHourlyBefore, r.Cost.ListHourlyAfter = at(5), at(6)
	if c.Action == planparse.ActionForget {
		r.Cost.ListHourlyAfter = r.Cost.ListHourlyBefore
	}
	r.Cost.OverlapHourly = at(7)
}

// figuresOf returns the shared copy of a resource's eight figures: a
// large plan has a few hundred distinct sets among thousands of
// resources, and nothing writes through a Cost's figures. Figures are
// told apart by their bits (0 and -0 are not the same figure).
func (a *analysis) figuresOf(f *[8]float64) *[8]float64 {
	var k [8]uint64
	for i, x := range f {
		k[i] = math.Float64bits(x)
	}
	if p, ok := a.figures[k]; ok {
		return p
	}
	p := new([8]float64)
	*p = *f
	if len(a.figures) < maxShared {
		if a.figures == nil {
			a.figures = map[[8]uint64]*[8]float64{}
		}
		a.figures[k] = p
	}
	return p
}

// Delta returns HourlyAfter - HourlyBefore, nil when either is unknown.
func (c Cost) Delta() *float64 {
	if c.HourlyBefore == nil || c.HourlyAfter == nil {
		return nil
	}
	return ptr(*c.HourlyAfter - *c.HourlyBefore)
}

// Priced reports whether every figure of the change is known.
func (c Cost) Priced() bool {
	return c.HourlyBefore != nil && c.HourlyAfter != nil && len(c.Unpriced) == 0
}

// HoursPerMonth is the month planwarden quotes monthly figures for.
const HoursPerMonth = 730

// Monthly converts an hourly figure to a 730-hour month; nil stays nil.
func Monthly(hourly *float64) *float64 {
	if hourly == nil {
		return nil
	}
	return ptr(*hourly * HoursPerMonth)
}

func ptr(f float64) *float64 { f = round6(f); return &f }

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }
