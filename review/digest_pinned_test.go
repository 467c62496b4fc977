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
// hmac-sha256-v1 code, which decoded both sides of every change whole.
func TestChangeDigestsStayTheSame(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		plan []byte
		want string
	}{
		"large":    {plantest.Large(300), "b214f4625d9748f15b3eb53ead47cbcf"},
		"clusters": {plantest.Clusters(300), "6cd1b755a2a406445af561cc5b12c59a"},
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
