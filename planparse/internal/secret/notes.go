package secret

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
)

// A value found secret by its name or its context (environment.DB_PASS, an
// unmarked password attribute, DB_PASS=... inside a base64 user_data, a
// password in a URL) is hidden wherever else the plan shows it, as a marked
// value is: it joins the plan's secret set before any value is decoded.
//
// Finding them all up front must not cost the decode of every value that
// the lazy reader avoids, so the one-pass reader takes notes as it
// validates the value sections (skipNoting): the byte offsets of members
// whose key names a secret (a cheap hint filter, then Classify, cached per
// key), of objects with a "value" string (a {name, value} pair whose name
// may say secret), and of strings that may hold a secret in context (an
// assignment, a URL with userinfo, a document or script, a base64 blob).
// After the read, only those are decoded and judged (learn), by the same
// rules that hide values on display.

// Notes are the reader's notes on one plan's bytes.
type Notes struct {
	data  []byte
	named mem.Chunks[namedNote]
	pairs []int // offsets of objects with a "value" string (a {name, value} pair?)
	texts []int // start and end offsets of string literals worth a search
	// keys remembers, per slot of a small direct-mapped cache, a key seen
	// last (as offsets into data) and whether it names a secret: the keys
	// of a plan's values are mostly the same few hundred attribute names.
	keys [2048]keySeen
	// texts0 remembers literals mayHide judged (a cache as keys is).
	texts0 [1024]textSeen
}

// NewNotes returns empty notes on the bytes data.
func NewNotes(data []byte) *Notes { return &Notes{data: data} }

// The notes are told of the strings a search may find a secret in: the
// scanner's jsonscan.TextMin is MinScanLen (this constant overflows when
// they differ).
const _ = uint(MinScanLen-jsonscan.TextMin) + uint(jsonscan.TextMin-MinScanLen)

type keySeen struct {
	head   uint64 // the key's first eight bytes (keyHead)
	k0, k1 int    // the key's bytes, data[k0:k1]; k1 == 0 for an empty slot
	secret bool
}

// namedNote is an object member whose key names a secret: the offset of
// its key literal and the offset past its value (learn finds the rest: a
// brownfield plan has a note on most resources).
type namedNote struct{ k0, v1 int }

// Member notes an object member: the object starts at obj, its key literal
// is data[k0:k1], its value data[v0:v1].
func (n *Notes) Member(data []byte, obj, k0, k1 int, escaped bool, v0, v1 int) {
	if c := data[v0]; c != '"' && c != '[' && c != '{' {
		return // a number, true, false or null: nothing to note under any key
	}
	key := data[k0+1 : k1-1]
	head := keyHead(data, k0+1, len(key))
	slot := &n.keys[((head^uint64(len(key))<<56)*0x9E3779B97F4A7C15)>>53]
	var secret bool
	if slot.k1 != 0 && slot.head == head && slot.k1-slot.k0 == len(key) && (len(key) <= 8 || bytes.Equal(data[slot.k0+8:slot.k1], key[8:])) {
		secret = slot.secret
	} else {
		if escaped || nameHints.in(key) {
			name := jsonscan.StringAt(data[k0:k1])
			secret = Classify(name) != 0 || armSecretNames[strings.ToLower(name)]
		}
		*slot = keySeen{head, k0 + 1, k1 - 1, secret}
	}
	if secret {
		n.named.Add(namedNote{k0, v1})
		return
	}
	// {name, value}: learn reads the name (values are fewer than names).
	if len(key) == 5 && string(key) == "value" && data[v0] == '"' {
		n.pairs = append(n.pairs, obj)
	}
}

// keyHead is the first eight bytes (fewer for a shorter key, zero-padded)
// of the key of length l at data[i:], as a number.
func keyHead(data []byte, i, l int) uint64 {
	var w uint64
	if i+8 <= len(data) {
		w = binary.LittleEndian.Uint64(data[i:])
		if l < 8 {
			w &= 1<<(8*uint(l)) - 1
		}
		return w
	}
	for j := 0; j < l && j < 8; j++ {
		w |= uint64(data[i+j]) << (8 * j)
	}
	return w
}

// Text notes the string literal data[i:end] when it may hold a secret that
// only its context gives away.
func (n *Notes) Text(data []byte, i, end int, escaped bool) {
	if n.mayHide(data, i, end, escaped) {
		n.texts = append(n.texts, i, end)
	}
}

