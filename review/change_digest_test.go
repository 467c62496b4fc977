package review_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
)

func pool(name string, count int, size string) map[string]any {
	return map[string]any{"name": name, "vm_size": size, "node_count": count, "mode": "User",
		"kubernetes_cluster_id": "/subscriptions/0/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/ml"}
}

func scale(from, to int) reviewtest.PlanChange {
	return reviewtest.PlanChange{Address: "azurerm_kubernetes_cluster_node_pool.gpu",
		Before: pool("gpu", from, "Standard_NC24ads_A100_v4"), After: pool("gpu", to, "Standard_NC24ads_A100_v4")}
}

func bucket(name string, actions ...string) reviewtest.PlanChange {
	v := map[string]any{"bucket": name, "force_destroy": false}
	c := reviewtest.PlanChange{Address: "aws_s3_bucket." + name, Actions: actions, After: v}
	if len(actions) > 0 && actions[0] != "create" {
		c.Before = map[string]any{"bucket": name, "force_destroy": true}
	}
	if len(actions) > 0 && actions[0] == "delete" {
		c.After = nil
	}
	return c
}

func buildProject(t *testing.T, changes ...reviewtest.PlanChange) *review.Project {
	t.Helper()
	return buildPlan(t, reviewtest.Plan(changes))
}

func buildPlan(t *testing.T, data []byte) *review.Project {
	t.Helper()
	p, err := planparse.Parse("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return review.Build([]review.Input{{Name: "gpu", Environment: "prod", Plan: p}}, review.Options{Digests: true}).Projects[0]
}

func TestChangeSetDigestIsTheChangesWhateverTheirOrder(t *testing.T) {
	t.Parallel()
	a := buildProject(t, scale(2, 6), bucket("logs", "create"))
	same := buildProject(t, scale(2, 6), bucket("logs", "create"))
	reordered := buildProject(t, bucket("logs", "create"), scale(2, 6))
	other := buildProject(t, scale(2, 7), bucket("logs", "create"))
	more := buildProject(t, scale(2, 6), bucket("logs", "create"), bucket("extra", "create"))
	if len(a.ChangeSetDigest) != 32 {
		t.Fatalf("change_set_digest %q: want 32 hex digits", a.ChangeSetDigest)
	}
	if a.ChangeSetDigest != same.ChangeSetDigest || a.ChangeSetDigest != reordered.ChangeSetDigest {
		t.Errorf("equal change sets have digests %s, %s and (reordered) %s; want one", a.ChangeSetDigest, same.ChangeSetDigest, reordered.ChangeSetDigest)
	}
	if a.ChangeSetDigest == other.ChangeSetDigest {
		t.Errorf("node_count 6 and 7 give the same change-set digest")
	}
	if a.ChangeSetDigest == more.ChangeSetDigest {
		t.Errorf("an extra change leaves the change-set digest as it was")
	}
	if a.Changes[0].DiffDigest() == other.Changes[0].DiffDigest() {
		t.Errorf("node_count 6 and 7 give the pool the same diff digest")
	}
	if a.Changes[1].DiffDigest() != other.Changes[1].DiffDigest() {
		t.Errorf("the bucket, equal in both plans, has diff digests %s and %s", a.Changes[1].DiffDigest(), other.Changes[1].DiffDigest())
	}
	if a.DigestScheme != review.DigestScheme {
		t.Errorf("digest_scheme %q, want %q", a.DigestScheme, review.DigestScheme)
	}
}

func TestChangeIDCarriesSKUAndCounts(t *testing.T) {
	t.Parallel()
	id := buildProject(t, scale(2, 6)).Changes[0].ID()
	if id.SKUBefore != "Standard_NC24ads_A100_v4" || id.SKUAfter != "Standard_NC24ads_A100_v4" {
		t.Errorf("SKUs %q -> %q", id.SKUBefore, id.SKUAfter)
	}
	if id.CountBefore == nil || *id.CountBefore != 2 || id.CountAfter == nil || *id.CountAfter != 6 {
		t.Errorf("counts %v -> %v, want 2 -> 6", id.CountBefore, id.CountAfter)
	}
}

// A secret never enters a digest: two plans that differ only in a value
// the plan marks sensitive have equal digests (the documented price), and
// the same values unmarked (the honest twin) do not.
func TestDiffDigestNeverReadsASecret(t *testing.T) {
	t.Parallel()
	secret := func(pw string, marked bool) reviewtest.PlanChange {
		c := reviewtest.PlanChange{Address: "azurerm_linux_virtual_machine.vm",
			Before: map[string]any{"size": "Standard_NC6s_v3", "description": "old"},
			After:  map[string]any{"size": "Standard_NC6s_v3", "description": pw}}
		if marked {
			c.BeforeSensitive = map[string]any{"description": true}
			c.AfterSensitive = map[string]any{"description": true}
		}
		return c
	}
	tests := map[string]struct {
		a, b  reviewtest.PlanChange
		equal bool
	}{
		"marked sensitive: the value is not hashed": {secret("hunter2", true), secret("correct horse", true), true},
		"the same values unmarked are":              {secret("hunter2", false), secret("correct horse", false), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a, b := buildProject(t, tc.a).Changes[0].DiffDigest(), buildProject(t, tc.b).Changes[0].DiffDigest()
			if (a == b) != tc.equal {
				t.Errorf("diff digests %s and %s: equal %v, want %v", a, b, a == b, tc.equal)
			}
		})
	}
}

