package planparse

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// SensitiveText is what a redacted value reads as everywhere outside this package.
const SensitiveText = secret.Sensitive

// UnknownText is what a value that Terraform will only know after apply reads as.
const UnknownText = "(known after apply)"

// sensitive and unknown are the markers that replace redacted and
// known-after-apply leaves inside a sanitized value tree.
// sensitive carries a keyed digest of the hidden value so that two
// redacted values can be compared (did the secret change?) without the value.
type sensitive struct{ sum uint64 }
type unknown struct{}

// Value is a sanitized attribute value from a plan. Its tree holds only
// nil, bool, float64 (or json.Number), string, []any and map[string]any, plus markers for
// values that are sensitive (never readable) or unknown until apply.
// The zero Value is null.
//
// A Value read from a plan is a view of the plan's bytes: Get walks the
// JSON without building it, applying the plan's sensitivity and unknown
// marks and the secret checks at every step exactly as a full decode
// would, and only the methods that need a whole list or map (Keys,
// StringMap, Display, Interface, Equal, Len of a map) decode that part.
type Value struct {
	v any
	n *lazy // set for an object or array still in the plan's bytes
}

// tree returns the value as a sanitized tree, decoding a lazy value.
func (v Value) tree() any {
	if v.n == nil {
		return v.v
	}
	n := v.n
	return n.z.sanitize(decodeOrNil(n.raw), decodeOrNil(n.sens()), decodeOrNil(n.unk()), n.key)
}

// Fields sets out[i] to v.Get(keys[i]) for each key (out is at least as
// long as keys). A caller reading several attributes of one object reads
// them in one walk of its bytes; a key the object repeats counts once
// (the first), as for Get. keys must be distinct.
func (v Value) Fields(keys []string, out []Value) {
	n := v.n
	if n == nil || n.raw[0] != '{' || len(keys) > maxFields {
		for i, k := range keys {
			out[i] = v.Get(k)
		}
		return
	}
	var raws [maxFields][]byte
	var found [maxFields]bool
	left := len(keys)
	raw := n.raw
	for i := jsonscan.WS(raw, 1); left > 0 && i < len(raw) && raw[i] == '"'; {
		ke := jsonscan.StringEnd(raw, i)
		val := jsonscan.WS(raw, jsonscan.WS(raw, ke)+1) // past the colon
		end, _ := jsonscan.SkipValid(raw, val)
		k := jsonscan.View(raw[i+1 : ke-1])
		if strings.IndexByte(k, '\\') >= 0 {
			k = jsonscan.Unquote(raw[i+1:ke-1], true) // an escaped key reads as its text
		}
		for j, key := range keys {
			if !found[j] && k == key {
				raws[j], found[j] = raw[val:end:end], true
				left--
				break
			}
		}
		i = jsonscan.WS(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i = jsonscan.WS(raw, i+1)
	}
	// The objects and arrays found stay lazy: their nodes are one
	// allocation (a node hidden by its name leaves its place unused).
	nodes := 0
	for j := range keys {
		if found[j] && len(raws[j]) > 0 && (raws[j][0] == '{' || raws[j][0] == '[') {
			nodes++
		}
	}
	var heap []lazy
	if nodes > 0 {
		heap = make([]lazy, nodes)
	}
	var into lazy
	for j, key := range keys {
		if !found[j] && n.marks == nil && !secret.IsRedacted(key) {
			out[j] = Value{} // absent, and no unknown mark adds it: whether the key is secret does not matter
			continue
		}
		if n.z.members.secretStep(n.z, key) {
			out[j] = Value{} // sanitize renames a secret key: it is not there by name
			continue
		}
		x, isLazy := n.member(key, raws[j], found[j], &into)
		if isLazy {
			if len(heap) == 0 {
				heap = make([]lazy, 1) // a renamed secret key's object (renamed)
			}
			heap[0] = into
			x = Value{n: &heap[0]}
			heap = heap[1:]
		}
		out[j] = x
	}
}

// errStop ends a walk early.
var errStop = &jsonscan.SyntaxError{Msg: "stop"}

// Get walks a path of map keys (string) and list indexes (int) and returns
// the value there; a missing step gives the null Value.
func (v Value) Get(path ...any) Value {
	if v.n == nil || len(path) == 0 {
		if len(path) == 0 {
			return v
		}
		return Value{v: eagerGet(v.v, path)}
	}
	cur := *v.n
	for i, step := range path {
		next, ok := cur.child(step, &cur)
		if !ok {
			if i == len(path)-1 {
				return next
			}
			return Value{v: eagerGet(next.v, path[i+1:])}
		}
	}
	n := cur
	return Value{n: &n}
}

func eagerGet(cur any, path []any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[s]
		case int:
			l, ok := cur.([]any)
			if !ok || s < 0 || s >= len(l) {
				return nil
			}
			cur = l[s]
		default:
			return nil
		}
	}
	return cur
}

