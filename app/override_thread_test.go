package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appjob "github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/comment"
)

// /override replies are threads like the other commands' replies: each
// carries its thread's marker, a newer answer hides the older replies, and
// the review an override asks for hides them all (the review comment shows the overrides), and a
// retried job does not answer twice.
func TestOverrideRepliesAreThreads(t *testing.T) {
	t.Parallel()
	h := typoPR(t)
	list := h.command("mallory", "/override")
	refused := h.command("mallory", "/override gpu-sku-loss -- trust me")
	granted := h.command("alice", "/override gpu-sku-loss -- moving the training jobs to the CPU pool on purpose")
	replies := h.replies()
	if len(replies) != 3 {
		t.Fatalf("%d replies with a thread marker, want 3 (list, refusal, override)", len(replies))
	}
	for i, want := range []struct {
		id  int64
		cmd string
	}{{list, "override-info"}, {refused, "refused"}, {granted, "override"}} {
		m, _ := comment.ParseReplyMarker(replies[i].Body)
		if m.Thread != fmt.Sprintf("pw-7-%d", want.id) || m.Command != want.cmd {
			t.Errorf("reply %d: thread %q cmd %q; want pw-7-%d, %s", i, m.Thread, m.Command, want.id, want.cmd)
		}
	}
	if !strings.Contains(replies[1].Body, "🚫 `/override`: `mallory` may not override") {
		t.Errorf("the refusal reads %q", replies[1].Body)
	}
	for i, r := range replies {
		if !r.Minimized {
			t.Errorf("reply %d is shown after the review it asked for; want every finished thread's reply hidden", i)
		}
	}

	// The override's job again (a retry): no second reply, the review
	// stays as it is.
	before := len(h.gh.Comments(owner, repo, 7))
	j := appjob.Job{DeliveryID: "retry", Event: "issue_comment", InstallationID: instID, Owner: owner, Repo: repo, PR: 7, ReceivedAt: time.Now(),
		IssueComment: &appjob.IssueComment{CommentID: granted, Body: "/override gpu-sku-loss -- moving the training jobs to the CPU pool on purpose", Sender: "alice"}}
	if err := h.app.Process(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	if n := len(h.gh.Comments(owner, repo, 7)); n != before {
		t.Errorf("%d comments after the retried /override, want still %d", n, before)
	}
	if c := h.planwardenCheck(sha1); c.Conclusion != "failure" || !strings.Contains(h.review().Body, "**Overridden** by `alice`") {
		t.Errorf("after the retry: check %s, review shows the override: %v", c.Conclusion, strings.Contains(h.review().Body, "**Overridden** by `alice`"))
	}
}
