package planparse

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// A caller reads several attributes of one object (infra reads a node
// pool's vm_size, node_count, tags, zones, ...), and lookup finds each by
// walking the object from its start. memberCache remembers, for the few
// objects a plan's readers touched last, where each member's key and value
// lie, so that the reads after the first cost a comparison of keys instead
// of a walk. It is bounded (cacheSlots objects of at most cacheMembers
// members), one per plan, and holds offsets only: no value is decoded or
// copied. Each slot is locked while it is read or refilled, so that the
// goroutines reading one plan share it safely.
type memberCache struct {
	slots [cacheSlots]cacheSlot
	// steps remembers whether the keys callers read by (Get's steps: a
	// program's few attribute names) are secret keys of the plan, whose
	// secret set does not change after Parse (a bounded memo).
	steps *mem.Memo[bool]
	// clean remembers the long strings that sanitize shows as they are
	// under a key (scalar), by cleanKey: the key and the string, boxed as
	// the Value holds them. A plan repeats a few SKUs, ids and regions in
	// thousands of values, and the checks of a string (known secrets in
	// it, in its base64 or JSON decoding, the detector's formats) cost
	// far more than a lookup. The plan's secret set does not change after
	// Parse, so an answer stays true.
	clean *mem.Memo[any]
	// seen has the hash of each cleanKey that missed clean lately (one a
	// slot) and how often it did: a string is kept in clean the third time
	// it misses, so the many strings a plan holds once or twice (names and
	// ids, read on both sides of their change) cost no allocation.
	seen     [seenSlots]atomic.Uint64
	seenSeed maphash.Seed
}

// seenSlots is the size of memberCache.seen (a power of two).
const seenSlots = 4096

// minCleanLen is the shortest string memberCache.clean keeps.
const minCleanLen = 4

// seenBefore reports whether the clean key k missed twice before (and
// records that it missed again). A slot holds a key's hash but for its
// two low bits, which count its misses.
func (c *memberCache) seenBefore(k []byte) bool {
	h := maphash.Bytes(c.seenSeed, k)
	s := &c.seen[h&(seenSlots-1)]
	old := s.Load()
	if old&^3 != h&^3 || old&3 == 0 {
		s.Store(h&^3 | 1)
		return false
	}
	if old&3 == 1 {
		s.Store(h&^3 | 2)
		return false
	}
	return true
}

// maxCleanKey bounds a cleanKey (the memo keeps keys this long at most).
const maxCleanKey = 256

// cleanKey appends to b the key of memberCache.clean for the string s
// under key: key's length, key, s. ok is false when it is too long.
func cleanKey(b []byte, key, s string) ([]byte, bool) {
	if len(key) > 255 || 1+len(key)+len(s) > maxCleanKey {
		return nil, false
	}
	b = append(b, byte(len(key)))
	b = append(b, key...)
	return append(b, s...), true
}

// secretStep is z.secretKey(k) for a key a caller reads by, remembered.
func (c *memberCache) secretStep(z *sanitizer, k string) bool {
	if c == nil || len(k) < secret.MinContainedLen {
		return z.secretKey(k) // a map lookup at most: no cheaper remembered
	}
	if v, ok := c.steps.Get(k); ok {
		return v
	}
	secret := z.secretKey(k)
	c.steps.Put(k, secret)
	return secret
}

const (
	cacheSlots   = 64  // objects remembered (direct-mapped by address)
	cacheMembers = 256 // larger objects are walked as before
)

type cacheSlot struct {
	mu   sync.Mutex
	obj  []byte      // the object remembered (nil for none)
	pos  []memberPos // its members walked so far, in order: a buffer the slot reuses
	next int         // where the walk resumes (past pos's last member)
	done bool        // the walk reached the object's end
}

// memberPos is one member of an indexed object: its key's bytes (inside the
// quotes) and its value, as offsets into the object.
type memberPos struct{ k0, k1, v0, v1 uint32 }

func newMemberCache() *memberCache {
	return &memberCache{steps: mem.NewMemo[bool](512, 128), clean: mem.NewMemo[any](1024, maxCleanKey), seenSeed: maphash.MakeSeed()}
}

// lookup is the package's lookup (the value of key in the validated object
// raw, the first of repeated keys counting). The members it walks past are
// remembered: a later lookup in the same object compares the keys walked
// so far, then walks on from where the last walk stopped.
func (c *memberCache) lookup(raw []byte, key string) ([]byte, bool) {
	if c == nil || len(raw) < 2 || raw[0] != '{' || len(raw) > math.MaxUint32 {
		return jsonscan.Lookup(raw, key)
	}
	p := jsonscan.Addr(raw)
	s := &c.slots[(uint64(p)*0x9E3779B97F4A7C15)>>(64-6)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if !jsonscan.SameSlice(s.obj, raw) {
		s.obj, s.pos, s.next, s.done = raw, s.pos[:0], jsonscan.WS(raw, 1), false
	}
	for _, m := range s.pos {
		if jsonscan.KeyIs(raw[m.k0:m.k1], key) {
			return raw[m.v0:m.v1:m.v1], true
		}
	}
	if s.done {
		return nil, false
	}
	if len(s.pos) == cacheMembers {
		return jsonscan.LookupFrom(raw, s.next, key) // the rest of a large object, walked as before
	}
	i := s.next
	for i < len(raw) && raw[i] == '"' {
		ke := jsonscan.StringEnd(raw, i)
		v := jsonscan.WS(raw, jsonscan.WS(raw, ke)+1) // past the colon
		end, _ := jsonscan.SkipValid(raw, v)
		s.pos = append(s.pos, memberPos{uint32(i + 1), uint32(ke - 1), uint32(v), uint32(end)})
		next := jsonscan.WS(raw, end)
		if next < len(raw) && raw[next] == ',' {
			next = jsonscan.WS(raw, next+1)
		} else {
			next = len(raw)
		}
		s.next = next
		if jsonscan.KeyIs(raw[i+1:ke-1], key) {
			return raw[v:end:end], true
		}
		if len(s.pos) == cacheMembers {
			return jsonscan.LookupFrom(raw, s.next, key)
		}
		i = next
	}
	s.done = true
	return nil, false
}
