package planparse

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// memo remembers answers by string key in a fixed table of slots, each
// holding one key and its answer: a key hashes to one slot, and a newer key
// of the same slot replaces the older one. It is safe for concurrent use
// without locks (a slot's entry is replaced whole), its memory is bounded
// (slots times the longest key kept), and a lookup is one hash and one
// comparison, where sync.Map hashed an interface and walked a trie (5% of
// a large review's CPU went to these memos). Forgetting an answer only
// costs working it out again.
type memo[V any] struct {
	seed   maphash.Seed
	maxKey int
	slots  []atomic.Pointer[memoEntry[V]]
}

type memoEntry[V any] struct {
	key string
	val V
}

// newMemo returns a memo of n slots (a power of two) keeping keys of at
// most maxKey bytes.
func newMemo[V any](n, maxKey int) *memo[V] {
	return &memo[V]{seed: maphash.MakeSeed(), maxKey: maxKey, slots: make([]atomic.Pointer[memoEntry[V]], n)}
}

func (m *memo[V]) slot(k string) *atomic.Pointer[memoEntry[V]] {
	return &m.slots[maphash.String(m.seed, k)&uint64(len(m.slots)-1)]
}

// get returns the answer remembered for k.
func (m *memo[V]) get(k string) (V, bool) {
	if e := m.slot(k).Load(); e != nil && e.key == k {
		return e.val, true
	}
	var zero V
	return zero, false
}

// put remembers v for k (a copy of k: it may be a view of a plan's bytes),
// unless k is longer than the memo keeps.
func (m *memo[V]) put(k string, v V) {
	if len(k) <= m.maxKey {
		m.slot(k).Store(&memoEntry[V]{key: strings.Clone(k), val: v})
	}
}
