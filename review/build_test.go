package review_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

func parseFile(t *testing.T, path string) *planparse.Plan {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildSummaryCountsEveryAction(t *testing.T) {
	t.Parallel()
	p := parseFile(t, "../planparse/testdata/terraform-real.json")
	r := review.Build([]review.Input{{Name: "real", Plan: p}}, review.Options{})
	got := r.Projects[0].Summary
	want := review.Summary{Create: 2, Update: 2, Delete: 2, Replace: 2, Move: 1, Read: 1, Forget: 1, NoOp: 4}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if r.Projects[0].Environment != review.DefaultEnvironment {
		t.Errorf("environment = %q", r.Projects[0].Environment)
	}
	outs := r.Projects[0].Outputs
	if len(outs) != 2 || outs[0].After != planparse.UnknownText || outs[1].After != planparse.SensitiveText || !outs[1].Sensitive {
		t.Errorf("outputs = %+v %+v, want created_id unknown and db_password sensitive", *outs[0], *outs[1])
	}
}

func TestBuildErroredPlanNeverPasses(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("errored.json", []byte(`{"format_version":"1.2","errored":true,"resource_changes":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "x", Environment: "prod", Plan: p}}, review.Options{})
	if r.Projects[0].Complete || !r.Projects[0].Errored {
		t.Errorf("complete=%v errored=%v", r.Projects[0].Complete, r.Projects[0].Errored)
	}
	if r.Verdict == rules.VerdictPass {
		t.Errorf("an errored plan passed")
	}
}

func TestBuildJSONHasNoNulls(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("empty.json", []byte(`{"format_version":"1.2"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(review.Build([]review.Input{{Name: "x", Plan: p}}, review.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Projects []map[string]any `json:"projects"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"changes", "findings", "drift", "deferred", "outputs", "checks", "actions", "deferred_actions", "skipped"} {
		if doc.Projects[0][k] == nil {
			t.Errorf("%s is null, want []", k)
		}
	}
}
