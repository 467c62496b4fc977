package review_test

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// The change digests are a record kept between versions (the check run's,
// read back by a later planwarden's verify): a faster way of making them
// must make the same ones. The figures were made by the first
// hmac-sha256-v2 code (texts by fingerprint), which decoded both sides of
// every change whole.
func TestChangeDigestsStayTheSame(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		plan []byte
		want string
	}{
		"large":    {plantest.Large(300), "2b35d9b39aad081fac812a60295f4098"},
		"clusters": {plantest.Clusters(300), "1b21b63a74419673a3ef6f692a55217d"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := planparse.Parse(name+".json", tc.plan)
			if err != nil {
				t.Fatal(err)
			}
			r := review.Build([]review.Input{{Name: name, Plan: p}}, review.Options{Digests: true})
			if got := r.Projects[0].ChangeSetDigest; got != tc.want {
				t.Errorf("change-set digest %s, want %s (DigestScheme %s)", got, tc.want, review.DigestScheme)
			}
		})
	}
}
