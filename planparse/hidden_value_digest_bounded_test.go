package planparse

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"strings"
	"testing"
)

// A hidden value's digest is taken without encoding it whole: hiding a
// 16 MiB string allocates a fixed amount, not its encoding three times
// over (the encoder's buffer, its growth, Marshal's copy). The honest
// twin: the digest is the one of the value's JSON, as before, for the
// hidden string and for strings whose escapes straddle the chunks.
func TestAHiddenValueIsDigestedWithoutItsEncoding(t *testing.T) {
	huge := strings.Repeat("#!/bin/bash\necho <train> & \"eval\"\n", 16<<20/34)
	var got sensitive
	if n := allocated(func() { got = redact(huge) }); n > 1<<20 {
		t.Errorf("hiding a 16 MiB string allocated %d KiB; want at most 1 MiB", n>>10)
	}
	b, _ := json.Marshal(huge)
	if want := (sensitive{sum: maphash.Bytes(seed, b)}); got != want {
		t.Errorf("the digest of the hidden string is not that of its JSON")
	}
	z := sanitizer{redactKey: []byte("k")}
	if got, want := z.hide(huge), z.placeholder(b); got != want {
		t.Errorf("redact mode shows %v for the hidden string; want %v, the digest of its JSON", got, want)
	}

	tricky := []string{
		"héllo wörld ✓ 𝄞 end",
		"𝄞✓ a rune first",
		"a\xffb\xe2\x82c\xf0\x9f\x98", // invalid and cut-short sequences
		"\x80\x80\x80\x80\x80\x80x",   // continuation bytes only
		"<script>&amp;</script>\u2028\u2029\x00\x1f\b\f\n\r\t\"\\",
	}
	for _, s := range tricky {
		want, _ := json.Marshal(s)
		for n := 1; n <= 9; n++ {
			var buf bytes.Buffer
			writeJSONString(&buf, s, n)
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("in chunks of %d, %q encodes as %s; want %s", n, s, buf.Bytes(), want)
			}
		}
	}
}
