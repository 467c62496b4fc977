package planparse

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// prior_state and planned_values are more than half of a plan's bytes, and
// a review looks up a few of their resources (a node pool's parent
// cluster, an ASG's launch template). Parse's one pass over them records,
// per resource, where its object starts, its type, a hash of its address
// and short hashes of its values' id and name (16 bytes; stateScan), and a
// lookup reads the bytes of the resources it asks for only: nothing walks
// a whole section after Parse, so a caller may release the sections' pages
// (Plan.SparseRanges). Offsets are 32 bits: a plan of 4 GiB or more has no
// state index (its lookups find nothing).

// stateIndex is prior_state's or planned_values' resources in the order
// of PriorResources (root module first, then child modules breadth
// first). A resource's address, names and values are decoded (and
// sanitized) when a caller asks for that resource.
type stateIndex struct {
	raw   []byte     // the section (prior_state, planned_values)
	ents  []stateEnt // its resources
	types []string   // type names by stateEnt.typ
	z     sanitizer

	addrOnce sync.Once
	byHash   []uint32 // indexes of ents sorted by address hash, made on the first lookup by address

	fieldMu sync.Mutex
	byField map[uint64][]uint64 // per type<<1 | field (id 0, name 1): its entries' hash<<32 | index, sorted; made on the type's first lookup by that field

	mu      sync.Mutex                // guards decoded
	decoded map[uint32]*StateResource // the resources asked for, by index of ents
}

// stateEnt is one resource of a section: where its object starts in the
// section, its type (an index of stateIndex.types), the hash of its
// address as lookups by address see it (redacted) and short hashes of its
// values' id and name in lower case (fieldHash; 0 for none), which
// resourcesWith narrows its reads by.
type stateEnt struct {
	off, hash, typ uint32
	id, name       uint16
}

// ones and highs are the lowest and highest bit of each of eight bytes.
const ones, highs = 0x0101010101010101, 0x8080808080808080

// fieldHash is the short hash of a string attribute's value in lower case.
func fieldHash(s string) uint16 {
	var buf [128]byte
	if len(s) > len(buf) {
		return uint16(maphash.String(addrSeed, strings.ToLower(s)))
	}
	n := copy(buf[:], s)
	for i := 0; i < n; i += 8 { // eight bytes at a time (the buffer's tail is zeros)
		x := binary.LittleEndian.Uint64(buf[i:])
		if x&highs != 0 {
			return uint16(maphash.String(addrSeed, strings.ToLower(s))) // not ASCII
		}
		// The bytes from 'A' to 'Z' gain 0x20.
		upper := (x + ones*(0x80-'A')) &^ (x + ones*(0x80-'Z'-1)) & highs
		binary.LittleEndian.PutUint64(buf[i:], x|upper>>2)
	}
	return uint16(maphash.Bytes(addrSeed, buf[:n]))
}

// addrSeed keys the address hashes (stateEnt.hash).
var addrSeed = maphash.MakeSeed()

func addrHash(address string) uint32 { return uint32(maphash.String(addrSeed, address)) }

// stateScan is what the read of a prior_state or planned_values section
// records for its index (readState).
type stateScan struct {
	root  []string     // the path from the section to its root module
	start int          // the section's offset in the plan's bytes
	mods  []int32      // the depth of each module, in the order the read met them
	recs  [][]stateRec // in chunks (see wireList: no slice grown a quarter at a time)
	n     int          // records in recs
	types map[string]uint32
	names []string
	last  uint32 // the type of the resource recorded last
	// keyed are the resources whose address has quoted instance keys (a
	// secret key is shown redacted): their hash is made once the plan's
	// secrets are known.
	keyed []keyedAddr
	// outputs is the section's first "outputs" member (nil when absent or
	// null), for sensitiveOutputs: no search of the whole section for a
	// sensitivity flag.
	outputs []byte
	// marked are the values and sensitive_values of the resources whose
	// sensitive_values mark something (a data source read into
	// prior_state only): collectSecrets adds them to the plan's set.
	marked mem.Chunks[[2][]byte]
}

