// Package jsonscan reads JSON straight from its bytes in one validating
// pass (RFC 8259, as encoding/json does) and walks bytes it has validated
// without checking them again: skips, member and element walks, lookups,
// a decode into the shapes encoding/json gives an any, and a walk back
// from a document's end. Every problem is an error with the byte offset
// where it was found. It knows nothing of plans; planparse reads plans
// with it.
package jsonscan

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
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

// SyntaxError is a syntax problem at a byte offset of the input.
type SyntaxError struct {
	Off int // the byte offset of the problem
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// KindError is a well-formed value of the wrong kind for its field
// ("resource_changes" holding an object).
type KindError struct {
	Off         int    // the value's byte offset
	Field       string // the field holding it ("" for the document)
	Got, Wanted string // the kinds, as "an object"
}

func (e *KindError) Error() string {
	return fmt.Sprintf("field %q holds %s where a plan has %s", e.Field, e.Got, e.Wanted)
}

func ErrAt(data []byte, off int, context string) error {
	if off >= len(data) {
		return &SyntaxError{Off: len(data), Msg: "unexpected end of JSON input"}
	}
	return &SyntaxError{Off: off, Msg: fmt.Sprintf("invalid character %s %s", quoteChar(data[off]), context)}
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
	return &SyntaxError{Off: off, Msg: fmt.Sprintf("JSON nested deeper than %d levels (objects and arrays); no Terraform plan nests that deep", MaxDepth)}
}

// WS returns the offset of the first non-space byte at or after i.
func WS(data []byte, i int) int {
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

// KindAt names the kind of value starting at data[i], for kind errors.
func KindAt(data []byte, i int) string {
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

// Skip validates the value starting at i (after white space) and
// returns the offset just past it. depth is the nesting of its container.
func Skip(data []byte, i, depth int) (int, error) { return SkipNoting(data, i, depth, nil) }

// A Noter is told of the object members and strings a walk passes
// (planparse's secret notes, for the plan-wide secret set).
type Noter interface {
	// Member is an object member: the object starts at obj, its key
	// literal is data[k0:k1] (with escapes when escaped), its value
	// data[v0:v1]; it is told after the value was walked.
	Member(data []byte, obj, k0, k1 int, escaped bool, v0, v1 int)
	// Text is a string literal data[i:end] (with escapes or bytes that
	// are not UTF-8 when escaped) of at least TextMin bytes inside its
	// quotes.
	Text(data []byte, i, end int, escaped bool)
}

// TextMin is the length inside its quotes from which a Noter is told of
// a string: the shortest text a secret search looks at (no credential
// format is shorter; planparse's secret detector checks it uses the same).
const TextMin = 12

// SkipNoting is Skip telling n, when not nil, of every object member and
// string it passes.
func SkipNoting(data []byte, i, depth int, n Noter) (int, error) {
	i = WS(data, i)
	if i >= len(data) {
		return i, ErrAt(data, i, "")
	}
	switch c := data[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, errDepth(i)
		}
		obj := i
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
			key := i
			i = WS(data, end)
			if i >= len(data) || data[i] != ':' {
				return i, ErrAt(data, i, "after object key")
			}
			v := WS(data, i+1)
			if i, err = SkipNoting(data, v, depth+1, n); err != nil {
				return i, err
			}
			if n != nil {
				n.Member(data, obj, key, end, slow, v, i)
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
	case c == '[':
		if depth >= MaxDepth {
			return i, errDepth(i)
		}
		i = WS(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = SkipNoting(data, i, depth+1, n); err != nil {
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
	case c == '"':
		end, slow, err := String(data, i)
		if n != nil && err == nil && end-i-2 >= TextMin {
			n.Text(data, i, end, slow)
		}
		return end, err
	case c == 't':
		return Literal(data, i, "true")
	case c == 'f':
		return Literal(data, i, "false")
	case c == 'n':
		return Literal(data, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return Number(data, i)
	}
	return i, ErrAt(data, i, "looking for beginning of value")
}

func Literal(data []byte, i int, word string) (int, error) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(data) || data[i+k] != word[k] {
			return i + k, ErrAt(data, i+k, "in literal "+word+" (expecting "+quoteChar(word[k])+")")
		}
	}
	return i + len(word), nil
}

// Number validates a JSON number at i and returns the offset past it.
func Number(data []byte, i int) (int, error) {
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
		return i, ErrAt(data, i, "in numeric literal")
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return i, ErrAt(data, i, "after decimal point in numeric literal")
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
			return i, ErrAt(data, i, "in exponent of numeric literal")
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// String validates the string starting at data[i] (a quote) and
// returns the offset past its closing quote and whether it needs
// unquoting (escapes or bytes that are not valid UTF-8).
func String(data []byte, i int) (int, bool, error) {
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
				return len(data), slow, ErrAt(data, len(data), "")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(data) || !isHex(data[i+k]) {
						return i + k, slow, ErrAt(data, i+k, "in \\u hexadecimal character escape")
					}
				}
				i += 6
			default:
				return i + 1, slow, ErrAt(data, i+1, "in string escape code")
			}
		case c < 0x20:
			return i, slow, ErrAt(data, i, "in string literal")
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
	return i, slow, ErrAt(data, i, "")
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
