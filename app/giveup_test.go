package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/job"
)

func TestGiveUpCompletesTheCheckLeftInProgress(t *testing.T) {
	t.Parallel()
	const sha = "1111111111111111111111111111111111111111"
	tests := map[string]job.Job{
		"a dead review names its head":          {Event: "workflow_run", WorkflowRun: &job.WorkflowRun{RunID: 77}, HeadSHA: sha},
		"a dead command finds the head it knew": {Event: "issue_comment", IssueComment: &job.IssueComment{CommentID: 3, Body: "/plan"}},
	}
	for name, j := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(5, sha)
			if c := h.planwardenCheck(sha); c.Status != "in_progress" {
				t.Fatalf("check after the PR opened: %s; want in_progress", c.Status)
			}
			j.Owner, j.Repo, j.PR, j.InstallationID, j.DeliveryID = owner, repo, 5, instID, "d-dead"
			if err := h.app.GiveUp(context.Background(), j, errors.New("download artifact: 502 Bad Gateway, token ghs_secret")); err != nil {
				t.Fatalf("GiveUp: %v", err)
			}
			c := h.planwardenCheck(sha)
			if c.Status != "completed" || c.Conclusion != "failure" || !strings.Contains(c.Summary, "Press Re-run") {
				t.Errorf("check after GiveUp: %s/%s %q; want completed as failure saying to press Re-run", c.Status, c.Conclusion, c.Summary)
			}
			if strings.Contains(c.Summary+c.Text, "ghs_secret") || strings.Contains(c.Summary+c.Text, "502") {
				t.Errorf("the job's error reached the check: %q", c.Summary+c.Text)
			}
		})
	}
}

func TestGiveUpLeavesACompletedCheckAlone(t *testing.T) {
	t.Parallel()
	const sha = "2222222222222222222222222222222222222222"
	h := newHarness(t)
	h.openPR(6, sha)
	h.planRun("d-run", 81, 6, sha, zipOf(t, entry{"plan.json", examplePlan(t, "a100-scale-out.json")}), runOpt{})
	before := h.planwardenCheck(sha)
	if before.Status != "completed" {
		t.Fatalf("check after the review: %s; want completed", before.Status)
	}
	j := job.Job{Event: "issue_comment", Owner: owner, Repo: repo, PR: 6, InstallationID: instID, DeliveryID: "d-late",
		IssueComment: &job.IssueComment{CommentID: 4, Body: "/plan"}}
	if err := h.app.GiveUp(context.Background(), j, errors.New("reply: 500")); err != nil {
		t.Fatalf("GiveUp: %v", err)
	}
	after := h.planwardenCheck(sha)
	if after.Conclusion != before.Conclusion || after.Updates != before.Updates {
		t.Errorf("GiveUp changed a completed check: %s (%d updates) -> %s (%d updates)", before.Conclusion, before.Updates, after.Conclusion, after.Updates)
	}
}
