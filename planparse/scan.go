package planparse

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply a plan's JSON may nest (objects and arrays). A
// real plan stays far below it; a deeper document is refused with an
// *Error instead of costing memory and time in every walk that follows.
const MaxDepth = 256

// The scanner reads JSON straight from the input bytes in one pass. It
// validates as it goes (RFC 8259, as encoding/json does), never builds what
// nobody reads, and reports every problem with the byte offset where it
// was found, which Parse turns into a line and column.

// scanError is a syntax problem at a byte offset of the input.
type scanError struct {
	off int
	msg string
}

func (e *scanError) Error() string { return e.msg }

// kindError is a well-formed value of the wrong kind for its field
// ("resource_changes" holding an object).
type kindError struct {
	off         int
	field       string
	got, wanted string
}

func (e *kindError) Error() string {
	return fmt.Sprintf("field %q holds %s where a plan has %s", e.field, e.got, e.wanted)
}

func errAt(data []byte, off int, context string) error {
	if off >= len(data) {
		return &scanError{off: len(data), msg: "unexpected end of JSON input"}
	}
	return &scanError{off: off, msg: fmt.Sprintf("invalid character %s %s", quoteChar(data[off]), context)}
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < 0x20 || c >= 0x7f:
		return strconv.Quote(string(rune(c)))
	}
	return "'" + string(c) + "'"
}

func errDepth(off int) error {
	return &scanError{off: off, msg: fmt.Sprintf("JSON nested deeper than %d levels (objects and arrays); no Terraform plan nests that deep", MaxDepth)}
}

// ws returns the offset of the first non-space byte at or after i.
func ws(data []byte, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i // the common case: no white space
	}
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// kindAt names the kind of value starting at data[i], for kind errors.
func kindAt(data []byte, i int) string {
	if i >= len(data) {
		return "nothing"
	}
	switch data[i] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// skipValue validates the value starting at i (after white space) and
// returns the offset just past it. depth is the nesting of its container.
func skipValue(data []byte, i, depth int) (int, error) { return skipNoting(data, i, depth, nil) }

// skipNoting is skipValue telling n, when not nil, of every object member
// and string it passes (secretnotes.go), for the plan-wide secret set.
func skipNoting(data []byte, i, depth int, n *secretNotes) (int, error) {
	i = ws(data, i)
	if i >= len(data) {
		return i, errAt(data, i, "")
	}
	switch c := data[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, errDepth(i)
		}
		obj := i
		i = ws(data, i+1)
		if i < len(data) && data[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(data) || data[i] != '"' {
				return i, errAt(data, i, "looking for beginning of object key string")
			}
			end, slow, err := scanString(data, i)
			if err != nil {
				return end, err
			}
			key := i
			i = ws(data, end)
			if i >= len(data) || data[i] != ':' {
				return i, errAt(data, i, "after object key")
			}
			v := ws(data, i+1)
			if i, err = skipNoting(data, v, depth+1, n); err != nil {
				return i, err
			}
			if n != nil {
				n.member(data, obj, key, end, slow, v, i)
			}
			i = ws(data, i)
			if i < len(data) && data[i] == ',' {
				i = ws(data, i+1)
				continue
			}
			if i < len(data) && data[i] == '}' {
				return i + 1, nil
			}
			return i, errAt(data, i, "after object key:value pair")
		}
	case c == '[':
		if depth >= MaxDepth {
			return i, errDepth(i)
		}
		i = ws(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = skipNoting(data, i, depth+1, n); err != nil {
				return i, err
			}
			i = ws(data, i)
			if i < len(data) && data[i] == ',' {
				i++
				continue
			}
			if i < len(data) && data[i] == ']' {
				return i + 1, nil
			}
			return i, errAt(data, i, "after array element")
		}
	case c == '"':
		end, slow, err := scanString(data, i)
		if n != nil && err == nil && end-i-2 >= minScanLen {
			n.text(data, i, end, slow)
		}
		return end, err
	case c == 't':
		return literal(data, i, "true")
	case c == 'f':
		return literal(data, i, "false")
	case c == 'n':
		return literal(data, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(data, i)
	}
	return i, errAt(data, i, "looking for beginning of value")
}

func literal(data []byte, i int, word string) (int, error) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(data) || data[i+k] != word[k] {
			return i + k, errAt(data, i+k, "in literal "+word+" (expecting "+quoteChar(word[k])+")")
		}
	}
	return i + len(word), nil
}