// Lookup is Get(key) of a map, and whether the map has an entry named
// key as Keys lists it (one whose value is JSON null counts; a secret key,
// renamed, does not), found without decoding the map.
func (v Value) Lookup(key string) (Value, bool) {
	x := v.Get(key)
	n := v.n
	if n == nil || n.raw[0] != '{' || secret.IsRedacted(key) {
		m, ok := v.tree().(map[string]any) // a renamed key is found by its text in the decoded map
		if !ok {
			return x, false
		}
		_, has := m[key]
		return x, has
	}
	if !x.IsNull() {
		return x, true
	}
	// Absent, JSON null, or a secret key (sanitize renames it).
	if n.z.members.secretStep(n.z, key) {
		return x, false
	}
	_, found := n.z.members.lookup(n.raw, key)
	return x, found
}

// IsNull reports whether the value is absent or JSON null.
func (v Value) IsNull() bool { return v.n == nil && v.v == nil }

// IsSensitive reports whether the value was redacted.
func (v Value) IsSensitive() bool { _, ok := v.v.(sensitive); return ok }

// IsUnknown reports whether the value is known only after apply.
func (v Value) IsUnknown() bool { _, ok := v.v.(unknown); return ok }

// Str returns a string value. Numbers and bools are not converted.
func (v Value) Str() (string, bool) { s, ok := v.v.(string); return s, ok }

// Float returns a numeric value; a string holding a number counts too,
// since providers and older plans sometimes quote numbers.
func (v Value) Float() (float64, bool) {
	switch n := v.v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(n, 64)
		return f, err == nil
	}
	return 0, false
}

// Int returns a whole-number value (see Float for what counts).
func (v Value) Int() (int64, bool) {
	f, ok := v.Float()
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// Bool returns a boolean value.
func (v Value) Bool() (bool, bool) { b, ok := v.v.(bool); return b, ok }

// Len is the number of elements of a list or keys of a map, else 0.
func (v Value) Len() int {
	if v.n != nil && v.n.raw[0] == '[' {
		var buf [8][]byte
		return len(jsonscan.ElementsInto(buf[:0], v.n.raw))
	}
	switch x := v.tree().(type) {
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return 0
}

// IsList and IsMap report the value's shape.
func (v Value) IsList() bool {
	if v.n != nil {
		return v.n.raw[0] == '['
	}
	_, ok := v.v.([]any)
	return ok
}

// IsMap reports whether the value is an object or map.
func (v Value) IsMap() bool {
	if v.n != nil {
		return v.n.raw[0] == '{'
	}
	_, ok := v.v.(map[string]any)
	return ok
}

// Keys returns a map's keys in sorted order.
func (v Value) Keys() []string {
	m, ok := v.tree().(map[string]any)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// List returns a list's elements.
func (v Value) List() []Value {
	if n := v.n; n != nil {
		if n.raw[0] != '[' {
			return nil
		}
		var buf [8][]byte
		raws := jsonscan.ElementsInto(buf[:0], n.raw)
		sens, unk := jsonscan.Elements(n.sens()), jsonscan.Elements(n.unk())
		out := make([]Value, len(raws))
		var heap []lazy // the elements that stay lazy, one allocation
		for k, e := range raws {
			var into lazy
			x, isLazy := n.z.resolveInto(e, at(sens, k), at(unk, k), n.key, &into)
			if isLazy {
				if len(heap) == 0 {
					heap = make([]lazy, len(raws)-k)
				}
				heap[0] = into
				x = Value{n: &heap[0]}
				heap = heap[1:]
			}
			out[k] = x
		}
		return out
	}
	l, ok := v.v.([]any)
	if !ok {
		return nil
	}
	out := make([]Value, len(l))
	for i, e := range l {
		out[i] = Value{v: e}
	}
	return out
}

// StringMap returns a map of string values (tags, labels); non-string
// entries read as their display text, sensitive ones as SensitiveText.
func (v Value) StringMap() map[string]string {
	m, ok := v.tree().(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		out[k] = Value{v: e}.Display()
	}
	return out
}

// Interface returns the sanitized value as plain Go data (for CEL and
// JSON): sensitive leaves become SensitiveText, unknown leaves UnknownText,
// numbers float64.
func (v Value) Interface() any { return plain(v.tree()) }

func plain(x any) any {
	switch t := x.(type) {
	case sensitive:
		return SensitiveText
	case unknown:
		return UnknownText
	case json.Number:
		f, _ := t.Float64()
		return f
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = plain(e)
		}
		return out
	}
	return x
}

// Display renders a value for a reviewer: strings as they are, null as
// "null", markers as SensitiveText / UnknownText, lists and maps as
// compact JSON with markers in place.
func (v Value) Display() string {
	x := v.tree()
	switch t := x.(type) {
	case nil:
		return "null"
	case string:
		return t
	case json.Number:
		return t.String()
	case float64:
		return formatFloat(t)
	case bool:
		return strconv.FormatBool(t)
	case sensitive:
		return SensitiveText
	case unknown:
		return UnknownText
	}
	b, err := json.Marshal(plain(x))
	if err != nil {
		return "(unprintable)"
	}
	return string(b)
}

// Equal reports whether two sanitized values are the same. Two sensitive
// values are equal when the hidden values were.
func (v Value) Equal(o Value) bool { return equal(v.tree(), o.tree()) }

func equal(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equal(e, f) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	}
	return a == b
}

// formatFloat writes a number as Terraform shows it: integers without a
// decimal point or exponent.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func at(l [][]byte, i int) []byte {
	if i < len(l) {
		return l[i]
	}
	return nil
}
