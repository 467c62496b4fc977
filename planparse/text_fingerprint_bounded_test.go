package planparse

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// A long text shown in a review (a 64 MB description) is fingerprinted,
// and in redact mode digested line by line, without a copy of it: each
// was a []byte conversion of the whole text, three times in a review. The
// honest twin: the fingerprint is the keyed SHA-256 of the text's bytes,
// as before.
func TestALongTextIsFingerprintedWithoutACopy(t *testing.T) {
	text := strings.Repeat("gpu-node-pool-a100-", 16<<20/19)
	var fp string
	if n := allocated(func() { fp = textFingerprint(text) }); n > 64<<10 {
		t.Errorf("fingerprinting a 16 MiB text allocated %d KiB; want at most 64 KiB", n>>10)
	}
	m := hmac.New(sha256.New, textFingerprintKey)
	m.Write([]byte(text))
	if want := hex.EncodeToString(m.Sum(nil))[:fingerprintHex]; fp != want {
		t.Errorf("fingerprint %s; want %s, the keyed SHA-256 of the text", fp, want)
	}
	z := sanitizer{redactKey: []byte("k")}
	var ph string
	if n := allocated(func() { ph = z.textPlaceholder(text) }); n > 64<<10 {
		t.Errorf("the redact-mode placeholder of a 16 MiB text allocated %d KiB; want at most 64 KiB", n>>10)
	}
	if !strings.Contains(ph, fp) {
		t.Errorf("the placeholder %q does not carry the text's fingerprint %s", ph, fp)
	}
}
