package app_test

import (
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// The check run the App completes carries the record `planwarden verify`
// reads in the apply job: each project's change-set digest, the one the
// CLI makes of the same plan, and the review's conclusion; verify's
// comparison (review.Verify) lets the same plan through a passing review,
// and nothing through a blocking one.
func TestTheCheckRunRecordsWhatWasReviewed(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		plan, conclusion string
		applies          bool
	}{
		"a passing review":  {"bucket-lifecycle.json", "success", true},
		"a blocking review": {"aks-gpu-typo.json", "failure", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(stackConfig("prod")))
			h.openPR(7, sha1)
			plan := examplePlan(t, tc.plan)
			h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", plan}, metadata("stack", "prod")), runOpt{})
			check := h.planwardenCheck(sha1)
			rec, err := comment.ParseRecord(check.Text)
			if err != nil {
				t.Fatalf("the check run's text holds no record verify can read: %v", err)
			}
			if rec.Conclusion != tc.conclusion || check.Conclusion != tc.conclusion {
				t.Errorf("record says %s, check %s; want %s", rec.Conclusion, check.Conclusion, tc.conclusion)
			}
			p, err := planparse.Parse("plan.json", plan)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := rules.ParseConfig(".github/planwarden.yml", []byte(stackConfig("prod")))
			if err != nil {
				t.Fatal(err)
			}
			want := review.Build([]review.Input{{Name: "stack", Environment: "prod", Plan: p}}, review.Options{Config: cfg, Digests: true}).Projects[0]
			if len(rec.Projects) != 1 || rec.Projects[0].Project != "stack" || rec.Projects[0].Digest != want.ChangeSetDigest {
				t.Errorf("record %+v, want project stack with digest %s", rec.Projects, want.ChangeSetDigest)
			}
			checks := review.Verify(rec.Projects, []*review.Project{want}, review.Tolerance{})
			if len(checks) != 1 || checks[0].OK() != tc.applies || len(checks[0].Differences) != 0 {
				t.Errorf("verify of the reviewed plan: %+v, want OK %v and no difference", checks, tc.applies)
			}
		})
	}
}
