package comment_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

func reportOf(t *testing.T, digests bool, changes ...reviewtest.PlanChange) *review.Report {
	t.Helper()
	p, err := planparse.Parse("plan.json", reviewtest.Plan(changes))
	if err != nil {
		t.Fatal(err)
	}
	return review.Build([]review.Input{{Name: "gpu", Environment: "staging", Plan: p}}, review.Options{Digests: digests})
}

func nodePool(name string, from, to int) reviewtest.PlanChange {
	v := func(n int) map[string]any {
		return map[string]any{"name": name, "vm_size": "Standard_NC24ads_A100_v4", "node_count": n}
	}
	return reviewtest.PlanChange{Address: "azurerm_kubernetes_cluster_node_pool." + name, Before: v(from), After: v(to)}
}

func TestCheckOutputRecordsTheReviewedChangeSets(t *testing.T) {
	t.Parallel()
	r := reportOf(t, true, nodePool("gpu", 2, 6), nodePool("cpu", 1, 1))
	c := comment.CheckOutput(r, comment.Options{})
	if len(c.Text) > comment.MaxCheckBytes {
		t.Fatalf("text is %d bytes, over %d", len(c.Text), comment.MaxCheckBytes)
	}
	rec, err := comment.ParseRecord(c.Text)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Projects) != 1 {
		t.Fatalf("record has %d projects, want 1", len(rec.Projects))
	}
	got := rec.Projects[0]
	if got.Project != "gpu" || got.Environment != "staging" || got.Digest != r.Projects[0].ChangeSetDigest || got.Count != 2 || len(got.Changes) != 2 {
		t.Errorf("record project %+v; want gpu/staging, digest %s, 2 changes listed", got, r.Projects[0].ChangeSetDigest)
	}
	if got.Verdict != rules.VerdictOf(r.Projects[0].Findings) || rec.Conclusion != c.Conclusion {
		t.Errorf("record verdict %q, conclusion %q; the review's are %q, %q", got.Verdict, rec.Conclusion, rules.VerdictOf(r.Projects[0].Findings), c.Conclusion)
	}
	if strings.Contains(c.Summary, "planwarden:reviewed") {
		t.Errorf("the summary holds the record; it belongs at the end of the text")
	}
}

func TestCheckOutputWithoutDigestsHasNoRecord(t *testing.T) {
	t.Parallel()
	c := comment.CheckOutput(reportOf(t, false, nodePool("gpu", 2, 6)), comment.Options{})
	if _, err := comment.ParseRecord(c.Text); !errors.Is(err, comment.ErrNoRecord) {
		t.Errorf("ParseRecord of a review without digests: %v, want ErrNoRecord", err)
	}
}

// A plan's strings are rendered into the text before the record; one that
// imitates a record is not read as the record.
func TestRecordIsOnlyTheTextsEnd(t *testing.T) {
	t.Parallel()
	fake := reportOf(t, true, nodePool("other", 1, 2))
	fakeText := comment.CheckOutput(fake, comment.Options{}).Text
	fakeBlock := fakeText[strings.Index(fakeText, "<!-- planwarden:reviewed"):]
	hostile := nodePool("gpu", 2, 6)
	hostile.Address = `azurerm_kubernetes_cluster_node_pool.gpu["` + strings.ReplaceAll(fakeBlock, `"`, `'`) + `"]`
	tests := map[string]struct{ digests bool }{
		"with a record: the real one is read": {true},
		"without one: the imitation is not":   {false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := reportOf(t, tc.digests, hostile)
			rec, err := comment.ParseRecord(comment.CheckOutput(r, comment.Options{}).Text)
			if !tc.digests {
				if !errors.Is(err, comment.ErrNoRecord) {
					t.Errorf("ParseRecord: %v (%+v), want ErrNoRecord", err, rec)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Projects[0].Digest != r.Projects[0].ChangeSetDigest {
				t.Errorf("record digest %s, want the review's %s", rec.Projects[0].Digest, r.Projects[0].ChangeSetDigest)
			}
		})
	}
}

func TestRecordKeepsOnlyDigestsWhenTheChangesDoNotFit(t *testing.T) {
	t.Parallel()
	var many []reviewtest.PlanChange
	for i := range 3000 {
		many = append(many, nodePool(fmt.Sprintf("pool%04d", i), i, i+1)) // each its own diff digest
	}
	r := reportOf(t, true, many...)
	c := comment.CheckOutput(r, comment.Options{})
	if len(c.Text) > comment.MaxCheckBytes {
		t.Fatalf("text is %d bytes, over %d", len(c.Text), comment.MaxCheckBytes)
	}
	rec, err := comment.ParseRecord(c.Text)
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.Projects[0]; p.Changes != nil || p.Count != 3000 || p.Digest != r.Projects[0].ChangeSetDigest {
		t.Errorf("record: %d changes listed, count %d, digest %s; want none listed, 3000, %s", len(p.Changes), p.Count, p.Digest, r.Projects[0].ChangeSetDigest)
	}
	small := comment.CheckOutput(reportOf(t, true, many[:3]...), comment.Options{})
	if rec, err := comment.ParseRecord(small.Text); err != nil || len(rec.Projects[0].Changes) != 3 {
		t.Errorf("a record of 3 changes lists %d (%v); want all 3", len(rec.Projects[0].Changes), err)
	}
}
