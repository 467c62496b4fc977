package infra

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"

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

// Supported reports whether Analyze understands a resource type.
func Supported(resourceType string) bool { _, ok := adapterFor(resourceType); return ok }

// SupportedTypes lists the resource types Analyze understands, sorted.
func SupportedTypes() []string {
	out := make([]string, 0, len(adapters))
	for t := range adapters {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Analyze returns infra's view of every managed-resource change of a
// supported type (see SupportedTypes), one Resource per change, in plan
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

// one is a one-group list for an adapter to return: it lives in the
// analysis until side keeps it (see keep), so the usual side, one group,
// costs no allocation of its own.
func (a *analysis) one(g Group) []Group {
	a.scratch[0] = g
	return a.scratch[:1:1]
}

// maxShared bounds the groups and figures an analysis shares: past it a
// plan of all-different resources gets its own copies, as before.
const maxShared = 1 << 14

// keep returns the groups a side keeps: a single group without attached
// accelerators is shared with every side that has an equal one (a large
// plan has a few hundred distinct groups in thousands of sides; nothing
// writes through a side's groups); one still in the scratch list is copied.
func (a *analysis) keep(gs []Group) []Group {
	if len(gs) == 0 || &gs[0] != &a.scratch[0] {
		return gs
	}
	g := gs[0]
	if g.Attached != nil {
		return []Group{g}
	}
	// The map is keyed by a hash of a few telling fields (cheap to
	// hash); the candidate is compared whole. Two groups of one hash
	// that differ (rare) are not shared: the later one gets a copy.
	k := groupHash(&g)
	if l, ok := a.groups[k]; ok {
		if groupOf(&l[0]) == groupOf(&g) && l[0].SKU == g.SKU {
			return l
		}
		return a.newGroup(g)
	}
	l := a.newGroup(g)
	if len(a.groups) < maxShared {
		if a.groups == nil {
			a.groups = map[uint64][]Group{}
		}
		a.groups[k] = l
	}
	return l
}

// newGroup returns a one-group list holding g, of capacity 1 (an append
// copies it), from the analysis's slab of groups.
func (a *analysis) newGroup(g Group) []Group {
	l := take(&a.groupSlab, groupSlabLen)
	l[0] = g
	return l
}

// newUnpriced is newGroup for unpriced items.
func (a *analysis) newUnpriced(u Unpriced) []Unpriced {
	l := take(&a.unpricedSlab, groupSlabLen)
	l[0] = u
	return l
}

// groupSlabLen is how many groups newGroup (and unpriced items
// newUnpriced) allocates at once.
const groupSlabLen = 32

// groupSeed keys keep's hashes.
var groupSeed = maphash.MakeSeed()

// groupHash hashes the fields keep tells groups apart by first.
func groupHash(g *Group) uint64 {
	var h maphash.Hash
	h.SetSeed(groupSeed)
	h.WriteString(g.Name)
	h.WriteByte(0)
	h.WriteString(g.SKU.Name)
	h.WriteByte(0)
	h.WriteString(g.Unpriced)
	var b [32]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(uintptr(unsafe.Pointer(g.Hourly))))
	binary.LittleEndian.PutUint64(b[8:], uint64(g.Scale.Min))
	binary.LittleEndian.PutUint64(b[16:], uint64(g.Scale.Expected))
	binary.LittleEndian.PutUint64(b[24:], uint64(g.Scale.Max))
	h.Write(b[:])
	return h.Sum64()
}

// groupFields is a Group without its attached accelerators (a group that
// has some is not shared) and its SKU but for the cloud (keep compares it
// apart): two groups with equal groupFields and SKUs are the same group.
type groupFields struct {
	name, cloud                      string
	scale                            Scale
	serverless, shadow, spot, window bool
	skuUnknown                       bool
	hourly, listHourly, ceiling      *float64
	note, basis, region, unpriced    string
	capacity                         string
}

func groupOf(g *Group) groupFields {
	return groupFields{g.Name, g.SKU.Cloud, g.Scale, g.Serverless, g.Shadow, g.Spot, g.Windows, g.SKUUnknown,
		g.Hourly, g.ListHourly, g.SpotCeiling, g.PriceNote, g.PriceBasis, g.PriceRegion, g.Unpriced, g.Capacity}
}

// providerRegion is the constant region (or zone's region) of the change's provider block.
func (a *analysis) providerRegion(c *planparse.Change) string {
	// Both sides of a change ask in turn; finding the provider block
	// allocates (the address without instance keys).
	if c == a.regionOf {
		return a.regionWas
	}
	reg := a.providerRegionOf(c)
	a.regionOf, a.regionWas = c, reg
	return reg
}

func (a *analysis) providerRegionOf(c *planparse.Change) string {
	pc := a.p.ProviderConfigFor(c)
	if pc == nil {
		return ""
	}
	if reg, ok := a.provider[pc]; ok {
		return reg
	}
	reg := a.exprString(pc, "region")
	if reg == "" {
		reg = zoneRegion(a.exprString(pc, "zone"))
	}
	reg = NormalizeRegion(reg)
	a.provider[pc] = reg
	return reg
}

// exprString is the string a provider block gives the argument key: a
// constant, or, in the root module's block, a root variable named alone
// (region = var.region), read from the values the plan was made with. A
// variable in a module's block is the module's, which the plan does not
// hold; any other expression is unknown here.
func (a *analysis) exprString(pc *planparse.ProviderConfig, key string) string {
	e := pc.Expressions[key]
	if e == nil {
		return ""
	}
	if e.HasConstant {
		s, _ := e.Constant.Str()
		return s
	}
	if name, ok := strings.CutPrefix(singleRef(e.References), "var."); ok && pc.ModuleAddress == "" && !strings.ContainsAny(name, ".[") {
		s, _ := a.p.Variable(name).Str()
		return s
	}
	return ""
}

// singleRef is the one reference of an expression, or "".
func singleRef(refs []string) string {
	if len(refs) != 1 {
		return ""
	}
	return refs[0]
}

// zoneRegion turns a GCP zone (us-central1-a) into its region; a region
// stays as it is. A zone written as a resource path or URL
// (projects/p/zones/us-central1-a) is read by its last segment.
func zoneRegion(z string) string {
	if i := strings.LastIndexByte(z, '/'); i >= 0 {
		z = z[i+1:]
	}
	if i := strings.LastIndexByte(z, '-'); i > 0 && len(z)-i == 2 && z[i+1] >= 'a' && z[i+1] <= 'z' {
		return z[:i]
	}
	return z
}

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
