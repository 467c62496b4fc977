package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkBuiltinRule is each built-in rule alone over the generated
// 20,000-change brownfield plan, and the completion and ordering of the
// findings (conclude), as EvaluateWith runs them.
func BenchmarkBuiltinRule(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(20000))
	if err != nil {
		b.Fatal(err)
	}
	project := Project{Name: "clusters", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}
	cfg := DefaultConfig()
	for _, id := range builtinIDs() {
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			start := plantest.CPUTime()
			for b.Loop() {
				s := newScope(cfg, project)
				s.changedResources()
				builtins[id].check(s)
			}
			b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
	findings := cfg.Evaluate([]Project{project}, nil).Findings
	b.Run("conclude", func(b *testing.B) {
		b.ReportAllocs()
		start := plantest.CPUTime()
		for b.Loop() {
			cfg.Conclude(findings, nil)
		}
		b.ReportMetric(float64(plantest.CPUTime()-start)/float64(b.N), "cpu-ns/op")
	})
}