// stateRec is a stateEnt as the read records it, with its module.
type stateRec struct {
	stateEnt
	mod int32
}

type keyedAddr struct {
	rec    int // index of recs
	k0, k1 int // the address literal, as offsets of the plan's bytes
}

// lit is a value's bytes as skipLiteral read them, and whether it is
// a string that needs unquoting.
type lit struct {
	b    []byte
	slow bool
}

// view is the literal's string as a view of the plan's bytes when it has
// no escapes ("" for a value that is no string, as a decode of a string
// field gives).
func (l lit) view() string {
	if len(l.b) < 2 || l.b[0] != '"' {
		return ""
	}
	if !l.slow {
		return jsonscan.View(l.b[1 : len(l.b)-1])
	}
	return jsonscan.StringAt(l.b)
}

// skipLiteral is skipNoting also telling whether a string needs unquoting
// (for a value that is no string, true), so that its reader need not scan
// it again.
func skipLiteral(data []byte, v, depth int, n *secret.Notes) (int, bool, error) {
	if v < len(data) && data[v] == '"' {
		end, slow, err := jsonscan.String(data, v)
		if n != nil && err == nil && end-v-2 >= secret.MinScanLen {
			n.Text(data, v, end, slow)
		}
		return end, slow, err
	}
	end, err := jsonscan.SkipNoting(data, v, depth, n)
	return end, true, err
}

// resource records a resource object at data[r] of module mod whose last
// "type" and "address" members are typ and addr (empty when absent), and
// whose values' id and name are id and name.
func (s *stateScan) resource(data []byte, r int, mod int32, typ, addr lit, addrAt int, id, name lit) {
	t := typ.view()
	var tid uint32
	ok := false
	if len(s.names) > 0 && s.names[s.last] == t { // resources of a type come together
		tid, ok = s.last, true
	} else if len(s.names) <= 16 {
		tid = uint32(slices.Index(s.names, t))
		ok = tid != math.MaxUint32
	} else {
		tid, ok = s.types[t]
	}
	if !ok {
		if s.types == nil {
			s.types = map[string]uint32{}
		}
		tid = uint32(len(s.names))
		t = strings.Clone(t) // the name outlives a release of the section's pages
		s.types[t] = tid
		s.names = append(s.names, t)
	}
	s.last = tid
	a := addr.view()
	if strings.Contains(a, `["`) {
		s.keyed = append(s.keyed, keyedAddr{s.n, addrAt, addrAt + len(addr.b)})
	}
	e := stateEnt{off: uint32(r - s.start), hash: addrHash(a), typ: tid}
	if len(id.b) > 0 && id.b[0] == '"' {
		e.id = fieldHash(id.view())
	}
	if len(name.b) > 0 && name.b[0] == '"' {
		e.name = fieldHash(name.view())
	}
	s.recs = mem.Grow(s.recs, 64)
	k := len(s.recs) - 1
	s.recs[k] = append(s.recs[k], stateRec{e, mod})
	s.n++
}

// readState reads a prior_state or planned_values section at data[v] as
// readValueInto does (validating it, taking the secret notes) and records
// its resources in s: the module at s.root, its resources and its child
// modules'. The first of repeated "values", "root_module", "resources" and
// "child_modules" members counts, and a resource's last "type" and
// "address" (as a decode of the resource keeps them).
func readState(data []byte, v, d int, into *rawJSON, n *secret.Notes, s *stateScan) (int, error) {
	*s = stateScan{root: s.root, start: v}
	end, err := s.path(data, v, d, s.root, n)
	*into = nil
	if err == nil && !jsonscan.IsNull(data, v) {
		*into = data[v:end:end]
	}
	if err != nil || len(data) > math.MaxUint32 {
		s.recs, s.n, s.keyed = nil, 0, nil // no index past 4 GiB: lookups find nothing
	}
	return end, err
}

