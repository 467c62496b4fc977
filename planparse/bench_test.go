package planparse_test

import (
	"encoding/json"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

func TestLargePlanShape(t *testing.T) {
	t.Parallel()
	data := plantest.Large(200)
	p, err := planparse.Parse("large.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 200 {
		t.Fatalf("changes = %d", len(p.Changes))
	}
	var tf tfjson.Plan
	if err := json.Unmarshal(data, &tf); err != nil {
		t.Fatalf("terraform-json refuses the generated plan: %v", err)
	}
}

// BenchmarkTFJSONUnmarshal is the baseline: terraform-json's own decode of
// a 20,000-change plan.
func BenchmarkTFJSONUnmarshal(b *testing.B) {
	data := plantest.Large(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var p tfjson.Plan
		if err := json.Unmarshal(data, &p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse is planparse on the same plan.
func BenchmarkParse(b *testing.B) {
	data := plantest.Large(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planparse.Parse("large.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseClusters is planparse on the brownfield mix (prior_state
// and planned_values large, secrets in values).
func BenchmarkParseClusters(b *testing.B) {
	data := plantest.Clusters(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planparse.Parse("clusters.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
