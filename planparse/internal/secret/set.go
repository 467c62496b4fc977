package secret

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
)

// A Set holds every value a plan marks sensitive anywhere. Terraform
// does not always mark a value everywhere it appears (terraform_data's
// output echoes a sensitive input unmarked, plan variables hold sensitive
// values in clear), so a leaf equal to a known secret is redacted too.
//
// A Set is filled while a plan is read and only read afterwards; its
// contained-secret index is built on first use and again after an add.
// It holds the secrets, and an index of the long ones by their first
// MinContainedLen bytes, so that asking whether a string holds
// one costs a lookup per position of the string, not a scan per secret (a
// plan marking thousands of values sensitive read in 25 s without it).
type Set struct {
	m map[string]bool // true: the secret's forms are in the set too (add)
	// blobs are the secrets longer than maxFormsLen, by length and digest
	// (secretblob.go): not in m, nor in lens, firsts, sigs or idx.
	blobs blobSecrets
	// lens and firsts have a bit for each length (255 standing for all
	// longer) and each first byte of the secrets in m: most strings a
	// plan's readers check are ruled out without a map lookup.
	lens, firsts [4]uint64
	// sigs has the bit sig(x) set for each secret x (see put): a string whose
	// length and first byte match a secret's (on the brownfield mix, with
	// 20,000 secrets, most do) is mostly ruled out without a map lookup.
	sigs [1 << sigBits / 64]uint64
	mu   sync.Mutex                // serializes building idx
	idx  atomic.Pointer[longIndex] // built on first use and again after an add
	// work is the detector's budget for the plan (work.go).
	work Budget
}

// longIndex is the index of a Set's long secrets, built when it
// held n secrets.
type longIndex struct {
	n    int
	long []string // secrets of MinContainedLen bytes or more, when linearLimit or fewer (else nil)
	// byPrefix and more are the long secrets by their first
	// MinContainedLen bytes, when many: a prefix's first secret in
	// byPrefix, the others (few prefixes have any) in more. A map of
	// lists allocated a list per secret (20,000 on the brownfield mix).
	// Prefixes are keyed by their eight bytes read as one number
	// (prefixWord): a number hashes and compares faster than a string.
	byPrefix map[uint64]string
	more     map[uint64][]string
	// filter has the bit prefixHash(p) set for every prefix p of byPrefix:
	// most positions of a string are ruled out without a map lookup.
	filter *[1 << (prefixBits - 6)]uint64
}

// prefixBits is the size of the prefix filter's hash (64 Kbit, 8 KB).
const prefixBits = 16

// prefixWord is the MinContainedLen (8) bytes of s at i as one number
// (little endian): two prefixes are equal when their words are.
func prefixWord(s string, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// prefixHash hashes a prefixWord.
func prefixHash(w uint64) uint32 { return uint32((w * 0x9E3779B97F4A7C15) >> (64 - prefixBits)) }

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: map[string]bool{}} }

// maxFormsLen is the longest secret whose forms are added: 64 KiB.
const maxFormsLen = 64 << 10

// add records a secret, and the forms a configuration turns it into
// (lower(), upper(), urlencode(), hex) when it is long and more than words:
// a secret lowered into a bucket name or put in a query is the secret.
func (s *Set) Add(x string) {
	if s.m[x] {
		return
	}
	// A copy: x may be a view of prior_state or planned_values, whose
	// pages the CLI gives back after Parse (a map assignment stores the
	// key it is given). secretForms copies x and makes its forms.
	// A secret past maxFormsLen is a blob (a user_data script, a bundle
	// of certificates): its forms would cost five times its size, and
	// nothing turns a blob into its lower case or hex. It is known by its
	// length and digest, not a copy (secretblob.go).
	if len(x) > maxFormsLen {
		s.blobs.add(x)
		return
	}
	if len(x) < MinContainedLen || onlyWords(x) {
		x = strings.Clone(x)
		s.put(x)
		s.m[x] = true
		return
	}
	forms := secretForms(x) // secretforms.go
	s.put(forms[0])
	s.m[forms[0]] = true
	for _, v := range forms[1:] {
		s.put(v)
	}
}

// put adds x, a string of its own (not a view of a plan), to the set.
func (s *Set) put(x string) {
	if _, ok := s.m[x]; ok {
		return
	}
	s.m[x] = false
	l := min(len(x), 255)
	s.lens[l>>6] |= 1 << (l & 63)
	if len(x) > 0 {
		s.firsts[x[0]>>6] |= 1 << (x[0] & 63)
		h := sig(x)
		s.sigs[h>>6] |= 1 << (h & 63)
	}
}

// numberFirsts has the bits of Set.firsts[0] that a number's text
// can start with: '-' and the digits.
const numberFirsts = 1<<'-' | 0x3ff<<'0'

