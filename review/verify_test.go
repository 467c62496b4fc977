package review_test

import (
	"slices"
	"testing"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

// reviewedSet is the change set a review of the changes recorded.
func reviewedSet(t *testing.T, verdict rules.Verdict, changes ...reviewtest.PlanChange) review.ChangeSet {
	t.Helper()
	set := buildProject(t, changes...).ChangeSet()
	set.Verdict = verdict
	return set
}

func TestVerifyOfOneProject(t *testing.T) {
	t.Parallel()
	same := []reviewtest.PlanChange{scale(2, 6), bucket("logs", "create")}
	digestOnly := func(s review.ChangeSet) review.ChangeSet { s.Changes = nil; return s }
	noopOld := bucket("old", "no-op")
	noopOld.Before = noopOld.After
	tests := map[string]struct {
		reviewed review.ChangeSet
		planned  []reviewtest.PlanChange
		tol      review.Tolerance
		ok       bool
		failing  int
	}{
		"the reviewed set":                         {reviewedSet(t, rules.VerdictPass, same...), same, review.Tolerance{}, true, 0},
		"the reviewed set, warnings":               {reviewedSet(t, rules.VerdictWarn, same...), same, review.Tolerance{}, true, 0},
		"the reviewed set, a failed review":        {reviewedSet(t, rules.VerdictFail, same...), same, review.Tolerance{}, false, 0},
		"the reviewed set, no verdict":             {reviewedSet(t, "", same...), same, review.Tolerance{}, false, 0},
		"a record of digests only, the same set":   {digestOnly(reviewedSet(t, rules.VerdictPass, same...)), same, review.Tolerance{}, true, 0},
		"a record of digests only, another set":    {digestOnly(reviewedSet(t, rules.VerdictPass, same...)), []reviewtest.PlanChange{scale(2, 7), bucket("logs", "create")}, review.Tolerance{}, false, 0},
		"a reviewed no-op the plan lacks":          {reviewedSet(t, rules.VerdictPass, append(same, noopOld)...), same, review.Tolerance{}, false, 1},
		"a reviewed no-op the plan lacks, allowed": {reviewedSet(t, rules.VerdictPass, append(same, noopOld)...), same, review.Tolerance{NewNoop: true}, true, 0},
		"a new create is no no-op, allowed or not": {reviewedSet(t, rules.VerdictPass, same...), append(same, bucket("new", "create")), review.Tolerance{NewNoop: true, KnownAfterApply: true}, false, 1},
		"an action that changed is no known value": {reviewedSet(t, rules.VerdictPass, same...), []reviewtest.PlanChange{scale(2, 6), bucket("logs", "delete", "create")}, review.Tolerance{KnownAfterApply: true}, false, 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			planned := buildProject(t, tc.planned...)
			got := review.Verify([]review.ChangeSet{tc.reviewed}, []*review.Project{planned}, tc.tol)
			if len(got) != 1 {
				t.Fatalf("%d checks for one planned project", len(got))
			}
			c := got[0]
			if c.OK() != tc.ok || len(c.Differences) != tc.failing {
				t.Errorf("OK %v with %d differences %+v; want %v with %d", c.OK(), len(c.Differences), c.Differences, tc.ok, tc.failing)
			}
		})
	}
}

func TestVerifyOfAnIncompletePlanFails(t *testing.T) {
	t.Parallel()
	changes := []reviewtest.PlanChange{bucket("logs", "create")}
	planned := buildProject(t, changes...)
	planned.Complete = false
	got := review.Verify([]review.ChangeSet{reviewedSet(t, rules.VerdictPass, changes...)}, []*review.Project{planned}, review.Tolerance{})
	if got[0].OK() || !got[0].Incomplete {
		t.Errorf("an incomplete plan verifies: %+v", got[0])
	}
}

func TestVerifyPairsChangesByAddressAndDeposedKey(t *testing.T) {
	t.Parallel()
	current := bucket("logs", "delete", "create")
	deposed := bucket("logs", "delete")
	deposed.Deposed = "0badf00d"
	reviewed := reviewedSet(t, rules.VerdictPass, current, deposed)
	tests := map[string]struct {
		planned []reviewtest.PlanChange
		ok      bool
	}{
		"the same two objects":            {[]reviewtest.PlanChange{deposed, current}, true},
		"the current object only":         {[]reviewtest.PlanChange{current}, false},
		"another deposed object's delete": {[]reviewtest.PlanChange{current, func() reviewtest.PlanChange { d := deposed; d.Deposed = "1badf00d"; return d }()}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := review.Verify([]review.ChangeSet{reviewed}, []*review.Project{buildProject(t, tc.planned...)}, review.Tolerance{})
			if got[0].OK() != tc.ok {
				t.Errorf("OK %v, want %v: %+v", got[0].OK(), tc.ok, got[0].Differences)
			}
		})
	}
}

func TestVerifySaysWhichPartDiffers(t *testing.T) {
	t.Parallel()
	base := bucket("logs", "update")
	moved := base
	moved.PreviousAddress = "aws_s3_bucket.old_logs"
	imported := base
	imported.ImportID = "logs"
	replaced := bucket("logs", "delete", "create")
	firstCreate := bucket("logs", "create", "delete")
	tests := map[string]struct {
		reviewed, planned reviewtest.PlanChange
		want              review.Part
	}{
		"moved from another address":   {base, moved, review.PartMove},
		"imported":                     {base, imported, review.PartImport},
		"replaced, not updated":        {base, replaced, review.PartAction},
		"replaced the other way round": {replaced, firstCreate, review.PartAction},
		"another count":                {scale(2, 6), scale(2, 5), review.PartCount},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := review.Verify([]review.ChangeSet{reviewedSet(t, rules.VerdictPass, tc.reviewed)}, []*review.Project{buildProject(t, tc.planned)}, review.Tolerance{})
			if got[0].OK() || len(got[0].Differences) != 1 || !slices.Contains(got[0].Differences[0].Parts, tc.want) {
				t.Errorf("differences %+v; want one naming %s", got[0].Differences, tc.want)
			}
		})
	}
}
