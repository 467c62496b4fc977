package planparse

import (
	"iter"
	"math"
	"slices"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
)

// wireRecord is a wireResource packed: its values as spans of the plan's
// bytes from the offset of the resource change's object.
type wireRecord struct {
	at int
	// before, after, after_unknown, before_sensitive, after_sensitive;
	// n 0 for null (or absent).
	values [5]span
	// actions is 0 for none, k+1 for commonActions[k], else
	// len(commonActions)+1+j for the list's odd[j].
	actions   uint32
	generated bool
}

// span is data[at+Off:at+off+n] of a wireRecord's at.
type span struct{ off, n uint32 }

// spanMax is the end of the farthest span a wireRecord holds (a test
// lowers it).
var spanMax uint64 = math.MaxUint32

// pack packs r, read from the resource change at data[at], into w (an
// action list that is not common into odd), or reports false for a
// change too big to pack (spanMax).
func (w *wireRecord) pack(data []byte, at int, r *wireResource, odd *[]tfjson.Actions) bool {
	w.at, w.generated = at, r.generated
	c := &r.Change
	for k, raw := range [5][]byte{c.Before, c.After, c.AfterUnknown, c.BeforeSensitive, c.AfterSensitive} {
		if len(raw) == 0 {
			continue
		}
		off := jsonscan.Offset(raw, data[at:])
		if off+uint64(len(raw)) > spanMax {
			return false
		}
		w.values[k] = span{uint32(off), uint32(len(raw))}
	}
	if len(c.Actions) > 0 {
		w.actions = actionsIndex(c.Actions, odd)
	}
	return true
}

// unpack is the wireResource w packs of the plan data (and odd, the
// action lists pack put there).
func (w *wireRecord) unpack(data []byte, odd []tfjson.Actions) wireResource {
	var raws [5]rawJSON
	for k, s := range w.values {
		if s.n > 0 {
			i := w.at + int(s.off)
			raws[k] = data[i : i+int(s.n) : i+int(s.n)]
		}
	}
	r := wireResource{generated: w.generated, at: w.at}
	r.Change = wireChange{Before: raws[0], After: raws[1], AfterUnknown: raws[2], BeforeSensitive: raws[3], AfterSensitive: raws[4]}
	switch k := int(w.actions); {
	case k > len(commonActions):
		r.Change.Actions = odd[k-len(commonActions)-1]
	case k > 0:
		r.Change.Actions = commonActions[k-1]
	}
	return r
}

// actionsIndex is a wireRecord's actions for a, not empty: the index of
// a's common list (a is one, as sharedActions returns it), or else of a
// in odd, where it is appended.
func actionsIndex(a tfjson.Actions, odd *[]tfjson.Actions) uint32 {
	for i, c := range commonActions {
		if len(c) == len(a) && &c[0] == &a[0] {
			return uint32(i + 1)
		}
	}
	*odd = append(*odd, a)
	return uint32(len(commonActions) + len(*odd))
}

// sharedActions returns a's common list, or a copy of a.
func sharedActions(a []tfjson.Action) tfjson.Actions {
	for _, c := range commonActions {
		if slices.Equal(c, a) {
			return c
		}
	}
	return slices.Clone(a)
}

// wireList is a list of resource changes read in chunks of growing size
// that are never copied into one slice: appended one by one, a slice of
// records grows by a quarter at a time past 256 elements and allocates
// about five times its final size; copied into one slice at the end,
// twice. Chunk k of changes has as many elements as chunk k of recs has
// room for; chunk k of recs has those in use.
type wireList struct {
	data    []byte // the plan's bytes, which records point into
	recs    [][]wireRecord
	changes [][]Change
	n       int
	odd     []tfjson.Actions // the action lists of records that are not common
}

// add appends a zero record and a zero Change and returns them: the last
// chunk grows into its capacity, which make zeroed and nothing wrote since
// (chunks only grow), without a copy of a zero record on top.
func (l *wireList) add() (*wireRecord, *Change) {
	l.recs = mem.Grow(l.recs, 16)
	k := len(l.recs) - 1
	if k == len(l.changes) {
		// A chunk's tail that no change uses is never written: pages of
		// a large allocation fresh from the system are not cleared, and
		// so never touched.
		l.changes = append(l.changes, make([]Change, cap(l.recs[k])))
	}
	r := l.recs[k][:len(l.recs[k])+1]
	l.recs[k] = r
	l.n++
	return &r[len(r)-1], &l.changes[k][len(r)-1]
}

// Len is the number of records.
func (l *wireList) Len() int { return l.n }

// At returns record i (unpacked) and its Change.
func (l *wireList) At(i int) (*wireResource, *Change) {
	for k, c := range l.recs {
		if i < len(c) {
			r := c[i].unpack(l.data, l.odd)
			return &r, &l.changes[k][i]
		}
		i -= len(c)
	}
	panic("wireList: index out of range")
}

// All yields the records (unpacked) with their Changes, in order.
func (l *wireList) All() iter.Seq2[*wireResource, *Change] {
	return func(yield func(*wireResource, *Change) bool) {
		for k, c := range l.recs {
			for j := range c {
				r := c[j].unpack(l.data, l.odd)
				if !yield(&r, &l.changes[k][j]) {
					return
				}
			}
		}
	}
}

// commonActions are the action lists of nearly every change, shared by
// the changes that have them (read only).
var commonActions = []tfjson.Actions{{tfjson.ActionNoop}, {tfjson.ActionCreate}, {tfjson.ActionUpdate},
	{tfjson.ActionDelete}, {tfjson.ActionRead}, {tfjson.ActionDelete, tfjson.ActionCreate},
	{tfjson.ActionCreate, tfjson.ActionDelete}, {tfjson.ActionForget}}
