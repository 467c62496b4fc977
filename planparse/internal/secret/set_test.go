package secret

import (
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestSecretForms: the forms made in one allocation are those of the
// strings and url packages.
func TestSecretForms(t *testing.T) {
	t.Parallel()
	for _, x := range []string{"Sup3r-Secret-42", "db-pass-1234", "A b/c?d=e&f", "ÄÖü-secret-9", "x"} {
		want := [6]string{x, strings.ToLower(x), strings.ToUpper(x), url.QueryEscape(x), url.PathEscape(x), hex.EncodeToString([]byte(x))}
		if got := secretForms(x); got != want {
			t.Errorf("%q: forms %q, want %q", x, got, want)
		}
	}
}

// TestSecretIndexSharedPrefixes: long secrets that share their first
// MinContainedLen bytes are each found inside a longer string, through the
// index's prefix map and its overflow.
func TestSecretIndexSharedPrefixes(t *testing.T) {
	t.Parallel()
	s := NewSet()
	var secrets []string
	for i := 0; i < linearLimit+5; i++ {
		x := fmt.Sprintf("samepfx-%d-tail", i)
		secrets = append(secrets, x)
		s.Add(x)
	}
	for _, x := range secrets {
		if !s.Contains("[" + x + "]") {
			t.Errorf("contains misses %q inside a longer string", x)
		}
	}
	if s.Contains("[samepfx-99-tail]") {
		t.Error("contains finds a secret the set does not hold")
	}
	if got := Redact("a "+secrets[3]+" b "+secrets[len(secrets)-1], s); strings.Contains(got, "samepfx") {
		t.Errorf("Redact left a secret: %q", got)
	}
}

// BenchmarkLongSecrets indexes 20,000 long secrets (the brownfield mix
// marks as many) and asks once whether a string holds one.
func BenchmarkLongSecrets(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s := NewSet()
		for i := range 20000 {
			s.put(fmt.Sprintf("db-pass-%06d-x", i))
		}
		b.StartTimer()
		if !s.Holds("prefix db-pass-012345-x suffix") {
			b.Fatal("secret not found")
		}
	}
}
