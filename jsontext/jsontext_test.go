package jsontext

import (
	"encoding/json"
	"testing"
)

// AppendString writes what json.Marshal writes for a string, escapes and
// invalid UTF-8 included, after what dst holds.
func TestAppendStringIsWhatEncodingJSONWrites(t *testing.T) {
	for _, s := range []string{
		"", "plain text", "héllo wörld ✓ 𝄞 end",
		"a\xffb\xe2\x82c\xf0\x9f\x98", "\x80\x80\x80x",
		"<script>&amp;</script>\u2028\u2029\x00\x1f\x7f\b\f\n\r\t\"\\",
	} {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendString(%q) = %s; want x%s", s, got, want)
		}
	}
}
