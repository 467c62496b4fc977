package jsonscan

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeJSONMatchesEncodingJSON: values decode exactly as encoding/json
// decodes them into an any.
func TestDecodeJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"escapes":             `"a\"b\\c\/d\b\f\n\r\t"`,
		"unicode escapes":     `"\u00e9\u4e2d\ud83d\ude00"`,
		"lone surrogate":      `"x\ud800y"`,
		"invalid UTF-8":       "\"a\xffb\"",
		"escaped key":         `{"a\nb":1,"plain":2}`,
		"numbers":             `[0,-0,1.5,-2e3,1E+2,123456789012345678,0.1,9007199254740993]`,
		"literals and nested": `{"t":true,"f":false,"n":null,"l":[[],{},[{}]]}`,
		"white space 2":       "[1,\t2]",
		"white space":         " \t\r\n[ 1 , { \"a\" : [ ] } ]\n",
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			var want any
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatal(err)
			}
			got, err := Decode([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestSpecials8 checks the eight-bytes-at-a-time string scan against the
// byte table: for every byte value at every position, followed by every
// byte value at every later position, the lowest mark is the first byte
// that is not plain (none when both are).
func TestSpecials8(t *testing.T) {
	t.Parallel()
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			for d := 0; d < 256; d++ {
				for later := pos + 1; later <= 8; later++ {
					b := []byte("abcdefgh")
					b[pos] = byte(c)
					want := 8 // none
					if !plainByte[c] {
						want = pos
					}
					if later < 8 {
						b[later] = byte(d)
						if want == 8 && !plainByte[d] {
							want = later
						}
					}
					got := bits.TrailingZeros64(specials8(binary.LittleEndian.Uint64(b))) >> 3
					if got != want {
						t.Fatalf("%q: first mark at %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}