func (s *stateScan) path(data []byte, v, depth int, path []string, n *secret.Notes) (int, error) {
	if len(path) == 0 {
		return s.module(data, v, depth, 0, n)
	}
	if byteAt(data, v) != '{' {
		return jsonscan.SkipNoting(data, v, depth, n)
	}
	found, section, outputs := false, len(path) == len(s.root), false
	return jsonscan.EachMemberNoting(data, v, depth, n, func(key []byte, _ bool, mv int) (int, error) {
		if !found && string(key) == path[0] {
			found = true
			return s.path(data, mv, depth+1, path[1:], n)
		}
		end, err := jsonscan.SkipNoting(data, mv, depth+1, n)
		if section && !outputs && string(key) == "outputs" {
			outputs = true // the first counts, as member reads it
			if err == nil && !jsonscan.IsNull(data, mv) {
				s.outputs = data[mv:end:end]
			}
		}
		return end, err
	})
}

// module reads a module object at data[v] whose depth below the root
// module is modDepth.
func (s *stateScan) module(data []byte, v, depth int, modDepth int32, n *secret.Notes) (int, error) {
	if byteAt(data, v) != '{' {
		return jsonscan.SkipNoting(data, v, depth, n)
	}
	mod := int32(len(s.mods))
	s.mods = append(s.mods, modDepth)
	seenResources, seenChildren := false, false
	return jsonscan.EachMemberNoting(data, v, depth, n, func(key []byte, _ bool, mv int) (int, error) {
		switch {
		case string(key) == "resources" && !seenResources:
			seenResources = true
			if byteAt(data, mv) == '[' {
				return jsonscan.EachElement(data, mv, depth+1, func(r int) (int, error) {
					if byteAt(data, r) != '{' {
						return jsonscan.SkipNoting(data, r, depth+2, n)
					}
					return s.resourceAt(data, r, depth+2, mod, n)
				})
			}
		case string(key) == "child_modules" && !seenChildren:
			seenChildren = true
			if byteAt(data, mv) == '[' {
				return jsonscan.EachElement(data, mv, depth+1, func(e int) (int, error) {
					return s.module(data, e, depth+2, modDepth+1, n)
				})
			}
		}
		return jsonscan.SkipNoting(data, mv, depth+1, n)
	})
}

// resourceAt reads a resource object at data[r].
func (s *stateScan) resourceAt(data []byte, r, depth int, mod int32, n *secret.Notes) (int, error) {
	var typ, addr, id, name lit // id and name of the last "values" (a decode's), the first of repeated keys (lookup's)
	addrAt := 0
	var values, sens []byte
	end, err := jsonscan.EachMemberNoting(data, r, depth, n, func(key []byte, _ bool, mv int) (int, error) {
		if string(key) == "values" && byteAt(data, mv) == '{' {
			id, name = lit{}, lit{}
			seenID, seenName := false, false
			end, err := jsonscan.EachMemberNoting(data, mv, depth+1, n, func(k []byte, _ bool, fv int) (int, error) {
				end, slow, err := skipLiteral(data, fv, depth+2, n)
				switch {
				case !seenID && jsonscan.KeyIs(k, "id"):
					seenID, id = true, lit{data[fv:end], slow}
				case !seenName && jsonscan.KeyIs(k, "name"):
					seenName, name = true, lit{data[fv:end], slow}
				}
				return end, err
			})
			values = data[mv:end]
			return end, err
		}
		end, slow, err := skipLiteral(data, mv, depth+1, n)
		switch string(key) {
		case "sensitive_values":
			sens = data[mv:end]
		case "type":
			typ = lit{data[mv:end], slow}
		case "address":
			addr, addrAt = lit{data[mv:end], slow}, mv
		case "values":
			id, name = lit{}, lit{} // a last "values" that is no object
		}
		return end, err
	})
	if err == nil {
		s.resource(data, r, mod, typ, addr, addrAt, id, name)
		if len(values) > 0 && bytes.Contains(sens, []byte("true")) {
			s.marked.Add([2][]byte{values, sens})
		}
	}
	return end, err
}

