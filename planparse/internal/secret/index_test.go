package secret

import (
	"fmt"
	"strings"
	"testing"
)

// TestSecretIndexAgreesWithAScan holds the contained-secret index (used
// when a plan marks many values sensitive) to the plain scan it replaces.
func TestSecretIndexAgreesWithAScan(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, linearLimit + 1, 500} {
		s := NewSet()
		var secrets []string
		for i := 0; i < n; i++ {
			x := fmt.Sprintf("s3cr%04dvalue", i) // shares its first 8 bytes with its neighbours
			secrets = append(secrets, x)
			s.Add(x)
		}
		s.Add("shortpw") // shorter than MinContainedLen: only equality counts
		probes := []string{
			"prefix-" + secrets[n-1] + "-suffix", secrets[0] + "x", "x" + secrets[n/2],
			"s3cr9999valuex", "no secret here at all", "xshortpwx", secrets[1],
			strings.Repeat("s3cr0001valu", 3),
		}
		for _, p := range probes {
			want := false
			for _, x := range secrets {
				if len(x) < len(p) && strings.Contains(p, x) {
					want = true
				}
			}
			if p == secrets[1] {
				want = true // equal to a secret
			}
			if got := s.Contains(p); got != want {
				t.Errorf("%d secrets: contains(%q) = %v, want %v", n, p, got, want)
			}
		}
		if got := Redact("id "+secrets[n-1]+" and "+secrets[0], s); strings.Contains(got, secrets[0]) || strings.Contains(got, secrets[n-1]) {
			t.Errorf("%d secrets: Redact left a secret: %q", n, got)
		}
		// A secret added after a lookup is found by the next one.
		s.Contains("warm the index up")
		s.Add("latecomer-secret")
		if !s.Contains("a latecomer-secret b") {
			t.Errorf("%d secrets: a secret added after the index was built is not found", n)
		}
	}
}
