package comment_test

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// A provider's name and versions come from a lock file the pull request
// changes: they are escaped like any text from a plan (no table cell
// split, no mention, no link).
func TestProviderUpgradeNoteIsEscaped(t *testing.T) {
	t.Parallel()
	ups := []review.ProviderUpgrade{{Provider: "x/evil", Name: "a|b@octocat[x](https://e.example)", Before: "1.0", After: "2.0"}}
	c := reviewtest.Change(review.ChangeRow{Address: "aws_instance.gpu", Type: "aws_instance", Action: "replace"})
	c.ProviderUpgrades = ups
	r := &review.Report{Verdict: "pass", Projects: []*review.Project{{Name: "p", Changes: []*review.Change{c}, ProviderUpgrades: ups,
		Summary: review.Summary{Replace: 1}}}}
	md := comment.Render(r, comment.Options{})
	for _, bad := range []string{"a|b", "@octocat", "[x](https"} {
		if strings.Contains(md, bad) {
			t.Errorf("the comment holds %q unescaped", bad)
		}
	}
	if !strings.Contains(md, `a\|b@`) || !strings.Contains(md, "a replacement can come from the upgrade, not from the code") {
		t.Errorf("the upgrade note is missing or not escaped as text:\n%s", md)
	}
}