// mayHide is mayHideSecret of the literal data[i:end], remembered per
// slot of a small direct-mapped cache: a plan repeats most of its strings
// (a size, a taint, a policy, a region's endpoint) on every resource of a
// kind, in its change and in both state sections, and a comparison costs
// less than a look at each byte's class, or a search of the hint words
// and rule keywords.
func (n *Notes) mayHide(data []byte, i, end int, escaped bool) bool {
	s := data[i+1 : end-1]
	lit := data[i:end]
	h := keyHead(data, i+1, len(s)) ^ uint64(len(s))<<56
	if len(s) > 8 {
		h ^= binary.LittleEndian.Uint64(data[end-9:]) * 0x9E3779B97F4A7C15
	}
	slot := &n.texts0[(h*0x9E3779B97F4A7C15)>>(64-10)]
	if slot.k1 != 0 && slot.k1-slot.k0 == len(lit) && bytes.Equal(data[slot.k0:slot.k1], lit) {
		return slot.hide
	}
	hide := mayHideSecret(s, escaped)
	*slot = textSeen{i, end, hide}
	return hide
}

// textSeen is a literal mayHide judged, data[k0:k1] (k1 == 0 for an
// empty slot).
type textSeen struct {
	k0, k1 int
	hide   bool
}

// hintSet is a set of hint words (lower case, 3 bytes or more) looked for
// in any case: a bitset of their first two letters (lower-cased with |0x20)
// rules most positions out with one load, then the few words are compared.
type hintSet struct {
	pairs [1 << 10]uint64
	words []string
}

func newHintSet(words ...string) *hintSet {
	h := &hintSet{words: words}
	for _, w := range words {
		x := pairOf(w[0], w[1])
		h.pairs[x>>6] |= 1 << (x & 63)
	}
	return h
}

// pairOf is the bitset index of two letters, lower-cased.
func pairOf(a, b byte) uint16 { return uint16(a|0x20)<<8 | uint16(b|0x20) }

// at reports whether b starts with one of the words.
func (h *hintSet) at(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	x := pairOf(b[0], b[1])
	if h.pairs[x>>6]&(1<<(x&63)) == 0 {
		return false
	}
	for _, w := range h.words {
		if pairOf(w[0], w[1]) == x && hasFold(b, w) {
			return true
		}
	}
	return false
}

// in reports whether b holds one of the words.
func (h *hintSet) in(b []byte) bool {
	for i := 0; i+3 <= len(b); i++ {
		if x := pairOf(b[i], b[i+1]); h.pairs[x>>6]&(1<<(x&63)) != 0 && h.at(b[i:]) {
			return true
		}
	}
	return false
}

var (
	// nameHints: every name Classify calls secret holds one of them (the
	// secretHints and the name shapes of classifyName).
	nameHints = newHintSet("pass", "pwd", "secret", "sas", "token", "key", "conn", "config", "cred", "cert", "data", "dsn", "auth")
	// textHints: the detector's rules for text find a secret in context
	// only where one of them is (the keywords of the named-assignment and
	// connection-string rules, and a SAS signature).
	textHints = newHintSet("pass", "pwd", "secret", "sig=", "token", "key", "cred", "auth")
)

// hasFold reports whether b starts with the lower-case word w, in any case.
func hasFold(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if b[j]|0x20 != w[j] {
			return false
		}
	}
	return true
}

// Byte classes for mayHideSecret.
const (
	notB64    = 1 << iota // outside the standard base64 alphabet
	assign                // = : > | , (the detector's rules' assignments)
	atSign                // @
	hintStart             // a letter a text hint starts with
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		if !(b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '+' || b == '/' || b == '=') {
			t[c] |= notB64
		}
		switch b {
		case '=', ':', '>', '|', ',':
			t[c] |= assign
		case '@':
			t[c] |= atSign
		}
		switch b {
		case 'p', 's', 't', 'k', 'c', 'a', 'P', 'S', 'T', 'K', 'C', 'A':
			t[c] |= hintStart
		}
	}
	return t
}()

// mayHideSecret reports whether a string (its literal's inside, escaped
// when escaped) may hold a secret that its context gives away: a text hint
// with an assignment (=, :, >, ||, =>, a comma) or in a document or script (escaped: quotes
// or line breaks), a URL with userinfo, or a standard base64 blob of text.
func mayHideSecret(s []byte, escaped bool) bool {
	all := classOf(s)
	if quick, hide := mayHideQuick(s, all, escaped); quick {
		return hide
	}
	// A text hint, or a credential format a rule finds only by its
	// context (sonar.login=, SONAR_TOKEN=): any keyword of the detector's
	// rules.
	return all&hintStart != 0 && textHints.in(s) || hasRuleKeyword(s)
}

// classOf is the union of the byte classes of s.
func classOf(s []byte) uint8 {
	var all uint8
	for _, c := range s {
		all |= byteClass[c]
	}
	return all
}

