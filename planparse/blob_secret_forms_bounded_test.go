package planparse

import (
	"encoding/hex"
	"strings"
	"testing"
)

// A secret the size of a blob (a 1 MiB user_data under a secret name) is
// known as itself, not in five more forms: its cost is one copy. The
// honest twin: a secret of ordinary length is still known lowered,
// raised and in hex.
func TestABlobSizedSecretIsKnownWithoutItsForms(t *testing.T) {
	blob := strings.Repeat("IyEvYmluL2Jhc2gKZWNobyB0cmFpbgo=", 1<<20/32)
	s := newSecretSet()
	got := allocated(func() { s.add(blob) })
	if got > 2<<20 {
		t.Errorf("adding a 1 MiB secret allocated %d KiB; want one copy (1 MiB), not its forms", got>>10)
	}
	if !s.contains(blob) {
		t.Errorf("the blob-sized secret is not known as itself")
	}

	const key = "Zt8qLmV0xR4nW7cB1pK9sD3hJ6"
	s.add(key)
	for _, form := range []string{key, strings.ToLower(key), strings.ToUpper(key), hex.EncodeToString([]byte(key))} {
		if !s.contains("prefix-" + form) {
			t.Errorf("a value holding %q is not known to hold the secret", form)
		}
	}
}