// scanNumber validates a JSON number at i and returns the offset past it.
func scanNumber(data []byte, i int) (int, error) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return i, errAt(data, i, "in numeric literal")
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return i, errAt(data, i, "after decimal point in numeric literal")
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return i, errAt(data, i, "in exponent of numeric literal")
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// scanString validates the string starting at data[i] (a quote) and
// returns the offset past its closing quote and whether it needs
// unquoting (escapes or bytes that are not valid UTF-8).
func scanString(data []byte, i int) (int, bool, error) {
	slow := false
	i++
	for i < len(data) {
		// Eight plain bytes at a time, straight to the first byte that
		// needs a look (specials8's lowest mark), then, within eight
		// bytes of the end, one at a time.
		for i+8 <= len(data) {
			if m := specials8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(data) && plainByte[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			return i + 1, slow, nil
		case c == '\\':
			slow = true
			if i+1 >= len(data) {
				return len(data), slow, errAt(data, len(data), "")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(data) || !isHex(data[i+k]) {
						return i + k, slow, errAt(data, i+k, "in \\u hexadecimal character escape")
					}
				}
				i += 6
			default:
				return i + 1, slow, errAt(data, i+1, "in string escape code")
			}
		case c < 0x20:
			return i, slow, errAt(data, i, "in string literal")
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				slow = true
			}
			i += size
		}
	}
	return i, slow, errAt(data, i, "")
}

// plainByte marks the bytes a string holds as they are: not a quote, a
// backslash, a control character or part of a multi-byte sequence.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const ones, highs = 0x0101010101010101, 0x8080808080808080

