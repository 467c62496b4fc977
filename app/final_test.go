package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/job"
)

// runJob is the workflow_run job of a finished plan run, run by hand so a
// test sees what one attempt leaves behind.
func runJob(runID int64, pr int, sha string) job.Job {
	return job.Job{DeliveryID: "by-hand", Event: "workflow_run", InstallationID: instID, Owner: owner, Repo: repo, PR: pr, HeadSHA: sha,
		ReceivedAt: time.Now(), WorkflowRun: &job.WorkflowRun{RunID: runID}}
}

// A GitHub failure that may pass (a 5xx, GitHub unreachable) at any stage
// of a review makes the job fail so the queue runs it again; the check
// stays in progress meanwhile, never a failure that asks a person to
// press Re-run, and the next attempt concludes it from the plan.
func TestATransientFailureAtAnyStageIsRetriedNotAFailedCheck(t *testing.T) {
	t.Parallel()
	// Each fault outlasts the HTTP client's own retry (MaxRetries 1: two
	// tries of a read; a comment's POST is checked and made again once).
	tests := map[string]githubtest.Fault{
		"list artifacts":    {Method: "GET", Path: "/runs/601/artifacts", Status: http.StatusServiceUnavailable},
		"download":          {Method: "GET", Path: "/zip", Status: http.StatusBadGateway},
		"create comment":    {Method: "POST", Path: "/issues/7/comments", Status: http.StatusServiceUnavailable},
		"complete check":    {Method: "PATCH", Path: "/check-runs/", Status: http.StatusInternalServerError},
		"read the config":   {Method: "GET", Path: "/contents/", Status: http.StatusBadGateway},
		"list the PR files": {Method: "GET", Path: "/pulls/7/files", Status: http.StatusServiceUnavailable},
	}
	for name, fault := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(c *app.Config) { c.Retry.MaxRetries = 1 })
			h.openPR(7, sha1)
			h.wait()
			h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 601, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
				HeadSHA: sha1, Conclusion: "success", PRs: []int{7}})
			h.gh.AddArtifact(owner, repo, 601, "planwarden-stack", zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")}))
			fault.Times = 2
			h.gh.Fail(fault)

			err := h.app.Process(context.Background(), runJob(601, 7, sha1))
			if err == nil {
				t.Fatalf("the attempt that met GitHub's %d returned no error: the queue would not run it again", fault.Status)
			}
			if c := h.planwardenCheck(sha1); c.Status == "completed" {
				t.Fatalf("after the failed attempt the check is %s %q (%s); want it still in progress, for the retry", c.Conclusion, c.Title, c.Summary)
			}
			if err := h.app.Process(context.Background(), runJob(601, 7, sha1)); err != nil {
				t.Fatalf("the retry: %v", err)
			}
			if c := h.planwardenCheck(sha1); c.Status != "completed" || c.Conclusion != "success" {
				t.Errorf("after the retry the check is %s/%s %q; want completed as success from the plan", c.Status, c.Conclusion, c.Title)
			}
			if n := len(h.gh.Comments(owner, repo, 7)); n != 1 {
				t.Errorf("%d comments after the retry, want the one review comment", n)
			}
		})
	}
}

// What trying again cannot change ends the job at once: the check
// concludes as a failure saying what happened, and the job is done (not
// retried, so not given up later with other words).
func TestAFinalFailureConcludesTheCheckWithItsMessage(t *testing.T) {
	t.Parallel()
	forbidden := `{"message":"Resource not accessible by integration"}`
	tests := map[string]struct {
		fault     githubtest.Fault
		zip       []byte
		title     string
		summary   []string
		noComment bool
	}{
		"GitHub refuses the download": {fault: githubtest.Fault{Method: "GET", Path: "/zip", Times: 1, Status: http.StatusForbidden, Body: forbidden},
			title: "GitHub refused a request", summary: []string{"HTTP 403", "permissions", "press Re-run"}, noComment: true},
		"the run's artifacts are gone": {fault: githubtest.Fault{Method: "GET", Path: "/runs/601/artifacts", Times: 1, Status: http.StatusNotFound},
			title: "GitHub refused a request", summary: []string{"HTTP 404"}, noComment: true},
		"GitHub refuses the comment": {fault: githubtest.Fault{Method: "POST", Path: "/issues/7/comments", Times: 1, Status: http.StatusUnprocessableEntity},
			title: "GitHub refused a request", summary: []string{"HTTP 422"}, noComment: true},
		"GitHub refuses the check's conclusion once": {fault: githubtest.Fault{Method: "PATCH", Path: "/check-runs/", Times: 1, Status: http.StatusUnprocessableEntity},
			title: "GitHub refused a request", summary: []string{"HTTP 422"}},
		"the artifact is no zip": {zip: []byte("PK but not really"),
			title: "Plan artifact refused", summary: []string{"planwarden-stack is not a readable zip"}, noComment: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.openPR(7, sha1)
			h.wait()
			h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: 601, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
				HeadSHA: sha1, Conclusion: "success", PRs: []int{7}})
			zipData := tc.zip
			if zipData == nil {
				zipData = zipOf(t, entry{"plan.json", examplePlan(t, "bucket-lifecycle.json")})
			}
			h.gh.AddArtifact(owner, repo, 601, "planwarden-stack", zipData)
			if tc.fault.Status != 0 {
				h.gh.Fail(tc.fault)
			}
			if err := h.app.Process(context.Background(), runJob(601, 7, sha1)); err != nil {
				t.Fatalf("Process: %v; want nil: a final failure is not tried again", err)
			}
			c := h.planwardenCheck(sha1)
			if c.Status != "completed" || c.Conclusion != "failure" || c.Title != tc.title {
				t.Fatalf("check %s/%s %q; want completed as failure titled %q", c.Status, c.Conclusion, c.Title, tc.title)
			}
			for _, want := range tc.summary {
				if !strings.Contains(c.Summary, want) {
					t.Errorf("summary %q lacks %q", c.Summary, want)
				}
			}
			if strings.Contains(c.Summary, "127.0.0.1") || strings.Contains(c.Summary, "Resource not accessible") {
				t.Errorf("the summary quotes GitHub's answer or a URL: %q", c.Summary)
			}
			if n := len(h.gh.Comments(owner, repo, 7)); tc.noComment && n != 0 {
				t.Errorf("%d comments; want none (no review was made)", n)
			}
		})
	}
}
