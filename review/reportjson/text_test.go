package reportjson

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHTMLSafeIsWhatEncodingJSONWritesVerbatim holds htmlSafe, which tests
// eight bytes at a time, to encoding/json: a string is safe exactly when
// json.Marshal writes it unchanged between quotes. Every byte value is
// tried at every position of strings of 1 to 17 bytes, so each lane of
// the word and the tail are covered.
func TestHTMLSafeIsWhatEncodingJSONWritesVerbatim(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 17; n++ {
		for pos := 0; pos < n; pos++ {
			for b := 0; b < 256; b++ {
				s := strings.Repeat("a", pos) + string([]byte{byte(b)}) + strings.Repeat("z", n-pos-1)
				m, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				if want := string(m) == `"`+s+`"`; htmlSafe(s) != want {
					t.Fatalf("htmlSafe(%q) = %v; encoding/json writes it %s", s, !want, m)
				}
			}
		}
	}
}