// specials8 marks with its high bit the bytes of eight (little endian)
// that are not plain (below 0x20, a quote, a backslash, or 0x80 and
// above): 0 when all are plain, else its lowest mark is the first byte
// that is not (a mark above it may be false, from a borrow).
func specials8(x uint64) uint64 {
	below := (x - ones*0x20) &^ x
	quote := x ^ (ones * '"')
	slash := x ^ (ones * '\\')
	return (below | (quote-ones)&^quote | (slash-ones)&^slash | x) & highs
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// unquote decodes the inside of a validated string literal as
// encoding/json does: escapes resolved, invalid UTF-8 and lone surrogates
// as U+FFFD.
func unquote(s []byte, slow bool) string {
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

// eachMember calls f for every member of the object at data[i] with the
// key's bytes (still escaped only when the key has escapes, which no
// field planparse reads has) and the value's start; f returns the offset
// past the value, usually from skipValue or a reader. eachMember returns
// the offset past the object.
func eachMember(data []byte, i, depth int, f func(key []byte, escaped bool, v int) (int, error)) (int, error) {
	return eachNoted(data, i, depth, nil, f)
}

// eachNoted is eachMember telling n (when not nil) of every member of the
// object, after f has walked its value, as skipNoting does.
func eachNoted(data []byte, obj, depth int, n *secretNotes, f func(key []byte, escaped bool, v int) (int, error)) (int, error) {
	i := ws(data, obj)
	if i >= len(data) || data[i] != '{' {
		return i, errAt(data, i, "looking for beginning of object")
	}
	if depth >= MaxDepth {
		return i, errDepth(i)
	}
	obj = i
	i = ws(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return i, errAt(data, i, "looking for beginning of object key string")
		}
		end, slow, err := scanString(data, i)
		if err != nil {
			return end, err
		}
		k0 := i
		i = ws(data, end)
		if i >= len(data) || data[i] != ':' {
			return i, errAt(data, i, "after object key")
		}
		v := ws(data, i+1)
		if i, err = f(data[k0+1:end-1], slow, v); err != nil {
			return i, err
		}
		if n != nil {
			n.member(data, obj, k0, end, slow, v, i)
		}
		i = ws(data, i)
		if i < len(data) && data[i] == ',' {
			i = ws(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return i + 1, nil
		}
		return i, errAt(data, i, "after object key:value pair")
	}
}

// eachElement calls f for the start of every element of the array at
// data[i]; f returns the offset past the element.
func eachElement(data []byte, i, depth int, f func(v int) (int, error)) (int, error) {
	i = ws(data, i)
	if i >= len(data) || data[i] != '[' {
		return i, errAt(data, i, "looking for beginning of array")
	}
	if depth >= MaxDepth {
		return i, errDepth(i)
	}
	i = ws(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = f(ws(data, i)); err != nil {
			return i, err
		}
		i = ws(data, i)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		return i, errAt(data, i, "after array element")
	}
}

// decodeJSON decodes one JSON document the way encoding/json decodes into
// an `any` (objects as map[string]any, arrays as []any, numbers as
// float64), refusing nesting deeper than MaxDepth and anything after the
// value. Unlike encoding/json, the first of repeated keys counts, as in
// Value.Get, and strings (keys and values) without escapes are views of raw
// (see view), not copies.
func decodeJSON(raw []byte) (any, error) {
	v, end, err := decodeAt(raw, ws(raw, 0), 0)
	if err != nil {
		return nil, err
	}
	if end = ws(raw, end); end < len(raw) {
		return nil, errAt(raw, end, "after top-level value")
	}
	return v, nil
}

func decodeAt(data []byte, i, depth int) (any, int, error) {
	if i >= len(data) {
		return nil, i, errAt(data, i, "")
	}
	switch c := data[i]; {
	case c == '{':
		m := map[string]any{}
		end, err := eachMember(data, i, depth, func(key []byte, escaped bool, v int) (int, error) {
			x, end, err := decodeAt(data, v, depth+1)
			if err != nil {
				return end, err
			}
			// The first of repeated keys counts (see lookup).
			k := view(key)
			if escaped {
				k = unquote(key, true)
			}
			if _, dup := m[k]; !dup {
				m[k] = x
			}
			return end, nil
		})
		return m, end, err
	case c == '[':
		l := []any{}
		end, err := eachElement(data, i, depth, func(v int) (int, error) {
			x, end, err := decodeAt(data, v, depth+1)
			l = append(l, x)
			return end, err
		})
		return l, end, err
	case c == '"':
		end, slow, err := scanString(data, i)
		if err != nil {
			return nil, end, err
		}
		if !slow {
			return view(data[i+1 : end-1]), end, nil
		}
		return unquote(data[i+1:end-1], true), end, nil
	case c == 't':
		end, err := literal(data, i, "true")
		return true, end, err
	case c == 'f':
		end, err := literal(data, i, "false")
		return false, end, err
	case c == 'n':
		end, err := literal(data, i, "null")
		return nil, end, err
	case c == '-' || c >= '0' && c <= '9':
		end, err := scanNumber(data, i)
		if err != nil {
			return nil, end, err
		}
		f, err := parseNumber(data[i:end])
		if err != nil {
			return nil, end, &scanError{off: i, msg: fmt.Sprintf("number %s does not fit a 64-bit float", data[i:end])}
		}
		return f, end, nil
	}
	return nil, i, errAt(data, i, "looking for beginning of value")
}

// parseNumber converts a validated JSON number; short integers, the
// common case, skip strconv.
func parseNumber(b []byte) (float64, error) {
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
