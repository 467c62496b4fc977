package secret

import (
	"strings"
	"testing"
)

// The secret set's length and first-byte filter never rules a secret out:
// every secret added is found, whatever its length (past 255 bytes too)
// and first byte (above 0x7f too), and strings it rules out are not in it.
func TestSecretFilterNeverHidesASecret(t *testing.T) {
	t.Parallel()
	s := NewSet()
	secrets := []string{"hunter2-hunter2", "\xc3\xa9t\xc3\xa9-passw0rd", "0123456789", strings.Repeat("k", 255), strings.Repeat("z", 256), strings.Repeat("Q", 1000), "~tilde-secret-63"}
	for _, x := range secrets {
		s.Add(x)
	}
	for _, x := range secrets {
		if !s.mayHold(x) || !s.Has(x) || !s.Contains(x) {
			t.Errorf("secret %.20q: mayHold %v has %v contains %v; want all true", x, s.mayHold(x), s.Has(x), s.Contains(x))
		}
	}
	for _, x := range []string{"hunter2-hunter3", strings.Repeat("z", 257), strings.Repeat("Q", 999)} {
		if s.Has(x) {
			t.Errorf("%.20q is not a secret of the set", x)
		}
	}
	// Ruled out by length or by first byte alone, or by the middle and
	// last bytes (sig).
	for _, x := range []string{"a-string-of-21-bytes!", "Xunter2-hunter2", "punter2-hunter2", "hunter2-hunter9", "hunter2Xhunter2"} {
		if s.mayHold(x) {
			t.Errorf("%q: mayHold, though no secret has its length, first, middle and last bytes", x)
		}
	}
}
