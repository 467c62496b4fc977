package run

import (
	"testing"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

func TestOverrideSaysWhichCommitItWasGivenOn(t *testing.T) {
	t.Parallel()
	o := rules.Override{Rule: "gpu-sku-loss", By: "alice", Reason: "on purpose", Digest: "d1"}
	grants := []record.Grant{{Digest: "d1", HeadSHA: "1111111111111111111111111111111111111111"}, {Digest: "d2", HeadSHA: "3333333333333333333333333333333333333333"}}
	if got := givenOn(o, grants, "1111111111111111111111111111111111111111"); got != "on purpose (given on 1111111)" {
		t.Errorf("on its own head: reason %q", got)
	}
	if got := givenOn(o, grants, "2222222222222222222222222222222222222222"); got != "on purpose (given on 1111111, before the latest push: check that it still applies)" {
		t.Errorf("after a push: reason %q", got)
	}
}
