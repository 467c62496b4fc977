package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestEvaluateConcurrently runs the rules of generated plans on two
// goroutines (the thresholds lowered so that small plans take that path)
// and checks the result is the one of running them in order: the same
// findings, in the same order, with the same verdict. Run it with -race.
func TestEvaluateConcurrently(t *testing.T) {
	cfg := mustConfig(t, `version: 1
rules:
  required-tags:
    tags: [cost-center, team]
custom_rules:
  - id: big
    when: change.gpus_max > 8.0
    message: "{address} is big"
  - id: deletes
    when: change.action == "delete"
    message: "{address} goes"
    severity: block
`)
	mixes := map[string]func(int) []byte{"fleet": plantest.Large, "clusters": plantest.Clusters}
	for name, gen := range mixes {
		t.Run(name, func(t *testing.T) {
			p, err := planparse.Parse(name+".json", gen(3000))
			if err != nil {
				t.Fatal(err)
			}
			projects := []Project{
				{Name: name, Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})},
				{Name: name + "-dev", Environment: "dev", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})},
			}
			overrides := []Override{{Rule: RuleStatefulDelete, By: "a"}}
			for _, c := range []*Config{DefaultConfig(), cfg} {
				serial := withThresholds(t, 1<<30, 1<<30, func() Result { return c.Evaluate(projects, overrides) })
				concurrent := withThresholds(t, 1, 2, func() Result { return c.Evaluate(projects, overrides) })
				if len(serial.Findings) < 1000 {
					t.Fatalf("%d findings: the plan is too small to test the concurrent path", len(serial.Findings))
				}
				if diff := cmp.Diff(serial, concurrent); diff != "" {
					t.Errorf("concurrent evaluation differs (-serial +concurrent):\n%s", diff)
				}
			}
		})
	}
}

// withThresholds runs f with the thresholds of the concurrent paths set
// (changes per project, findings to sort), then puts them back.
func withThresholds[T any](t *testing.T, changes, sort int, f func() T) T {
	t.Helper()
	oldChanges, oldSort := parallelChanges, parallelSort
	parallelChanges, parallelSort = changes, sort
	defer func() { parallelChanges, parallelSort = oldChanges, oldSort }()
	return f()
}

// panicky is a rule whose check panics.
type panicky struct{}

func (panicky) severity(*scope) Severity { return SeverityWarn }
func (panicky) check(*scope) []draft     { panic("rule panicked") }

// A rule that panics on the second goroutine panics in the caller, as it
// would on one (the app's handler recovers panics), rather than ending
// the process.
func TestCheckConcurrentlyPanics(t *testing.T) {
	runs := make([]run, 8)
	for i := range runs {
		runs[i] = run{id: "panicky", r: panicky{}}
	}
	defer func() {
		if p := recover(); p != "rule panicked" {
			t.Errorf("recovered %v, want the rule's panic", p)
		}
	}()
	checkConcurrently(&scope{cfg: DefaultConfig()}, runs, make([][][]draft, len(runs)))
}
