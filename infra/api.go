package infra

import (
	"github.com/planwarden/planwarden/par"

	"github.com/planwarden/planwarden/planparse"
)

// Options tune Analyze.
type Options struct {
	// DefaultRegion is used when neither the resource nor its provider says.
	DefaultRegion string
	// Pricing replaces list prices with what you pay (zero: list prices).
	// Every figure then is your price; Group.ListHourly and
	// Cost.ListHourlyBefore/After keep the list price.
	Pricing Pricing
	// Par decides whether a large plan is analysed in parts (zero: the
	// default policy; tests force the parts on small plans).
	Par par.Policy
}

// RegionSource says where a side's region came from; its String is
// "resource", "parent cluster", "provider", "default", or "" when the
// region is unknown. It is a byte so that a Side stays small.
type RegionSource uint8

// Region sources, as Side.RegionSource reports them.
const (
	RegionFromNone RegionSource = iota
	RegionFromResource
	RegionFromParent
	RegionFromProvider
	RegionFromDefault
)

func (r RegionSource) String() string {
	switch r {
	case RegionFromResource:
		return "resource"
	case RegionFromParent:
		return "parent cluster"
	case RegionFromProvider:
		return "provider"
	case RegionFromDefault:
		return "default"
	}
	return ""
}

// Analyze returns infra's view of every managed-resource change of a
// supported type (one with an adapter, adapters.go), one Resource per change, in plan
// order. Changes of other types are skipped without decoding their values.
// A nil catalog means DefaultCatalog. Every figure in a Resource's Cost is
// nil when it cannot be known; the reason is in Cost.Unpriced.
//
// A large plan is analysed in contiguous parts on separate goroutines
// (as many as opt.Par gives for par.Changes), each with caches of its own, and
// the parts' resources are joined in plan order: the result is what one
// pass gives, though resources of different parts share no groups or
// figures (equal values, separate copies).
func Analyze(p *planparse.Plan, cat *Catalog, opt Options) []*Resource {
	if p == nil {
		return nil
	}
	// A part indexes again the related resources it looks up: below
	// par's size for changes that costs more CPU than it saves time.
	return analyzeParts(p, cat, opt, opt.Par.Parts(par.Changes, len(p.Changes)))
}

// analyzeParts is Analyze in parts goroutines (one when parts < 2).
func analyzeParts(p *planparse.Plan, cat *Catalog, opt Options, parts int) []*Resource {
	if cat == nil {
		cat = DefaultCatalog()
	}
	n := len(p.Changes)
	if parts < 2 || n < parts {
		return newAnalysis(p, cat, opt).run(0, n)
	}
	outs := make([][]*Resource, parts)
	// A panic is the caller's, as in one pass (a server that recovers
	// from one keeps running).
	par.Each(parts, func(k int) {
		outs[k] = newAnalysis(p, cat, opt).run(n*k/parts, n*(k+1)/parts)
	})
	total := 0
	for k := range parts {
		total += len(outs[k])
	}
	out := make([]*Resource, 0, total)
	for _, o := range outs {
		out = append(out, o...)
	}
	return out
}

func newAnalysis(p *planparse.Plan, cat *Catalog, opt Options) *analysis {
	return &analysis{p: p, cat: cat, opt: opt, provider: map[*planparse.ProviderConfig]string{}}
}

// run analyses the changes p.Changes[lo:hi], in order.
func (a *analysis) run(lo, hi int) []*Resource {
	out := make([]*Resource, 0, hi-lo) // most changes of a large plan are of supported types
	for i := lo; i < hi; i++ {
		c := a.p.Changes[i]
		ad, ok := adapterFor(c.Type) // arm.go: ARM types in any case
		if !ok || c.Mode != planparse.ModeManaged || c.Action == planparse.ActionRead {
			continue
		}
		if only := onlyIf[c.Type]; only != nil && !only(c) {
			continue
		}
		out = append(out, a.resource(c, ad, hi-i))
	}
	return out
}

// analysis carries one Analyze call's plan, catalog and lazy indexes.
type analysis struct {
	p         *planparse.Plan
	cat       *Catalog
	opt       Options
	byAddr    map[string]*planparse.Change
	byType    map[string][]*planparse.Change // managed changes by resource type, in plan order
	indexes   map[fieldKey]*valueIndex       // related resources by a field's value
	byBase    map[string][]string            // address without instance keys -> addresses
	templates map[relKey]Group               // templateGroup's answers
	locations map[relKey]string              // clusterLocation's answers for clusters found by id
	armPools  map[string]bool                // ARM agentPools changes by address, lower case
	provider  map[*planparse.ProviderConfig]string
	// skus and quotes remember the catalog's answers: a large plan asks
	// about the same few SKUs and regions thousands of times.
	skus    map[skuKey]SKU
	quotes  map[quoteKey]*quoted
	unknown map[string]string
	regions map[string][]string
	// scratch holds the group an adapter returns (one); groups and
	// figures are what sides and costs share (keep, cost).
	scratch   [1]Group
	groups    map[uint64][]Group // keep's groups by hash
	groupSlab []Group            // newGroup's
	// unpricedSlab is newUnpriced's.
	unpricedSlab []Unpriced
	figures      map[[8]uint64]*[8]float64
	// resSlab and sideSlab are where the next resources and sides are
	// taken from (newResource, newSide).
	resSlab  []Resource
	sideSlab []Side
	// regionOf is the change whose provider region regionWas is; poolOf
	// the ARM cluster change whose GPU pool poolWas names.
	regionOf, poolOf   *planparse.Change
	regionWas, poolWas string
}

