package mem

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// Memo remembers answers by string key in a fixed table of slots, each
// holding one key and its answer: a key hashes to one slot, and a newer key
// of the same slot replaces the older one. It is safe for concurrent use
// without locks (a slot's entry is replaced whole), its memory is bounded
// (slots times the longest key kept), and a lookup is one hash and one
// comparison, where sync.Map hashed an interface and walked a trie (5% of
// a large review's CPU went to these memos). Forgetting an answer only
// costs working it out again.
type Memo[V any] struct {
	seed   maphash.Seed
	maxKey int
	slots  []atomic.Pointer[entry[V]]
}

type entry[V any] struct {
	key string
	val V
}

// NewMemo returns a Memo of n slots (a power of two) keeping keys of at
// most maxKey bytes.
func NewMemo[V any](n, maxKey int) *Memo[V] {
	return &Memo[V]{seed: maphash.MakeSeed(), maxKey: maxKey, slots: make([]atomic.Pointer[entry[V]], n)}
}

func (m *Memo[V]) slot(k string) *atomic.Pointer[entry[V]] {
	return &m.slots[maphash.String(m.seed, k)&uint64(len(m.slots)-1)]
}

// Get returns the answer remembered for k.
func (m *Memo[V]) Get(k string) (V, bool) {
	if e := m.slot(k).Load(); e != nil && e.key == k {
		return e.val, true
	}
	var zero V
	return zero, false
}

// Put remembers v for k (a copy of k: it may be a view of a plan's bytes),
// unless k is longer than the memo keeps.
func (m *Memo[V]) Put(k string, v V) {
	if len(k) <= m.maxKey {
		m.slot(k).Store(&entry[V]{key: strings.Clone(k), val: v})
	}
}
