package review_test

import (
	"bytes"
	"testing"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
)

// TestDigestsConcurrently makes a large plan's change digests on two
// goroutines (par.Policy.Min, so that a small plan takes that path)
// and checks that the report is the serial one, digests included. Run it
// with -race.
func TestDigestsConcurrently(t *testing.T) {
	_, clusters := bothMixes(t, 2000)
	build := func(parts int) []byte {
		var b bytes.Buffer
		if err := reportjson.Write(&b, review.Build([]review.Input{{Name: "clusters", Plan: clusters}}, review.Options{Digests: true, Par: par.Policy{Min: parts}})); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	want := build(1 << 30)
	if !bytes.Contains(want, []byte(`"diff_digest": "`)) {
		t.Fatal("the serial report has no diff digests")
	}
	if got := build(1); !bytes.Equal(got, want) {
		t.Errorf("digests made on two goroutines: %d bytes of JSON differ from the serial %d", len(got), len(want))
	}
}
