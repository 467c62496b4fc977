package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkEvaluate is every built-in rule, and one custom rule when the
// build has CEL, over a generated 20,000-change plan (parse and infra are
// outside the timing).
func BenchmarkEvaluate(b *testing.B) {
	p, err := planparse.Parse("large.json", plantest.Large(20000))
	if err != nil {
		b.Fatal(err)
	}
	projects := []Project{{Name: "large", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}
	cfg := mustConfig(b, "version: 1\ncustom_rules:\n  - id: big\n    when: change.gpus_max > 64.0\n    message: \"{address} is big\"\n")
	b.ReportAllocs()
	for b.Loop() {
		cfg.Evaluate(projects, nil)
	}
}

// BenchmarkEvaluateBuiltin is the built-in rules alone, as a review
// without a config runs them, over both generated 20,000-change mixes.
func BenchmarkEvaluateBuiltin(b *testing.B) {
	for _, mix := range []struct {
		name string
		gen  func(int) []byte
	}{{"fleet", plantest.Large}, {"clusters", plantest.Clusters}} {
		b.Run(mix.name, func(b *testing.B) {
			p, err := planparse.Parse(mix.name+".json", mix.gen(20000))
			if err != nil {
				b.Fatal(err)
			}
			projects := []Project{{Name: mix.name, Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}
			cfg := DefaultConfig()
			b.ReportAllocs()
			for b.Loop() {
				cfg.Evaluate(projects, nil)
			}
		})
	}
}

// BenchmarkConclude orders the findings of a generated 20,000-change plan
// (about 12,700), as EvaluateWith does last.
func BenchmarkConclude(b *testing.B) {
	p, err := planparse.Parse("large.json", plantest.Large(20000))
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	findings := cfg.Evaluate([]Project{{Name: "large", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}, nil).Findings
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(findings), func(i, j int) { findings[i], findings[j] = findings[j], findings[i] })
	b.ReportAllocs()
	for b.Loop() {
		cfg.Conclude(findings, nil)
	}
}
