package planparse

import (
	"bytes"
	"sync"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// refIndex is the index of prior_state and planned_values as planparse
// built it before Parse recorded the resources (a walk of the section on
// the first lookup, an address map on the first lookup by address): the
// reference the recorded index must read as.
type refIndex struct {
	raw  []byte   // the section (prior_state, planned_values)
	root []string // the path to its root module, found when first indexed
	z    sanitizer

	once    sync.Once
	entries []*refEntry
	byType  map[string][]*refEntry

	addrOnce sync.Once
	byAddr   map[string]*refEntry

	mu sync.Mutex // guards the entries' decoded resources
}

type refEntry struct {
	raw     []byte // the resource's object
	typ     string
	decoded bool
	res     *StateResource
}

func (x *refIndex) index() {
	x.once.Do(func() {
		x.byType = map[string][]*refEntry{}
		m := x.raw
		for _, k := range x.root {
			m = refMemberFrom(m, k)
		}
		queue := [][]byte{m}
		for len(queue) > 0 {
			m := queue[0]
			queue = queue[1:]
			x.module(m, func(child []byte) { queue = append(queue, child) })
		}
		x.raw = nil
	})
}

// module indexes the resources of one module object in a single walk over
// its bytes and hands its child modules to child: the first "resources" and
// "child_modules" count, as member reads them.
func (x *refIndex) module(m []byte, child func([]byte)) {
	i := jsonscan.WS(m, 0)
	if i >= len(m) || m[i] != '{' {
		return
	}
	seenResources, seenChildren := false, false
	_, _ = jsonscan.EachMember(m, i, 0, func(k []byte, _ bool, v int) (int, error) {
		switch {
		case string(k) == "resources" && !seenResources:
			seenResources = true
			if m[v] != '[' {
				return jsonscan.SkipValid(m, v)
			}
			return jsonscan.EachElement(m, v, 0, func(r int) (int, error) {
				if m[r] != '{' {
					return jsonscan.SkipValid(m, r)
				}
				var typ []byte // the last one counts, as in a decode
				end, err := jsonscan.EachMember(m, r, 0, func(k []byte, _ bool, v int) (int, error) {
					end, err := jsonscan.SkipValid(m, v)
					if string(k) == "type" {
						typ = m[v:end]
					}
					return end, err
				})
				if err == nil {
					e := &refEntry{raw: m[r:end:end], typ: x.internType(typ)}
					x.entries = append(x.entries, e)
					x.byType[e.typ] = append(x.byType[e.typ], e)
				}
				return end, err
			})
		case string(k) == "child_modules" && !seenChildren:
			seenChildren = true
			if m[v] != '[' {
				return jsonscan.SkipValid(m, v)
			}
			return jsonscan.EachElement(m, v, 0, func(e int) (int, error) {
				end, err := jsonscan.SkipValid(m, e)
				if err == nil && m[e] == '{' {
					child(m[e:end:end])
				}
				return end, err
			})
		}
		return jsonscan.SkipValid(m, v)
	})
}

// internType decodes a type name once per distinct name: the byType key
// already holding it is reused.
func (x *refIndex) internType(lit []byte) string {
	if len(lit) >= 2 && lit[0] == '"' && bytes.IndexByte(lit, '\\') < 0 {
		if l := x.byType[string(lit[1:len(lit)-1])]; len(l) > 0 {
			return l[0].typ
		}
	}
	return jsonscan.StringAt(lit)
}

// refLastMember is the value of an object's last member named key (the one
// a decode keeps), nil when it has none.
func refLastMember(r []byte, key string) []byte {
	var out []byte
	_, _ = jsonscan.EachMember(r, 0, 0, func(k []byte, _ bool, v int) (int, error) {
		end, err := jsonscan.SkipValid(r, v)
		if string(k) == key {
			out = r[v:end:end]
		}
		return end, err
	})
	return out
}

// resource makes an entry's StateResource on first use; its Values are a
// view of the plan's bytes, decoded as they are read.
func (x *refIndex) resource(e *refEntry) *StateResource {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !e.decoded {
		e.decoded = true
		address, m, _, name, values, sens := (&stateIndex{z: x.z}).fields(e.raw)
		mode := Mode(m)
		if mode == "" {
			mode = ModeManaged
		}
		e.res = &StateResource{Address: address, Mode: mode, Type: e.typ, Name: name,
			Values: x.z.resolve(values, sens, nil, "")}
	}
	return e.res
}

func (x *refIndex) pick(entries []*refEntry) []*StateResource {
	var out []*StateResource
	for _, e := range entries {
		if r := x.resource(e); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (x *refIndex) all() []*StateResource { x.index(); return x.pick(x.entries) }

func (x *refIndex) ofType(typ string) []*StateResource { x.index(); return x.pick(x.byType[typ]) }

func (x *refIndex) at(address string) *StateResource {
	x.index()
	x.addrOnce.Do(func() {
		x.byAddr = make(map[string]*refEntry, len(x.entries))
		for _, e := range x.entries {
			address := x.z.redactAddress(jsonscan.StringView(refLastMember(e.raw, "address")))
			if _, dup := x.byAddr[address]; !dup {
				x.byAddr[address] = e
			}
		}
	})
	if e := x.byAddr[address]; e != nil {
		return x.resource(e)
	}
	return nil
}

// refMemberFrom is member without finding where the value ends: the slice
// runs from the value's start to the end of raw, for a reader that walks
// an object (or array) and stops at its closing bracket. Finding the end of
// a large section (prior_state's root module) is a walk over all of it.
func refMemberFrom(raw []byte, key string) []byte {
	var out []byte
	i := jsonscan.WS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	_, _ = jsonscan.EachMember(raw, i, 0, func(k []byte, _ bool, v int) (int, error) {
		if string(k) == key {
			if !jsonscan.IsNull(raw, v) {
				out = raw[v:]
			}
			return v, errStop // the first of repeated keys counts (see lookup)
		}
		return jsonscan.SkipValid(raw, v)
	})
	return out
}
