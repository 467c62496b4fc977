package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// scriptPlan is a plan whose only change is a boot script: a text the
// comment summarizes with a keyed digest.
func scriptPlan(t *testing.T) []byte {
	t.Helper()
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.9.8",
		"resource_changes": []any{map[string]any{"address": "aws_instance.gpu", "mode": "managed", "type": "aws_instance", "name": "gpu",
			"change": map[string]any{"actions": []string{"update"},
				"before":        map[string]any{"instance_type": "p4d.24xlarge", "user_data": "#!/bin/sh\necho one\n"},
				"after":         map[string]any{"instance_type": "p4d.24xlarge", "user_data": "#!/bin/sh\necho two\nnvidia-smi\n"},
				"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}},
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReviewDigestsAreKeyedByThePullRequest: the App keys the digests of
// the texts it summarizes with review.PRDigestKey of its webhook secret,
// the repository and the pull request: the comment shows the digests that
// key makes, and another pull request shows the same script with others.
func TestReviewDigestsAreKeyedByThePullRequest(t *testing.T) {
	t.Parallel()
	data := scriptPlan(t)
	p, err := planparse.Parse("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want := func(pr int) string {
		w := planparse.NewViewer(review.PRDigestKey([]byte(secret), owner+"/"+repo, pr), nil)
		for _, d := range w.Diff(p.Changes[0]) {
			if d.Text != "" {
				return d.Text
			}
		}
		t.Fatal("the script's change has no summary")
		return ""
	}
	h := newHarness(t)
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", data}, metadata("stack", "dev")), runOpt{})
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 {
		t.Fatalf("%d comments, want 1", len(comments))
	}
	if w7, w8 := want(7), want(8); w7 == w8 || !strings.Contains(comments[0].Body, w7) {
		t.Errorf("the comment does not show the script as %q (pull request 8's key: %q):\n%s", w7, w8, comments[0].Body)
	}
}