// The PR's plan artifact is often the redacted plan; the apply job
// verifies the plan itself. Both give the same digests.
func TestRedactedPlanHasTheSameDigests(t *testing.T) {
	t.Parallel()
	c := reviewtest.PlanChange{Address: "azurerm_linux_virtual_machine.vm",
		Before:          map[string]any{"size": "Standard_NC6s_v3", "admin_password": "Sup3r-s3cret!x", "custom_data": "a"},
		After:           map[string]any{"size": "Standard_NC24s_v3", "admin_password": "An0ther-s3cret!y", "custom_data": "b"},
		BeforeSensitive: map[string]any{"custom_data": true}, AfterSensitive: map[string]any{"custom_data": true}}
	data := reviewtest.Plan([]reviewtest.PlanChange{c})
	redacted, err := planparse.Redact("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(redacted, []byte("An0ther-s3cret!y")) {
		t.Fatal("the redacted plan still holds the password")
	}
	plain, red := buildPlan(t, data), buildPlan(t, redacted)
	if plain.ChangeSetDigest != red.ChangeSetDigest {
		t.Errorf("change-set digest of the plan %s, of its redacted copy %s", plain.ChangeSetDigest, red.ChangeSetDigest)
	}
}

func TestDiffDigestOnlyForActionsThatWriteAttributes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		actions []string
		digest  bool
	}{
		"create":  {[]string{"create"}, true},
		"update":  {[]string{"update"}, true},
		"replace": {[]string{"delete", "create"}, true},
		"delete":  {[]string{"delete"}, false},
		"no-op":   {[]string{"no-op"}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := bucket("logs", tc.actions...)
			if tc.actions[0] == "no-op" {
				c.Before = c.After
			}
			if got := buildProject(t, c).Changes[0].DiffDigest(); (got != "") != tc.digest {
				t.Errorf("diff_digest %q; want one: %v", got, tc.digest)
			}
		})
	}
}

func TestUnknownPathsAndTheKnownDigest(t *testing.T) {
	t.Parallel()
	mk := func(id any, unknown bool) reviewtest.PlanChange {
		after := map[string]any{"bucket": "logs", "force_destroy": false}
		c := reviewtest.PlanChange{Address: "aws_s3_bucket.logs", Actions: []string{"create"}, After: after}
		if unknown {
			c.AfterUnknown = map[string]any{"arn": true}
		} else {
			after["arn"] = id
		}
		return c
	}
	reviewed := buildProject(t, mk(nil, true)).Changes[0]
	known := buildProject(t, mk("arn:aws:s3:::logs", false)).Changes[0]
	if got := reviewed.UnknownPaths(); len(got) != 1 || got[0] != "arn" {
		t.Fatalf("unknown_paths %q, want [arn]", got)
	}
	if reviewed.DiffDigest() == known.DiffDigest() {
		t.Errorf("an unknown that became known leaves the diff digest as it was")
	}
	if reviewed.KnownDiffDigest() == "" || known.KnownDiffDigest() != "" {
		t.Errorf("known_diff_digest %q (reviewed), %q (nothing unknown): want one only where something is unknown", reviewed.KnownDiffDigest(), known.KnownDiffDigest())
	}
}

func TestDigestsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("plan.json", reviewtest.Plan([]reviewtest.PlanChange{scale(2, 6)}))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "gpu", Plan: p}}, review.Options{})
	if got := r.Projects[0]; got.ChangeSetDigest != "" || got.Changes[0].DiffDigest() != "" {
		t.Errorf("a review without Digests has change_set_digest %q, diff_digest %q", got.ChangeSetDigest, got.Changes[0].DiffDigest())
	}
}

func TestReportWritesTheDigests(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("plan.json", reviewtest.Plan([]reviewtest.PlanChange{scale(2, 6)}))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "gpu", Plan: p}}, review.Options{Digests: true})
	var out bytes.Buffer
	if err := reportjson.Write(&out, r); err != nil {
		t.Fatal(err)
	}
	reviewtest.ValidateReport(t, "digests", out.Bytes())
	var doc struct {
		Projects []struct {
			ChangeSetDigest string `json:"change_set_digest"`
			DigestScheme    string `json:"digest_scheme"`
			Changes         []struct {
				DiffDigest  string `json:"diff_digest"`
				CountBefore int    `json:"count_before"`
				CountAfter  int    `json:"count_after"`
			} `json:"changes"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Projects[0]
	if got.ChangeSetDigest != r.Projects[0].ChangeSetDigest || got.DigestScheme != review.DigestScheme {
		t.Errorf("report: change_set_digest %q, digest_scheme %q", got.ChangeSetDigest, got.DigestScheme)
	}
	if c := got.Changes[0]; c.DiffDigest != r.Projects[0].Changes[0].DiffDigest() || c.CountBefore != 2 || c.CountAfter != 6 {
		t.Errorf("report row: %+v", c)
	}
}
