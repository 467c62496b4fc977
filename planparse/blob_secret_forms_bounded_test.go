package planparse

import (
	"encoding/hex"
	"runtime"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// A secret the size of a blob (a 1 MiB user_data under a secret name) is
// known by its length and digest: adding it holds no copy of it, nor its
// five forms. It is still hidden wherever a copy hid it: as a value, and
// inside a longer one (a script that embeds it, once or many times). The
// honest twins: the same blob with one byte changed is not a secret, and a
// secret of ordinary length is still known lowered, raised and in hex.
func TestABlobSizedSecretIsKnownWithoutItsForms(t *testing.T) {
	blob := strings.Repeat("IyEvYmluL2Jhc2gKZWNobyB0cmFpbgo=", 1<<20/32)
	s := secret.NewSet()
	got := allocated(func() { s.Add(blob) })
	if got > 64<<10 {
		t.Errorf("adding a 1 MiB secret allocated %d KiB; want its digest, not a copy (1 MiB) or its forms", got>>10)
	}
	if !s.Has(blob) || !s.Contains(blob) {
		t.Errorf("the blob-sized secret is not known as itself")
	}
	// A view of a larger buffer, as the plan reader hands out: the set
	// matches by the bytes, not by the string's address.
	echo := "export TOKEN=" + blob + "\nexport AGAIN=" + blob + "\n"
	if !s.Contains(echo) || !s.Holds(echo) {
		t.Errorf("a script holding the blob-sized secret is not known to hold it")
	}
	if got, want := secret.RedactKnown(echo, s), "export TOKEN="+SensitiveText+"\nexport AGAIN="+SensitiveText+"\n"; got != want {
		t.Errorf("secret.RedactKnown left %d bytes of %d; want both copies hidden (%d bytes)", len(got), len(echo), len(want))
	}
	if got := secret.RedactKnown(blob, s); got != SensitiveText {
		t.Errorf("secret.RedactKnown of the blob-sized secret kept %d bytes", len(got))
	}

	other := blob[:len(blob)/2] + "X" + blob[len(blob)/2+1:]
	if s.Has(other) || s.Contains(other) || s.Contains("export TOKEN="+other+"\n") {
		t.Errorf("the blob with one byte changed is taken for the secret")
	}
	if got := secret.RedactKnown("export TOKEN="+other+"\n", s); got != "export TOKEN="+other+"\n" {
		t.Errorf("secret.RedactKnown changed a string that holds no secret")
	}

	const key = "Zt8qLmV0xR4nW7cB1pK9sD3hJ6"
	s.Add(key)
	for _, form := range []string{key, strings.ToLower(key), strings.ToUpper(key), hex.EncodeToString([]byte(key))} {
		if !s.Contains("prefix-" + form) {
			t.Errorf("a value holding %q is not known to hold the secret", form)
		}
	}
	// A secret just under the blob size keeps its forms, whose hex is
	// longer than a blob: it is still known as a value.
	long := strings.Repeat("Zt8qLmV0xR4nW7cB", 48<<10/16)
	s.Add(long)
	if h := hex.EncodeToString([]byte(long)); !s.Has(h) || !s.Contains(h) {
		t.Errorf("the hex form (%d bytes) of a 48 KiB secret is not known", len(h))
	}
}

// A plan that marks a blob-sized value sensitive has it hidden where the
// plan repeats it unmarked, whole or inside a longer value; the same
// blob with one byte changed is not a secret (only hidden as long text).
func TestABlobSizedSecretIsRedactedWhereThePlanRepeatsIt(t *testing.T) {
	blob := strings.Repeat("apt-get install -y cuda-toolkit-12-4 ; ", 200<<10/39)
	other := blob[:1000] + "Q" + blob[1001:]
	plan := `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a","change":{"actions":["create"],"before":null,` +
		`"after":{"user_data":"` + blob + `","copy":"` + blob + `","script":"echo ` + blob + ` done","near":"` + other + `"},` +
		`"after_unknown":{},"after_sensitive":{"user_data":true}}}]}`
	red, err := Redact("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(red), blob); n != 0 {
		t.Errorf("the redacted plan still holds the marked blob %d times", n)
	}
	// Redact hides any long text as a digest (redact_text.go); a secret,
	// whole or held, becomes (sensitive) instead.
	for _, want := range []string{`"copy":"(sensitive) `, `"script":"(sensitive) `, `"near":"(redacted text, 1 line, `} {
		if !strings.Contains(string(red), want) {
			t.Errorf("the redacted plan has no %s: %.400s", want, red)
		}
	}
}

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
