package secret

import (
	"bytes"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// markPair is a member of a sensitivity mark object whose value marks
// something: its key (decoded) and its value.
type markPair struct {
	key  string
	mark []byte
	done bool // the object's member of that key was walked
}

// walkMarkedObject is walkRaw for an object raw and its mark object: each
// member of raw that the mark marks (the first of repeated keys, in both)
// is walked with its mark. raw's members are walked once for all the
// mark's keys, where a lookup per key walked them once per key (the
// brownfield mix's collect cost a third of its read of resource_changes).
func (s *Set) walkMarkedObject(raw, mark []byte) {
	var buf [16]markPair
	pairs := buf[:0]
	many := false
	eachKey(mark, func(k string, mk []byte) {
		if !bytes.Contains(mk, []byte("true")) {
			return // no mark below: walkRaw does nothing
		}
		if len(pairs) == len(buf) {
			many = true
			return
		}
		pairs = append(pairs, markPair{key: k, mark: mk})
	})
	if many { // a mark of many marked keys: a lookup per key
		eachKey(mark, func(k string, mk []byte) {
			if e, ok := jsonscan.Lookup(raw, k); ok {
				s.walkRaw(e, mk)
			}
		})
		return
	}
	left := len(pairs)
	for i := jsonscan.WS(raw, 1); left > 0 && i < len(raw) && raw[i] == '"'; {
		ke := jsonscan.StringEnd(raw, i)
		v := jsonscan.WS(raw, jsonscan.WS(raw, ke)+1) // past the colon
		end, _ := jsonscan.SkipValid(raw, v)
		for j := range pairs {
			if p := &pairs[j]; !p.done && jsonscan.KeyIs(raw[i+1:ke-1], p.key) {
				p.done = true
				left--
				s.walkRaw(raw[v:end:end], p.mark)
			}
		}
		i = jsonscan.WS(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i = jsonscan.WS(raw, i+1)
	}
}
