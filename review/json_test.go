package review_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// TestWriteJSONMatchesMarshalIndent holds the streaming writer to
// encoding/json's own output, so the report's shape has one definition:
// the struct tags.
func TestWriteJSONMatchesMarshalIndent(t *testing.T) {
	large, err := planparse.Parse("large.json", plantest.Large(300))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]review.Input{
		"real terraform plan": {{Name: "real", Plan: parseFile(t, "../planparse/testdata/terraform-real.json")}},
		"story and large":     {{Name: "typo", Environment: "prod", Plan: parseFile(t, "../examples/plans/aks-gpu-typo.json")}, {Name: "large", Plan: large}},
		"no projects":         nil,
	}
	for name, inputs := range tests {
		t.Run(name, func(t *testing.T) {
			r := review.Build(inputs, review.Options{})
			want, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := r.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want)+"\n", got.String()); diff != "" {
				t.Errorf("WriteJSON differs from MarshalIndent (-want +got):\n%s", diff)
			}
			reviewtest.ValidateReport(t, name, got.Bytes())
		})
	}
}