// build makes the index of a section from its read, once the plan's
// secrets (z) are known: a keyed address is hashed as lookups see it,
// redacted.
func (x *stateIndex) build(raw []byte, data []byte, s *stateScan, z sanitizer) {
	x.raw, x.types, x.z = raw, s.names, z
	if s.n == 0 {
		return
	}
	// Breadth first: the read met the modules depth first, and modules of
	// one depth come in the same order either way; a counting sort by
	// depth keeps the read's order within a depth.
	var at []int // the next place of a record of each depth
	for _, c := range s.recs {
		for _, r := range c {
			d := int(s.mods[r.mod])
			for len(at) <= d {
				at = append(at, 0)
			}
			at[d]++
		}
	}
	for d, next := 0, 0; d < len(at); d++ {
		at[d], next = next, next+at[d]
	}
	x.ents = make([]stateEnt, s.n)
	i, keyed := 0, s.keyed
	for _, c := range s.recs {
		for _, r := range c {
			if len(keyed) > 0 && keyed[0].rec == i {
				k := keyed[0]
				r.hash = addrHash(z.redactAddress(jsonscan.StringView(data[k.k0:k.k1])))
				keyed = keyed[1:]
			}
			d := s.mods[r.mod]
			x.ents[at[d]] = r.stateEnt
			at[d]++
			i++
		}
	}
}

// Range is a span of the bytes given to Parse: data[Start:End].
type Range struct{ Start, End int }

// SparseRanges returns the spans of the bytes given to Parse that the plan
// reads again only sparsely once Parse has returned: prior_state and
// planned_values, of which a lookup (PriorResource, PlannedResourcesOfType,
// ...) reads the resources it asks for and nothing else. No string or value
// of the plan read before a lookup (changes, outputs, checks, the secret
// set) points into them. A caller that mapped the file may release their
// pages (madvise MADV_DONTNEED on a read-only mapping): the data must stay
// readable, as Parse says, and a lookup then reads the few pages it needs
// back from the file. The spans are in the order of the plan, disjoint;
// empty for a plan that has neither section or was re-encoded (UTF-16).
func (p *Plan) SparseRanges() []Range { return slices.Clone(p.sparse) }

// sparseRanges finds the sections of SparseRanges in the caller's bytes in,
// of which data is the plan as read (in past a byte-order mark).
func sparseRanges(in, data []byte, w *wirePlan) []Range {
	if len(in) == 0 || len(data) == 0 || &in[len(in)-1] != &data[len(data)-1] {
		return nil // re-encoded: data is a copy
	}
	shift := len(in) - len(data)
	var out []Range
	for _, sec := range []struct {
		raw   []byte
		start int
	}{{w.PriorState, w.priorScan.start}, {w.PlannedValues, w.plannedScan.start}} {
		if len(sec.raw) > 0 {
			out = append(out, Range{shift + sec.start, shift + sec.start + len(sec.raw)})
		}
	}
	slices.SortFunc(out, func(a, b Range) int { return a.Start - b.Start })
	return out
}

// fields decodes an entry's address, mode, type, name, values and
// sensitive_values (the last of repeated members, as a decode keeps).
func (x *stateIndex) fields(r []byte) (address, mode, typ, name string, values, sensitive []byte) {
	_, _ = jsonscan.EachMember(r, 0, 0, func(key []byte, _ bool, v int) (int, error) {
		end, err := jsonscan.SkipValid(r, v)
		switch string(key) {
		case "address":
			address = x.z.redactAddress(jsonscan.StringView(r[v:end]))
		case "mode":
			mode = jsonscan.StringView(r[v:end])
		case "type":
			typ = jsonscan.StringView(r[v:end])
		case "name":
			name = jsonscan.StringView(r[v:end])
		case "values":
			values = r[v:end:end]
		case "sensitive_values":
			sensitive = r[v:end:end]
		}
		return end, err
	})
	return
}

// object is the bytes of entry i's resource object.
func (x *stateIndex) object(i uint32) []byte {
	off := int(x.ents[i].off)
	end, _ := jsonscan.SkipValid(x.raw, off)
	return x.raw[off:end:end]
}

