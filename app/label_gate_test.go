package app_test

import (
	"strings"
	"testing"
)

// Who added an override label is GitHub's record (the PR's issue events),
// not a webhook the App may have missed: these are the ways a PR's author
// could otherwise turn the check green with a label.

const acceptLabel = "planwarden/accept-gpu-change"

// relabel has by take the override label off and put it on again, then
// reviewer press Re-run; it returns the check's conclusion.
func (h *harness) relabel(by, reviewer string) string {
	h.t.Helper()
	h.gh.Unlabel(owner, repo, 7, by, acceptLabel)
	h.gh.Label(owner, repo, 7, by, acceptLabel)
	h.rerunBy(reviewer, sha1)
	return h.planwardenCheck(sha1).Conclusion
}

func TestALabelWhoseAdderGitHubDoesNotShowDoesNotCount(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	// The label is on the PR, but no event says who put it there.
	h.gh.SetLabels(owner, repo, 7, acceptLabel)
	h.rerunBy("reviewer0", sha1)
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q with a label of unknown adder, want failure", c.Conclusion)
	}
	body := h.review().Body
	if strings.Contains(body, "**Overridden**") {
		t.Errorf("a label of unknown adder overrode a finding:\n%s", body)
	}
	if !strings.Contains(body, "does not count: GitHub's events of this pull request do not show who added it. Remove it and add it again.") {
		t.Errorf("the review should say why the label does not count:\n%s", body)
	}
}

func TestTheAuthorsOwnLabelDoesNotCountWhenItsWebhookWasMissed(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	// The author labels their own PR; the App never sees the delivery
	// (lost, or the App was down). A later re-run must still know.
	h.gh.Label(owner, repo, 7, "octocat", acceptLabel)
	h.rerunBy("reviewer1", sha1)
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q after the author's own label, want failure", c.Conclusion)
	}
	if body := h.review().Body; strings.Contains(body, "**Overridden**") {
		t.Errorf("the author's own label overrode a finding:\n%s", body)
	}

	// Someone else takes it off and puts it on again: now it counts.
	if got := h.relabel("carol", "reviewer2"); got != "success" {
		t.Errorf("check %q after carol labelled, want success", got)
	}
	if body := h.review().Body; strings.Count(body, "(added by carol)") != 2 {
		t.Errorf("both findings should be overridden by carol's label:\n%s", body)
	}
}

func TestOnABusyPRTheNewestLabelEventsDecide(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	// carol labels first; then more than ten pages of other label events
	// push her event out of the pages planwarden reads.
	h.gh.Label(owner, repo, 7, "carol", acceptLabel)
	for range 520 {
		h.gh.Label(owner, repo, 7, "ci-bot", "noise")
		h.gh.Unlabel(owner, repo, 7, "ci-bot", "noise")
	}
	h.rerunBy("reviewer3", sha1)
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" {
		t.Errorf("check %q when the label's event is beyond the pages read, want failure", c.Conclusion)
	}
	if body := h.review().Body; !strings.Contains(body, `"planwarden/accept-gpu-change" does not count`) {
		t.Errorf("the review should say the label does not count:\n%s", body)
	}

	// The author removes it and adds it again at the end: the newest
	// pages show the author, so it still does not count.
	if got := h.relabel("octocat", "reviewer4"); got != "failure" {
		t.Errorf("check %q after the author re-labelled, want failure", got)
	}
	if body := h.review().Body; strings.Contains(body, "**Overridden**") || strings.Contains(body, "does not count") {
		t.Errorf("the author's label is known and refused, with no unknown-adder note:\n%s", body)
	}

	// carol re-labels: the newest pages show her.
	if got := h.relabel("carol", "reviewer5"); got != "success" {
		t.Errorf("check %q after carol re-labelled, want success", got)
	}
}
