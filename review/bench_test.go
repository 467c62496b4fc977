package review

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkBuildClusters is Build (infra, the rules and the rows) over the
// generated 20,000-change brownfield plan (reportjson's
// BenchmarkWriteClusters writes its report). Each also reports the process's CPU time per
// operation, which the other processes of a shared machine disturb less
// than the wall time.
func BenchmarkBuildClusters(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(20000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := plantest.CPUTime()
	for b.Loop() {
		Build([]Input{{Name: "clusters", Plan: p}}, Options{})
	}
	b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkBuildClustersDigests is BuildClusters with the change digests
// (the JSON report's and verify's).
func BenchmarkBuildClustersDigests(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(20000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := plantest.CPUTime()
	for b.Loop() {
		Build([]Input{{Name: "clusters", Plan: p}}, Options{Digests: true})
	}
	b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkBuildLarge and BenchmarkBuildLargeDigests are Build over the
// generated 20,000-change plan (plantest.Large, the CLI's
// BenchmarkReviewJSON plan) without and with the change digests: what the
// digests the check run always carries cost.
func BenchmarkBuildLarge(b *testing.B) { benchmarkBuildLarge(b, false) }

func BenchmarkBuildLargeDigests(b *testing.B) { benchmarkBuildLarge(b, true) }

func benchmarkBuildLarge(b *testing.B, digests bool) {
	p, err := planparse.Parse("large.json", plantest.Large(20000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := plantest.CPUTime()
	for b.Loop() {
		Build([]Input{{Name: "large", Plan: p}}, Options{Digests: digests})
	}
	b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
}
