package planparse

import (
	"bytes"
	"sync"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// Diff's walk of a change whose two sides are objects still in the plan's
// bytes (an update, a replacement): a top-level attribute whose two sides
// are the same bytes under the same marks sanitizes to the same value on
// both sides (as for Same) (sanitize is a function of the value, its marks, its name and
// the plan's secrets), so it has no difference and is not decoded. Only
// the attributes that differ are decoded and sanitized, each as sanitize's
// object branch would (diffWhole is the reference: a test compares the two
// on every plan of the corpus). An object sanitize would treat as a whole
// (a renamed secret key, a {name, value} pair, an escaped or repeated key)
// goes to diffWhole.

// rawMember is one member of an object in a plan's bytes: its key (a view
// of the bytes) and its value.
type rawMember struct {
	key string
	raw []byte
}

// objectMembers lists the members of the validated object raw, in order,
// into buf; ok is false when a key is escaped or repeated.
func objectMembers(raw []byte, buf []rawMember) ([]rawMember, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return buf, len(raw) == 0
	}
	start := len(buf)
	for i := jsonscan.WS(raw, 1); i < len(raw) && raw[i] == '"'; {
		ke := jsonscan.StringEnd(raw, i)
		k := raw[i+1 : ke-1]
		if bytes.IndexByte(k, '\\') >= 0 {
			return buf, false
		}
		v := jsonscan.WS(raw, jsonscan.WS(raw, ke)+1) // past the colon
		end, _ := jsonscan.SkipValid(raw, v)
		for _, m := range buf[start:] {
			if m.key == string(k) {
				return buf, false
			}
		}
		buf = append(buf, rawMember{key: jsonscan.View(k), raw: raw[v:end:end]})
		i = jsonscan.WS(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i = jsonscan.WS(raw, i+1)
	}
	return buf, true
}

func memberOf(ms []rawMember, key string) ([]byte, bool) {
	for _, m := range ms {
		if m.key == key {
			return m.raw, true
		}
	}
	return nil, false
}

// objectSide is one side of a change read member by member.
type objectSide struct {
	n                  *lazy
	members, sens, unk []rawMember
}

// read lists the side's members and marks; ok is false when sanitize
// would rename one of its keys, judge a member by a {name, value} pair, or
// a key is escaped or repeated.
func (s *objectSide) read(n *lazy, buf []rawMember) ([]rawMember, bool) {
	s.n = n
	var ok bool
	at := len(buf)
	if buf, ok = objectMembers(n.raw, buf); !ok {
		return buf, false
	}
	s.members = buf[at:len(buf):len(buf)]
	at = len(buf)
	if buf, ok = objectMembers(n.sens(), buf); !ok {
		return buf, false
	}
	s.sens = buf[at:len(buf):len(buf)]
	at = len(buf)
	if buf, ok = objectMembers(n.unk(), buf); !ok {
		return buf, false
	}
	s.unk = buf[at:len(buf):len(buf)]
	for _, m := range s.members {
		if m.key == "value" || n.z.secretKey(m.key) {
			return buf, false
		}
	}
	for _, m := range s.unk {
		if n.z.secretKey(m.key) {
			return buf, false
		}
	}
	return buf, true
}

// value is the sanitized value of the member key, as sanitize's object
// branch makes it (nil when absent; unknown when only the unknown marks
// have it, in review mode).
func (s *objectSide) value(key string) any {
	unk, _ := memberOf(s.unk, key)
	raw, found := memberOf(s.members, key)
	if !found {
		if isLiteral(unk, "true") && s.n.z.redactKey == nil {
			return unknown{}
		}
		return nil
	}
	sens, _ := memberOf(s.sens, key)
	return s.n.z.sanitize(decodeOrNil(raw), decodeOrNil(sens), decodeOrNil(unk), key)
}

// memberDiff is diffMembers' scratch: the two sides and the members they
// list (pooled: a plan's changes are diffed one after another).
type memberDiff struct {
	b, a objectSide
	buf  []rawMember
	path []byte
}

var memberDiffs = sync.Pool{New: func() any { return new(memberDiff) }}

// diffMembers appends the change's differences when both sides are
// objects it can read member by member; ok is false when diffWhole must.
func diffMembers(before, after Value, out *[]AttrDiff) bool {
	b, a := before.n, after.n
	if b == nil || a == nil || b.z != a.z || b.key != "" || a.key != "" || b.raw[0] != '{' || a.raw[0] != '{' {
		return false
	}
	m := memberDiffs.Get().(*memberDiff)
	defer func() {
		clear(m.buf)
		*m = memberDiff{buf: m.buf[:0], path: m.path[:0]}
		memberDiffs.Put(m)
	}()
	var ok bool
	if m.buf, ok = m.b.read(b, m.buf[:0]); !ok {
		return false
	}
	if m.buf, ok = m.a.read(a, m.buf); !ok {
		return false
	}
	for _, e := range m.b.members {
		m.visit(e.key, out)
	}
	for _, e := range m.a.members {
		if !has(e.key, m.b.members) {
			m.visit(e.key, out)
		}
	}
	// Keys only the unknown marks name (review mode shows them unknown).
	for _, e := range m.b.unk {
		if !has(e.key, m.b.members) && !has(e.key, m.a.members) {
			m.visit(e.key, out)
		}
	}
	for _, e := range m.a.unk {
		if !has(e.key, m.b.members) && !has(e.key, m.a.members) && !has(e.key, m.b.unk) {
			m.visit(e.key, out)
		}
	}
	return true
}

// visit appends the differences under the member key, unless its two
// sides are the same bytes under the same marks.
func (m *memberDiff) visit(key string, out *[]AttrDiff) {
	rb, inB := memberOf(m.b.members, key)
	ra, inA := memberOf(m.a.members, key)
	if inB && inA && bytes.Equal(rb, ra) {
		bs, _ := memberOf(m.b.sens, key)
		as, _ := memberOf(m.a.sens, key)
		bu, _ := memberOf(m.b.unk, key)
		au, _ := memberOf(m.a.unk, key)
		if sameMarks(bs, as) && sameMarks(bu, au) {
			return
		}
	}
	m.path = appendKey(m.path[:0], key)
	diffWalk(m.path, m.b.value(key), m.a.value(key), out)
}

func has(key string, ms []rawMember) bool {
	_, ok := memberOf(ms, key)
	return ok
}
