package planparse

import (
	"encoding/json"
	"sort"
	"strconv"
)

// SensitiveText is what a redacted value reads as everywhere outside this package.
const SensitiveText = "(sensitive)"

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
type Value struct{ v any }

// Get walks a path of map keys (string) and list indexes (int) and returns
// the value there; a missing step gives the null Value.
func (v Value) Get(path ...any) Value {
	cur := v.v
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return Value{}
			}
			cur = m[s]
		case int:
			l, ok := cur.([]any)
			if !ok || s < 0 || s >= len(l) {
				return Value{}
			}
			cur = l[s]
		default:
			return Value{}
		}
	}
	return Value{cur}
}

// IsNull reports whether the value is absent or JSON null.
func (v Value) IsNull() bool { return v.v == nil }

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
	switch x := v.v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return 0
}

// IsList and IsMap report the value's shape.
func (v Value) IsList() bool { _, ok := v.v.([]any); return ok }

// IsMap reports whether the value is an object or map.
func (v Value) IsMap() bool { _, ok := v.v.(map[string]any); return ok }

// Keys returns a map's keys in sorted order.
func (v Value) Keys() []string {
	m, ok := v.v.(map[string]any)
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
	l, ok := v.v.([]any)
	if !ok {
		return nil
	}
	out := make([]Value, len(l))
	for i, e := range l {
		out[i] = Value{e}
	}
	return out
}

// StringMap returns a map of string values (tags, labels); non-string
// entries read as their display text, sensitive ones as SensitiveText.
func (v Value) StringMap() map[string]string {
	m, ok := v.v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		out[k] = Value{e}.Display()
	}
	return out
}

// Interface returns the sanitized value as plain Go data (for CEL and
// JSON): sensitive leaves become SensitiveText, unknown leaves UnknownText,
// numbers float64.
func (v Value) Interface() any { return plain(v.v) }

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
	switch t := v.v.(type) {
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
	b, err := json.Marshal(plain(v.v))
	if err != nil {
		return "(unprintable)"
	}
	return string(b)
}

// Equal reports whether two sanitized values are the same. Two sensitive
// values are equal when the hidden values were.
func (v Value) Equal(o Value) bool { return equal(v.v, o.v) }

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
