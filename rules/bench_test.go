package rules

import (
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
