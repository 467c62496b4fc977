package rules

import "testing"

// A finding's digest binds an override to the content it was given for:
// the blob SHAs of the files a provenance finding is about are part of
// it, so the same sentence about another content is another finding.
func TestFindingDigestBindsContent(t *testing.T) {
	t.Parallel()
	base := Finding{Rule: RulePlanWorkflowChanged, Severity: SeverityBlock, Address: ".github/workflows/plan.yml",
		Message: "this pull request changes the plan workflow .github/workflows/plan.yml"}
	with := func(shas ...string) Finding { f := base; f.BlobSHAs = shas; return f }
	tests := map[string]struct {
		a, b Finding
		same bool
	}{
		"the same content":                             {with("aaa"), with("aaa"), true},
		"another content of the same file":             {with("aaa"), with("bbb"), false},
		"one more file changed":                        {with("aaa"), with("aaa", "ccc"), false},
		"no SHAs and an empty list are one digest":     {base, with(), true},
		"a finding with SHAs differs from one without": {base, with("aaa"), false},
		"the SHA cannot pose as part of the message":   {with("aaa"), func() Finding { f := base; f.Message += "aaa"; return f }(), false},
	}
	for name, tc := range tests {
		if got := FindingDigest(tc.a) == FindingDigest(tc.b); got != tc.same {
			t.Errorf("%s: digests equal = %v, want %v", name, got, tc.same)
		}
	}
	// An override names the digest: Conclude applies it to the content
	// it was given for only.
	cfg := DefaultConfig()
	o := Override{Rule: RulePlanWorkflowChanged, Address: base.Address, By: "alice", Digest: FindingDigest(with("aaa"))}
	if r := cfg.Conclude([]Finding{with("aaa")}, []Override{o}); r.Verdict != VerdictWarn {
		t.Errorf("the override of the content it was given for: verdict %s, want warn", r.Verdict)
	}
	if r := cfg.Conclude([]Finding{with("bbb")}, []Override{o}); r.Verdict != VerdictFail {
		t.Errorf("the override given for another content: verdict %s, want fail", r.Verdict)
	}
}
