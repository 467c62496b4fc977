package infra

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

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
