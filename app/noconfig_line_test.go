package app_test

import (
	"strings"
	"testing"
)

// TestTheCommentSaysWhenNoConfigWasFound: a repository without a
// .github/planwarden.yml gets its review under the defaults, and the
// comment and the check say so in one line, with how to add one
// (planwarden init); the same plans in a repository with a config carry no
// such line.
func TestTheCommentSaysWhenNoConfigWasFound(t *testing.T) {
	t.Parallel()
	const line = "No `.github/planwarden.yml` was found"
	for name, tc := range map[string]struct {
		config string
		want   int
	}{
		"without a config": {"", 1},
		"with a config":    {stackConfig("prod"), 0},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tc.config != "" {
				h.config("main", tc.config)
			}
			h.open(7, sha1, "", "infra/main.tf")
			h.run(runSpec{id: 501, sha: sha1, artifacts: []artifact{plan(t, "stack", "sagemaker-rename.json", "")}})
			// A SageMaker endpoint replaced where nobody named the
			// environment blocks as in prod, config or not.
			c := h.wantCheck(sha1, "failure", "a SageMaker endpoint replacement")
			body := h.reviewOf(7)
			for what, text := range map[string]string{"comment": body, "check summary": c.Summary} {
				if n := strings.Count(text, line); n != tc.want {
					t.Errorf("the %s says %q %d times, want %d:\n%s", what, line, n, tc.want, text)
				}
				if tc.want > 0 && !strings.Contains(text, "`planwarden init` writes a config") {
					t.Errorf("the %s does not say how to add a config (planwarden init):\n%s", what, text)
				}
			}
		})
	}
}