// resource makes entry i's StateResource on first use; its Values are a
// view of the plan's bytes, decoded as they are read.
func (x *stateIndex) resource(i uint32) *StateResource {
	x.mu.Lock()
	defer x.mu.Unlock()
	if r, ok := x.decoded[i]; ok {
		return r
	}
	address, m, _, name, values, sens := x.fields(x.object(i))
	mode := Mode(m)
	if mode == "" {
		mode = ModeManaged
	}
	r := &StateResource{Address: address, Mode: mode, Type: x.types[x.ents[i].typ], Name: name,
		Values: x.z.resolve(values, sens, nil, "")}
	if x.decoded == nil {
		x.decoded = map[uint32]*StateResource{}
	}
	x.decoded[i] = r
	return r
}

func (x *stateIndex) all() []*StateResource {
	var out []*StateResource
	for i := range x.ents {
		out = append(out, x.resource(uint32(i)))
	}
	return out
}

func (x *stateIndex) ofType(typ string) []*StateResource {
	id := slices.Index(x.types, typ)
	if id < 0 {
		return nil
	}
	var out []*StateResource
	for i, e := range x.ents {
		if e.typ == uint32(id) {
			out = append(out, x.resource(uint32(i)))
		}
	}
	return out
}

// with lists the resources of type typ whose values' string attribute
// field, in lower case, is value's (see PriorResourcesWith).
func (x *stateIndex) with(typ, field, value string) []*StateResource {
	var out []*StateResource
	x.each(typ, field, value, func(r *StateResource) bool {
		out = append(out, r)
		return true
	})
	return out
}

// first is the first resource with lists, or nil.
func (x *stateIndex) first(typ, field, value string) *StateResource {
	var out *StateResource
	x.each(typ, field, value, func(r *StateResource) bool {
		out = r
		return false
	})
	return out
}

// each calls yield with the resources with lists, in order, until yield
// returns false. For field id or name it reads only the entries of the
// type whose recorded hash matches (byField: a binary search), else every
// entry of the type.
func (x *stateIndex) each(typ, field, value string, yield func(*StateResource) bool) {
	id := slices.Index(x.types, typ)
	if id < 0 || value == "" {
		return
	}
	want := strings.ToLower(value)
	match := func(i uint32) bool {
		r := x.resource(i)
		if s, ok := r.Values.Get(field).Str(); ok && strings.ToLower(s) == want {
			return yield(r)
		}
		return true
	}
	f := -1
	switch field {
	case "id":
		f = 0
	case "name":
		f = 1
	}
	if f < 0 {
		for i, e := range x.ents {
			if e.typ == uint32(id) && !match(uint32(i)) {
				return
			}
		}
		return
	}
	x.fieldMu.Lock()
	tf := uint64(id)<<1 | uint64(f)
	l, ok := x.byField[tf]
	if !ok {
		for i, e := range x.ents {
			if e.typ == uint32(id) {
				h := e.id
				if f == 1 {
					h = e.name
				}
				l = append(l, uint64(h)<<32|uint64(i))
			}
		}
		slices.Sort(l) // entries of one hash stay in order
		if x.byField == nil {
			x.byField = map[uint64][]uint64{}
		}
		x.byField[tf] = l
	}
	x.fieldMu.Unlock()
	h := uint64(fieldHash(value))
	j, _ := slices.BinarySearch(l, h<<32)
	for ; j < len(l) && l[j]>>32 == h; j++ {
		if !match(uint32(l[j])) {
			return
		}
	}
}

// at finds the first resource whose (redacted) address is address: the
// entries of its hash are read, no other.
func (x *stateIndex) at(address string) *StateResource {
	x.addrOnce.Do(func() {
		x.byHash = make([]uint32, len(x.ents))
		for i := range x.byHash {
			x.byHash[i] = uint32(i)
		}
		sort.SliceStable(x.byHash, func(a, b int) bool { return x.ents[x.byHash[a]].hash < x.ents[x.byHash[b]].hash })
	})
	h := addrHash(address)
	k := sort.Search(len(x.byHash), func(j int) bool { return x.ents[x.byHash[j]].hash >= h })
	for ; k < len(x.byHash) && x.ents[x.byHash[k]].hash == h; k++ {
		// Stable: entries of one hash stay in order, the first counts.
		if r := x.resource(x.byHash[k]); r.Address == address {
			return r
		}
	}
	return nil
}
