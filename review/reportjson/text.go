package reportjson

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"

	"github.com/planwarden/planwarden/jsontext"
)

// float writes a finite float64 in encoding/json's (ES6) format:
// exponents only outside [1e-6, 1e21).
func (e *encoder) float(f float64) {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.out, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	e.out = b
}

// str writes s quoted as encoding/json does, HTML characters escaped.
func (e *encoder) str(s string) {
	if e.safeString(s) {
		e.byte('"')
		e.string(s)
		e.byte('"')
		return
	}
	e.out = jsontext.AppendString(e.out, s)
}

// deeper is the indent one level below prefix (indents are spaces only),
// cut from a constant where it fits, so indenting allocates nothing.
func deeper(prefix string) string {
	const spaces = "                                                                "
	if n := len(prefix) + 2; n <= len(spaces) {
		return spaces[:n]
	}
	return prefix + "  "
}

func (e *encoder) byte(c byte)     { e.out = append(e.out, c) }
func (e *encoder) string(s string) { e.out = append(e.out, s...) }

// member starts an object's member: the comma after the one before (none
// before the first), the member's line and its key (already quoted).
func (e *encoder) member(first *bool, prefix, key string) {
	if !*first {
		e.byte(',')
	}
	*first = false
	e.newline(prefix)
	e.string(key)
}

func (e *encoder) newline(prefix string) {
	e.byte('\n')
	e.string(prefix)
}

func (e *encoder) marshal(v reflect.Value, prefix string) error {
	b, err := json.MarshalIndent(v.Interface(), prefix, "  ")
	if err != nil {
		return err
	}
	e.out = append(e.out, b...)
	return nil
}

// htmlSafe reports whether encoding/json writes s as it is: printable
// ASCII without quotes, backslashes or the HTML characters it escapes.
// It tests eight bytes at a time (SWAR: a byte below 0x20, a byte with the
// high bit, or one of the five characters jsontext.SafeByte refuses sets a high bit
// in bad), then the tail byte by byte.
func htmlSafe(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		b := s[i : i+8]
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		// x is w with a zero byte where w has the character.
		quote, backslash := w^('"'*ones), w^('\\'*ones)
		lt, gt, amp := w^('<'*ones), w^('>'*ones), w^('&'*ones)
		bad := w | (w - 0x20*ones) | // non-ASCII, or below 0x20
			(quote-ones)&^quote | (backslash-ones)&^backslash |
			(lt-ones)&^lt | (gt-ones)&^gt | (amp-ones)&^amp
		if bad&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !jsontext.SafeByte[s[i]] {
			return false
		}
	}
	return true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
