package jsonscan

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes the inside of a validated string literal as
// encoding/json does: escapes resolved, invalid UTF-8 and lone surrogates
// as U+FFFD.
func Unquote(s []byte, slow bool) string {
	if !slow {
		return string(s)
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			switch s[i+1] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						b = utf8.AppendRune(b, dec)
					} else {
						b = utf8.AppendRune(b, utf8.RuneError)
					}
					continue
				}
				b = utf8.AppendRune(b, r)
				continue
			default: // " \ /
				b = append(b, s[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// EachMember calls f for every member of the object at data[i] with the
// key's bytes (still escaped only when the key has escapes, which no
// field planparse reads has) and the value's start; f returns the offset
// past the value, usually from Skip or a reader. EachMember returns
// the offset past the object.
func EachMember(data []byte, i, depth int, f func(key []byte, escaped bool, v int) (int, error)) (int, error) {
	return EachMemberNoting(data, i, depth, nil, f)
}

// EachMemberNoting is EachMember telling n (when not nil) of every member of the
// object, after f has walked its value, as skipNoting does.
func EachMemberNoting(data []byte, obj, depth int, n Noter, f func(key []byte, escaped bool, v int) (int, error)) (int, error) {
	i := WS(data, obj)
	if i >= len(data) || data[i] != '{' {
		return i, ErrAt(data, i, "looking for beginning of object")
	}
	if depth >= MaxDepth {
		return i, errDepth(i)
	}
	obj = i
	i = WS(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return i, ErrAt(data, i, "looking for beginning of object key string")
		}
		end, slow, err := String(data, i)
		if err != nil {
			return end, err
		}
		k0 := i
		i = WS(data, end)
		if i >= len(data) || data[i] != ':' {
			return i, ErrAt(data, i, "after object key")
		}
		v := WS(data, i+1)
		if i, err = f(data[k0+1:end-1], slow, v); err != nil {
			return i, err
		}
		if n != nil {
			n.Member(data, obj, k0, end, slow, v, i)
		}
		i = WS(data, i)
		if i < len(data) && data[i] == ',' {
			i = WS(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return i + 1, nil
		}
		return i, ErrAt(data, i, "after object key:value pair")
	}
}

// EachElement calls f for the start of every element of the array at
// data[i]; f returns the offset past the element.
func EachElement(data []byte, i, depth int, f func(v int) (int, error)) (int, error) {
	i = WS(data, i)
	if i >= len(data) || data[i] != '[' {
		return i, ErrAt(data, i, "looking for beginning of array")
	}
	if depth >= MaxDepth {
		return i, errDepth(i)
	}
	i = WS(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = f(WS(data, i)); err != nil {
			return i, err
		}
		i = WS(data, i)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		return i, ErrAt(data, i, "after array element")
	}
}

// Decode decodes one JSON document the way encoding/json decodes into
// an `any` (objects as map[string]any, arrays as []any, numbers as
// float64), refusing nesting deeper than MaxDepth and anything after the
// value. Unlike encoding/json, the first of repeated keys counts, as in
// Value.Get, and strings (keys and values) without escapes are views of raw
// (see View), not copies.
func Decode(raw []byte) (any, error) {
	v, end, err := decodeAt(raw, WS(raw, 0), 0)
	if err != nil {
		return nil, err
	}
	if end = WS(raw, end); end < len(raw) {
		return nil, ErrAt(raw, end, "after top-level value")
	}
	return v, nil
}

func decodeAt(data []byte, i, depth int) (any, int, error) {
	if i >= len(data) {
		return nil, i, ErrAt(data, i, "")
	}
	switch c := data[i]; {
	case c == '{':
		m := map[string]any{}
		end, err := EachMember(data, i, depth, func(key []byte, escaped bool, v int) (int, error) {
			x, end, err := decodeAt(data, v, depth+1)
			if err != nil {
				return end, err
			}
			// The first of repeated keys counts (see Lookup).
			k := View(key)
			if escaped {
				k = Unquote(key, true)
			}
			if _, dup := m[k]; !dup {
				m[k] = x
			}
			return end, nil
		})
		return m, end, err
	case c == '[':
		l := []any{}
		end, err := EachElement(data, i, depth, func(v int) (int, error) {
			x, end, err := decodeAt(data, v, depth+1)
			l = append(l, x)
			return end, err
		})
		return l, end, err
	case c == '"':
		end, slow, err := String(data, i)
		if err != nil {
			return nil, end, err
		}
		if !slow {
			return View(data[i+1 : end-1]), end, nil
		}
		return Unquote(data[i+1:end-1], true), end, nil
	case c == 't':
		end, err := Literal(data, i, "true")
		return true, end, err
	case c == 'f':
		end, err := Literal(data, i, "false")
		return false, end, err
	case c == 'n':
		end, err := Literal(data, i, "null")
		return nil, end, err
	case c == '-' || c >= '0' && c <= '9':
		end, err := Number(data, i)
		if err != nil {
			return nil, end, err
		}
		f, err := ParseNumber(data[i:end])
		if err != nil {
			return nil, end, &SyntaxError{Off: i, Msg: fmt.Sprintf("number %s does not fit a 64-bit float", data[i:end])}
		}
		return f, end, nil
	}
	return nil, i, ErrAt(data, i, "looking for beginning of value")
}

// ParseNumber converts a validated JSON number; short integers, the
// common case, skip strconv.
func ParseNumber(b []byte) (float64, error) {
	if len(b) <= 15 {
		neg, digits := false, b
		if digits[0] == '-' {
			neg, digits = true, digits[1:]
		}
		n, ok := int64(0), true
		for _, c := range digits {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if ok {
			if neg {
				if n == 0 {
					return math.Copysign(0, -1), nil
				}
				n = -n
			}
			return float64(n), nil
		}
	}
	return strconv.ParseFloat(string(b), 64)
}