// mayHideQuick is mayHideSecret where s's byte classes (all) judge it
// (quick), without a search of its words.
func mayHideQuick(s []byte, all uint8, escaped bool) (quick, hide bool) {
	switch {
	case all&atSign != 0 && bytes.Contains(s, []byte("://")):
		return true, true
	case all&notB64 == 0 || escaped && wrappedBase64(s):
		// A blob of text: its first byte is below 0x80, so its first
		// base64 digit is below 32 (A-Z, a-f; gzip starts H4sI).
		return true, len(s) >= 24 && (s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'f')
	case !escaped && all&assign == 0:
		// The rules that find a credential by its context find it after
		// an assignment: =, >, :, :=, ||, => or a comma.
		return true, false
	}
	return false, false
}

// wrappedBase64 reports whether an escaped literal's inside is base64
// broken into lines (\n or \r\n escapes, as base64 -w76 writes it).
func wrappedBase64(s []byte) bool {
	breaks := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') {
			i++
			breaks++
			continue
		}
		if byteClass[s[i]]&notB64 != 0 {
			return false
		}
	}
	return breaks > 0
}

// learn judges what the notes point at and adds what is secret to s.
func (n *Notes) Learn(s *Set) {
	if n == nil {
		return
	}
	data := n.data
	n.named.Each(func(m *namedNote) {
		k1 := jsonscan.StringEnd(data, m.k0)
		lit := data[m.k0:k1]
		v := data[jsonscan.WS(data, jsonscan.WS(data, k1)+1):m.v1] // past the colon
		if _, known := s.m[string(v[1:max(1, len(v)-1)])]; known && v[0] == '"' {
			return // marked: already in (a literal without escapes reads as itself)
		}
		s.LearnNamed(jsonscan.StringAt(lit), v)
	})
	for _, o := range n.pairs {
		nameRaw, _ := jsonscan.Lookup(data[o:], "name") // lookup stops at the object's end
		if len(nameRaw) == 0 || nameRaw[0] != '"' || !nameHints.in(nameRaw) {
			continue
		}
		valueRaw, _ := jsonscan.Lookup(data[o:], "value")
		if v := jsonscan.StringView(valueRaw); NameSays(jsonscan.StringAt(nameRaw), v) {
			s.Learn(v)
		}
	}
	searched := map[string]struct{}{}
	for i := 0; i < len(n.texts); i += 2 {
		lit := data[n.texts[i]:n.texts[i+1]]
		// Views of the plan, which outlives learn: a 64 MB text is
		// neither copied as a key nor unquoted into a copy (the detector
		// copies what it keeps, and s.add what it learns).
		if _, done := searched[jsonscan.View(lit)]; done {
			continue
		}
		searched[jsonscan.View(lit)] = struct{}{}
		s.Find(jsonscan.StringView(lit), "", s.Learn)
	}
}

// learnNamed adds what a value under a secret-hinting name holds that the
// name hides: a string, the strings of a list (elements take the list's
// name), and of an object the value a variable, an output or a
// configuration expression gives it ("value", "default", "constant_value",
// "before", "after"). Other members of an object are judged by their own
// names (the reader noted those it should).
func (s *Set) LearnNamed(name string, raw []byte) {
	if len(raw) == 0 {
		return
	}
	switch raw[0] {
	case '"':
		v := jsonscan.StringView(raw) // a view of the plan: s.Learn copies what it keeps
		if Classify(name)&NameSecret != 0 || armSecretNames[strings.ToLower(name)] || NameSays(name, v) {
			s.Learn(v)
		}
	case '[':
		for _, e := range jsonscan.Elements(raw) {
			s.LearnNamed(name, e)
		}
	case '{':
		for _, k := range []string{"value", "default", "constant_value", "before", "after"} {
			if v, ok := jsonscan.Lookup(raw, k); ok && len(v) > 0 && v[0] != '{' {
				s.LearnNamed(name, v)
			}
		}
	}
}

// Learn adds a value found secret by its name or context when it is
// Learnable.
func (s *Set) Learn(v string) {
	if Learnable(v) {
		s.Add(v)
	}
}

// Learnable reports whether a value found secret by its name or context
// is hidden everywhere else too: not when it is too short or too common,
// under MinLen, a word or words without a digit or a sign (Required,
// Bearer, ml-runner: a setting, hidden where it was found but not looked
// for elsewhere), a placeholder, a reference or a plain URL.
func Learnable(v string) bool {
	return len(v) >= MinLen && !onlyWords(v) && !isPlainURL(v) && !isPlaceholderValue(v)
}

// onlyWords reports whether v holds only letters, spaces, dots, dashes and
// underscores.
func onlyWords(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == ' ' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// appendNotes appends o's notes to n's, as if n had taken them itself.
func (n *Notes) Append(o *Notes) {
	n.named.AddAll(&o.named)
	n.pairs = append(n.pairs, o.pairs...)
	n.texts = append(n.texts, o.texts...)
}
