package comment

import (
	"testing"

	"github.com/planwarden/planwarden/record"
)

func TestOverrideSaysWhichCommitItWasGivenOn(t *testing.T) {
	t.Parallel()
	grants := []record.Grant{{Digest: "d1", HeadSHA: "1111111111111111111111111111111111111111"}, {Digest: "d2", HeadSHA: "3333333333333333333333333333333333333333"}}
	if got := GivenOn("on purpose", "d1", "1111111111111111111111111111111111111111", grants); got != "on purpose (given on 1111111)" {
		t.Errorf("on its own head: reason %q", got)
	}
	if got := GivenOn("on purpose", "d1", "2222222222222222222222222222222222222222", grants); got != "on purpose (given on 1111111, before the latest push: check that it still applies)" {
		t.Errorf("after a push: reason %q", got)
	}
}
