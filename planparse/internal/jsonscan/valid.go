package jsonscan

import (
	"bytes"
	"encoding/binary"
)

// SkipValid returns the offset just past the JSON value at data[i] (after
// white space) in bytes Parse has validated, with the error-free shape of
// Skip: it only looks for the value's end (a string's closing quote,
// a container's closing bracket, a literal's delimiter) and checks nothing
// else, so the lazy Value, which walks the same bytes again at every step,
// skips a member several times faster than a validating skip.
func SkipValid(data []byte, i int) (int, error) {
	i = WS(data, i)
	if i >= len(data) {
		return i, nil
	}
	switch data[i] {
	case '"':
		return StringEnd(data, i), nil
	case '{', '[':
		depth := 0
		for i < len(data) {
			// Eight bytes at a time past those that are no quote or bracket.
			for i+8 <= len(data) && !structural8(binary.LittleEndian.Uint64(data[i:])) {
				i += 8
			}
			if i >= len(data) {
				break
			}
			switch data[i] {
			case '"':
				i = StringEnd(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return i, nil
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, nil
		}
		i++
	}
	return i, nil
}

// structural8 reports whether any of eight bytes (little endian) may be a
// quote or a bracket: with bit 5 set, '[' and ']' read as '{' and '}'.
func structural8(x uint64) bool {
	y := x | ones*0x20
	open := y ^ (ones * '{')
	closing := y ^ (ones * '}')
	quote := x ^ (ones * '"')
	return ((open-ones)&^open|(closing-ones)&^closing|(quote-ones)&^quote)&highs != 0
}

// StringEnd returns the offset past the valid string that starts at
// data[i] (its opening quote).
func StringEnd(data []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		n := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// Member returns the value of an object's member as a slice of raw, or
// nil when raw is not an object or has no such member (or it is null).
// raw has been validated by Parse.
func Member(raw []byte, key string) []byte {
	var out []byte
	i := WS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	_, _ = EachMember(raw, i, 0, func(k []byte, _ bool, v int) (int, error) {
		end, err := SkipValid(raw, v)
		if err == nil && string(k) == key {
			if !IsNull(raw, v) {
				out = raw[v:end:end]
			}
			return end, errStop // the first of repeated keys counts (see Lookup)
		}
		return end, err
	})
	return out
}

// StringAt decodes a string literal, or gives "" for anything else.
func StringAt(lit []byte) string {
	if len(lit) < 2 || lit[0] != '"' {
		return ""
	}
	_, slow, err := String(lit, 0)
	if err != nil {
		return ""
	}
	return Unquote(lit[1:len(lit)-1], slow)
}

// Lookup returns the value of key in the object raw (null included). When
// an object repeats a key the first one counts, here and in every decode
// of planparse (Decode), so what a rule reads is what a reviewer sees.
// raw has been validated (Parse): the walk only finds where keys and
// values end, as SkipValid does.
func Lookup(raw []byte, key string) ([]byte, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	return LookupFrom(raw, WS(raw, 1), key)
}

// LookupFrom is Lookup walking the object's members from the one at i.
func LookupFrom(raw []byte, i int, key string) ([]byte, bool) {
	for i < len(raw) && raw[i] == '"' {
		ke := StringEnd(raw, i)
		v := WS(raw, WS(raw, ke)+1) // past the colon
		end, _ := SkipValid(raw, v)
		if KeyIs(raw[i+1:ke-1], key) {
			return raw[v:end:end], true
		}
		i = WS(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i = WS(raw, i+1)
	}
	return nil, false
}

// Nth returns element i of the array raw (validated, as for Lookup).
func Nth(raw []byte, i int) ([]byte, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	j := WS(raw, 1)
	for k := 0; j < len(raw) && raw[j] != ']'; k++ {
		end, _ := SkipValid(raw, j)
		if k == i {
			return raw[j:end:end], true
		}
		j = WS(raw, end)
		if j >= len(raw) || raw[j] != ',' {
			break
		}
		j = WS(raw, j+1)
	}
	return nil, false
}

// Elements lists the element slices of the array raw (nil otherwise).
func Elements(raw []byte) [][]byte { return ElementsInto(nil, raw) }

// ElementsInto is elements appending to out (a caller's buffer).
func ElementsInto(out [][]byte, raw []byte) [][]byte {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	_, _ = EachElement(raw, 0, 0, func(i int) (int, error) {
		end, err := SkipValid(raw, i)
		out = append(out, raw[i:end:end])
		return end, err
	})
	return out
}

// KeyIs reports whether the key bytes k (inside the quotes, escaped as in
// the plan) read as key. An escape makes a key longer than its text.
func KeyIs(k []byte, key string) bool {
	return len(k) == len(key) && string(k) == key && bytes.IndexByte(k, '\\') < 0 ||
		len(k) > len(key) && bytes.IndexByte(k, '\\') >= 0 && Unquote(k, true) == key
}

func IsNull(data []byte, v int) bool {
	return v+4 <= len(data) && string(data[v:v+4]) == "null"
}

// StringView is stringAt returning a view of lit when it has no escapes.
func StringView(lit []byte) string {
	if len(lit) < 2 || lit[0] != '"' {
		return ""
	}
	if _, slow, err := String(lit, 0); err == nil && !slow {
		return View(lit[1 : len(lit)-1])
	}
	return StringAt(lit)
}

// errStop ends a walk early.
var errStop = &SyntaxError{Msg: "stop"}