// sigBits is the size of Set.sigs: 2^sigBits bits (8 KB).
const sigBits = 16

// sig is a cheap hash of a non-empty string's length and its first, middle
// and last bytes, below 2^sigBits.
func sig(x string) uint32 {
	k := uint32(len(x)) | uint32(x[0])<<8 | uint32(x[len(x)/2])<<16 | uint32(x[len(x)-1])<<24
	return k * 0x9E3779B1 >> (32 - sigBits)
}

// mayHold reports whether str can be a secret of the set: its length and
// first byte are those of one (false rules it out; true says look).
func (s *Set) mayHold(str string) bool {
	l := min(len(str), 255)
	if len(str) == 0 || s.lens[l>>6]&(1<<(l&63)) == 0 || s.firsts[str[0]>>6]&(1<<(str[0]&63)) == 0 {
		return false
	}
	h := sig(str)
	return s.sigs[h>>6]&(1<<(h&63)) != 0
}

// size is how many secrets the set holds (0 for a nil set).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.m) + len(s.blobs.sums)
}

// linearLimit: up to this many long secrets a plain scan is as fast as the
// index.
const linearLimit = 16

// longSecrets returns the index of the long secrets.
func (s *Set) longSecrets() *longIndex {
	if x := s.idx.Load(); x != nil && x.n == len(s.m) {
		return x
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if x := s.idx.Load(); x != nil && x.n == len(s.m) {
		return x
	}
	x := &longIndex{n: len(s.m)}
	for k := range s.m {
		if len(k) < MinContainedLen {
			continue
		}
		if x.byPrefix == nil {
			if x.long = append(x.long, k); len(x.long) > linearLimit {
				// Many: indexed by prefix (x.long is for a few only).
				x.byPrefix = make(map[uint64]string, len(s.m))
				x.more = map[uint64][]string{}
				x.filter = new([1 << (prefixBits - 6)]uint64)
				for _, k := range x.long {
					x.index(k)
				}
				x.long = nil
			}
			continue
		}
		x.index(k)
	}
	s.idx.Store(x)
	return x
}

// index adds the long secret k to byPrefix (or more) and the filter.
func (x *longIndex) index(k string) {
	p := prefixWord(k, 0)
	if _, ok := x.byPrefix[p]; ok {
		x.more[p] = append(x.more[p], k)
	} else {
		x.byPrefix[p] = k
	}
	h := prefixHash(p)
	x.filter[h/64] |= 1 << (h % 64)
}

// containedIn calls hit for each long secret that str holds (each once per
// position it starts at), until hit returns false. proper limits it to
// secrets shorter than str.
func (s *Set) ContainedIn(str string, proper bool, hit func(string) bool) {
	if s.Len() == 0 || len(str) < MinContainedLen {
		return
	}
	if len(str) > maxFormsLen && !s.blobs.containedIn(str, proper, hit) {
		return
	}
	if len(s.m) == 0 {
		return
	}
	x := s.longSecrets()
	if x.byPrefix == nil {
		for _, k := range x.long {
			if (!proper || len(k) < len(str)) && strings.Contains(str, k) && !hit(k) {
				return
			}
		}
		return
	}
	for i := 0; i+MinContainedLen <= len(str); i++ {
		p := prefixWord(str, i)
		if h := prefixHash(p); x.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		k, ok := x.byPrefix[p]
		if !ok {
			continue
		}
		if (!proper || len(k) < len(str)) && strings.HasPrefix(str[i:], k) && !hit(k) {
			return
		}
		for _, k := range x.more[p] {
			if (!proper || len(k) < len(str)) && strings.HasPrefix(str[i:], k) && !hit(k) {
				return
			}
		}
	}
}

// MinLen keeps short, common values ("true", "1") from being
// redacted everywhere because one of them was marked somewhere.
const MinLen = 4

func (s *Set) Has(x any) bool {
	if s.Len() == 0 {
		return false
	}
	var str string
	switch t := x.(type) {
	case string:
		str = t
	case json.Number:
		str = t.String()
	case float64:
		if s.firsts[0]&numberFirsts == 0 {
			return false // no secret starts as a number's text does
		}
		// formatFloat's text, in a buffer of the stack: a view of it is
		// only looked up, never kept.
		var buf [32]byte
		b := strconv.AppendFloat(buf[:0], t, 'f', -1, 64)
		if len(b) < MinLen || !s.mayHold(jsonscan.View(b)) {
			return false
		}
		_, ok := s.m[string(b)]
		return ok
	default:
		return false
	}
	if len(str) > maxFormsLen && s.blobs.is(str) {
		return true
	}
	if len(str) < MinLen || !s.mayHold(str) {
		return false
	}
	_, ok := s.m[str]
	return ok
}

// collect adds the leaves of raw that sens marks sensitive, reading both
// in place as a decode of each would pair them: the first of repeated keys
// counts, list elements pair by position, a mark of true takes every
// string and number below it, and nothing is added when either holds a
// number beyond float64 (the decode fails).
func (s *Set) Collect(raw, sens []byte) {
	if len(raw) == 0 || !bytes.Contains(sens, []byte("true")) {
		return
	}
	if !numbersFit(raw) || !numbersFit(sens) {
		return
	}
	s.walkRaw(raw, sens)
}

func (s *Set) walkRaw(raw, mark []byte) {
	if string(mark) == "true" {
		s.addAllRaw(raw)
		return
	}
	if len(raw) == 0 || len(mark) == 0 || !bytes.Contains(mark, []byte("true")) {
		return // no mark below
	}
	switch {
	case raw[0] == '{' && mark[0] == '{':
		s.walkMarkedObject(raw, mark) // markwalk.go
	case raw[0] == '[' && mark[0] == '[':
		marks := jsonscan.Elements(mark)
		for i, e := range jsonscan.Elements(raw) {
			if i < len(marks) {
				s.walkRaw(e, marks[i])
			}
		}
	}
}

func (s *Set) addAllRaw(raw []byte) {
	if len(raw) == 0 {
		return
	}
	switch c := raw[0]; {
	case c == '"':
		if str := jsonscan.StringView(raw); len(str) >= MinLen {
			s.Add(str) // add keeps a copy
		}
	case c == '-' || c >= '0' && c <= '9':
		if f, err := jsonscan.ParseNumber(raw); err == nil {
			if str := strconv.FormatFloat(f, 'f', -1, 64); len(str) >= MinLen {
				s.Add(str)
			}
		}
	case c == '{':
		eachKey(raw, func(_ string, v []byte) { s.addAllRaw(v) })
	case c == '[':
		for _, e := range jsonscan.Elements(raw) {
			s.addAllRaw(e)
		}
	}
}

// eachKey calls f with each key of the validated object raw and its value,
// the first of repeated keys only (as a decode keeps it). The key may be a
// view of raw: f must not keep it.
func eachKey(raw []byte, f func(key string, v []byte)) {
	var seen map[string]struct{}
	var buf [16]string // no allocation for the keys of an object of 16 members or fewer
	first := buf[:0]
	_, _ = jsonscan.EachMember(raw, 0, 0, func(kb []byte, escaped bool, v int) (int, error) {
		end, err := jsonscan.SkipValid(raw, v)
		k := jsonscan.View(kb) // f reads a key only during the call
		if escaped {
			k = jsonscan.Unquote(kb, true)
		}
		dup := false
		if seen != nil {
			_, dup = seen[k]
		} else {
			dup = slices.Contains(first, k)
		}
		if !dup {
			if first = append(first, k); len(first) > 16 && seen == nil {
				seen = map[string]struct{}{}
				for _, x := range first {
					seen[x] = struct{}{}
				}
			} else if seen != nil {
				seen[k] = struct{}{}
			}
			f(k, raw[v:end:end])
		}
		return end, err
	})
}

// numbersFit reports whether every number of the validated JSON raw
// decodes to a float64 (decodeJSON refuses the value otherwise).
func numbersFit(raw []byte) bool {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			i = jsonscan.StringEnd(raw, i)
		case c == '-' || c >= '0' && c <= '9':
			end, _ := jsonscan.SkipValid(raw, i)
			if _, err := jsonscan.ParseNumber(raw[i:end]); err != nil {
				return false
			}
			i = end
		default:
			i++
		}
	}
	return true
}

// cleanKeys memoizes the map keys the detector found nothing in (they are
// mostly attribute names, repeated in every value of a plan); bounded like
// nameCache.
var cleanKeys = mem.NewMemo[struct{}](2048, 128)

// holds reports whether str holds a known secret shorter than itself.
func (s *Set) Holds(str string) bool {
	if s.Len() == 0 || len(str) < MinLen {
		return false
	}
	found := false
	s.ContainedIn(str, true, func(string) bool { found = true; return false })
	return found
}

// contains reports whether s is, or holds, a known secret.
func (s *Set) Contains(str string) bool {
	if s.Len() == 0 || len(str) < MinLen {
		return false
	}
	if len(str) > maxFormsLen && s.blobs.is(str) {
		return true
	}
	if s.mayHold(str) {
		if _, ok := s.m[str]; ok {
			return true
		}
	}
	return s.Holds(str)
}

// InKey reports whether the detector finds a secret in a map key or an
// instance key (remembered: a plan's values repeat their keys).
func InKey(k string) bool {
	if len(k) < MinScanLen {
		return false
	}
	if _, clean := cleanKeys.Get(k); clean {
		return false
	}
	if Has(k, "") {
		return true
	}
	cleanKeys.Put(k, struct{}{})
	return false
}
