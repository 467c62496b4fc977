package rules

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestEvaluateConcurrently runs the rules of generated plans on two
// goroutines (par.Policy.Min, so that small plans take that path)
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
				serial := c.EvaluateWithPolicy(par.Policy{Min: 1 << 30}, projects, nil, overrides)
				concurrent := c.EvaluateWithPolicy(par.Policy{Min: 2}, projects, nil, overrides)
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

// Completing drafts on two goroutines gives the findings of completing
// them on one, in the same order, also when drafts are left out (their
// severity off) before, at and after the middle, and the slice keeps
// room for the findings made outside the plans.
func TestCompleteConcurrently(t *testing.T) {
	s := &scope{project: Project{Name: "p"}, env: "prod"}
	cfg := DefaultConfig()
	tests := map[string][]int{ // drafts per batch; every third draft of a batch whose size is odd is off
		"even halves, none off": {4, 6, 2},
		"off before the middle": {5, 4, 2},
		"off after the middle":  {4, 2, 7},
		"split inside a batch":  {3, 9},
		"one batch":             {11},
		"off on both sides":     {7, 1, 9},
		"many small, some off":  {1, 1, 3, 1, 1, 3, 1},
	}
	for name, sizes := range tests {
		t.Run(name, func(t *testing.T) {
			var batches []batch
			total := 0
			for bi, size := range sizes {
				b := batch{s: s, id: "custom"}
				for i := range size {
					sev := SeverityBlock
					if size%2 == 1 && i%3 == 0 {
						sev = SeverityOff
					}
					addr := "r." + strconv.Itoa(bi) + "_" + strconv.Itoa(i)
					b.drafts = append(b.drafts, draft{address: addr, message: addr + " is wrong", remedy: "Fix " + addr + ".", severity: sev})
				}
				batches = append(batches, b)
				total += size
			}
			want := cfg.complete(batches, make([]Finding, 0, total+1))
			got := cfg.completeConcurrently(batches, make([]Finding, 0, total+1), total)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ (-one goroutine +two):\n%s", diff)
			}
			if cap(got) != total+1 {
				t.Errorf("capacity %d, want %d (room for the extra finding)", cap(got), total+1)
			}
		})
	}
}

// sortHalves gives the order of one sort for every length, odd and even,
// with keys that repeat (the position breaks ties, as in sortFindings).
func TestSortHalves(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 16, 17, 100, 1001} {
		keys := make([]int, n)
		for i := range keys {
			keys[i] = (i * 7919) % (n/3 + 1)
		}
		order := func(i, j int32) int {
			if keys[i] != keys[j] {
				return keys[i] - keys[j]
			}
			return int(i - j)
		}
		pos := make([]int32, n)
		for i := range pos {
			pos[i] = int32(i)
		}
		want := slices.Clone(pos)
		slices.SortFunc(want, order)
		if got := sortHalves(slices.Clone(pos), order); !slices.Equal(got, want) {
			t.Errorf("%d positions: sortHalves gives %v, want %v", n, got, want)
		}
	}
}
