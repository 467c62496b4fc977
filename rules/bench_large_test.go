package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkEvaluateLarge is the built-in rules over the brownfield mix at
// 100,000 changes, on one goroutine and on two (the path a plan of that
// size takes).
func BenchmarkEvaluateLarge(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(100000))
	if err != nil {
		b.Fatal(err)
	}
	projects := []Project{{Name: "clusters", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}
	cfg := DefaultConfig()
	for _, m := range []struct {
		name string
		pol  par.Policy
	}{{"serial", par.Policy{Min: 1 << 30}}, {"concurrent", par.Policy{}}} {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cfg.EvaluateWithPolicy(m.pol, projects, nil, nil)
			}
		})
	}
}