type skuKey struct{ cloud, name string }

type quoteKey struct{ cloud, name, region string }

// quoted is the catalog's price of one SKU in one region, without attached
// accelerators: the list and your price, or why there is none.
type quoted struct {
	q                Quote
	list, yours      *float64
	how, noPriceText string
}

// lookup is a.cat.Lookup, remembered.
func (a *analysis) lookup(cloud, name string) SKU {
	k := skuKey{cloud, name}
	if s, ok := a.skus[k]; ok {
		return s
	}
	if a.skus == nil {
		a.skus = map[skuKey]SKU{}
	}
	s := a.cat.Lookup(cloud, name)
	a.skus[k] = s
	return s
}

// quote prices a SKU in a region (list price, your price), remembered;
// list is nil when the catalog has no price there, and noPriceText says why.
func (a *analysis) quote(cloud, name, region string) *quoted {
	k := quoteKey{cloud, name, region}
	if x, ok := a.quotes[k]; ok {
		return x
	}
	if a.quotes == nil {
		a.quotes = map[quoteKey]*quoted{}
	}
	x := &quoted{}
	if q, ok := a.cat.Quote(cloud, name, region); ok {
		list := round6(q.USDPerHour)
		yours, how := a.opt.Pricing.apply(cloud, name, list)
		x.q, x.list, x.yours, x.how = q, &list, &yours, how
	} else {
		x.noPriceText = a.noPrice(cloud, name, region)
	}
	a.quotes[k] = x
	return x
}

// when says which side of a change a lookup is for.
type when int

const (
	before when = iota
	after
)

func (w when) String() string {
	if w == before {
		return "before"
	}
	return "after"
}

func (w when) of(c *planparse.Change) planparse.Value {
	if w == before {
		return c.Before()
	}
	return c.After()
}

func (a *analysis) resource(c *planparse.Change, ad adapter, left int) *Resource {
	bv, av := c.Before(), c.After()
	hasBefore := !bv.IsNull()
	// A forget has no after side of its own: the object keeps running as
	// it was (see cost), outside Terraform.
	hasAfter := !av.IsNull() && c.Action != planparse.ActionDelete && c.Action != planparse.ActionForget
	r := a.newResource(left)
	if hasBefore {
		r.Before = a.newSide(left)
	}
	// An unchanged value (most no-op and many update changes) of a type
	// whose sides are made from their own value: the after side is the
	// before side, read once and shared (nothing writes through a side).
	same := hasBefore && hasAfter && ad.own && av.Same(bv)
	if hasAfter {
		if same {
			r.After = r.Before
		} else {
			r.After = a.newSide(left)
		}
	}
	r.Address, r.Type, r.Kind, r.Action, r.ReplaceOrder, r.Deposed = c.Address, c.Type, ad.kind, c.Action, c.ReplaceOrder, c.Deposed
	if ad.kind == KindEndpointConfig {
		r.Cost.BilledVia = "aws_sagemaker_endpoint"
	}
	if hasBefore {
		a.side(r.Before, c, ad, bv, before)
	}
	if hasAfter && !same {
		a.side(r.After, c, ad, av, after)
	}
	if ad.kind == KindWorkload {
		a.viaNodes(r)
	}
	a.cost(r, c)
	return r
}

// slabLen is how many resources, and twice how many sides, newResource
// and newSide allocate at once: a resource and its sides were one
// allocation each (14,000 on the brownfield mix), rounded up to a size
// class.
const slabLen = 128

// newResource returns a zero Resource from the analysis's slab; left is
// how many changes the run has still to read, at most (a small plan
// allocates no more than it needs).
func (a *analysis) newResource(left int) *Resource {
	return &take(&a.resSlab, min(slabLen, max(left, 1)))[0]
}

// newSide is newResource for sides.
func (a *analysis) newSide(left int) *Side {
	return &take(&a.sideSlab, min(2*slabLen, max(2*left, 1)))[0]
}

// take returns the next element of *slab as a list of length and capacity
// 1 (an append copies it), first refilling an empty slab with n zero
// elements.
func take[T any](slab *[]T, n int) []T {
	if len(*slab) == 0 {
		*slab = make([]T, n)
	}
	l := (*slab)[:1:1]
	*slab = (*slab)[1:]
	return l
}

// side fills *dst with side w of a change, its groups priced.
func (a *analysis) side(dst *Side, c *planparse.Change, ad adapter, v planparse.Value, w when) {
	s := ad.side(a, c, v, w)
	if s.Region == "" {
		if reg := a.providerRegion(c); reg != "" {
			s.Region, s.RegionSource = reg, RegionFromProvider
		} else if a.opt.DefaultRegion != "" {
			s.Region, s.RegionSource = NormalizeRegion(a.opt.DefaultRegion), RegionFromDefault
		}
	}
	for i := range s.Groups {
		if ad.kind == KindWorkload {
			s.Groups[i].Unpriced = nodesBill // kubernetes.go
			continue
		}
		a.price(&s, &s.Groups[i])
	}
	if len(s.Disks) > 0 {
		a.priceDisks(&s)
	}
	s.Groups = a.keep(s.Groups)
	*dst = s
}
