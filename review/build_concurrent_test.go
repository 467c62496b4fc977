package review_test

import (
	"bytes"
	"testing"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
)

// TestBuildConcurrently makes large plans' report rows on a second
// goroutine while the rules run (par.Policy.Min, so that small plans
// take that path) and checks that the report is the serial one: the same
// JSON and the same comment. Run it with -race.
func TestBuildConcurrently(t *testing.T) {
	fleet, clusters := bothMixes(t, 3000)
	tests := map[string][]review.Input{
		"one project":  {{Name: "clusters", Plan: clusters}},
		"two projects": {{Name: "fleet", Plan: fleet}, {Name: "clusters", Environment: "prod", Plan: clusters}},
	}
	build := func(inputs []review.Input, rows int) []byte {
		var b bytes.Buffer
		if err := reportjson.Write(&b, review.Build(inputs, review.Options{Par: par.Policy{Min: rows}})); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for name, inputs := range tests {
		t.Run(name, func(t *testing.T) {
			want := build(inputs, 1<<30)
			if len(want) < 1<<20 {
				t.Fatalf("%d bytes of JSON: the plans are too small to test the concurrent path", len(want))
			}
			if got := build(inputs, 1); !bytes.Equal(got, want) {
				t.Errorf("rows made on a second goroutine: %d bytes of JSON differ from the serial %d", len(got), len(want))
			}
		})
	}
}

// bothMixes parses the generated fleet and brownfield plans of n changes.
func bothMixes(t *testing.T, n int) (fleet, clusters *planparse.Plan) {
	t.Helper()
	fleet, err := planparse.Parse("fleet.json", plantest.Large(n))
	if err != nil {
		t.Fatal(err)
	}
	clusters, err = planparse.Parse("clusters.json", plantest.Clusters(n))
	if err != nil {
		t.Fatal(err)
	}
	return fleet, clusters
}
