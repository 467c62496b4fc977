package reportjson

import (
	"io"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// BenchmarkWriteClusters writes the report of the generated 20,000-change
// brownfield plan, reporting the process's CPU time per operation too.
func BenchmarkWriteClusters(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(20000))
	if err != nil {
		b.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "clusters", Plan: p}}, review.Options{})
	b.ReportAllocs()
	start := plantest.CPUTime()
	for b.Loop() {
		if err := Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
}
