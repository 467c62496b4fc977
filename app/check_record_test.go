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
// CLI makes of the same plan, and the review's conclusion.
func TestTheCheckRunRecordsWhatWasReviewed(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		plan, conclusion string
	}{
		"a passing review":  {"bucket-lifecycle.json", "success"},
		"a blocking review": {"aks-gpu-typo.json", "failure"},
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
		})
	}
}
