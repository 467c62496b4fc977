package infra

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// Analyze calls Options.Checkpoint every CheckpointEvery changes, never
// before the first, and analyzes the same with or without it.
func TestAnalyzeCheckpoints(t *testing.T) {
	t.Parallel()
	n := 2*CheckpointEvery + 1
	p, err := planparse.Parse("large.json", plantest.Large(n))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	with := Analyze(p, DefaultCatalog(), Options{Checkpoint: func() { calls++ }})
	if calls != 2 {
		t.Errorf("%d checkpoints over %d changes; want 2", calls, n)
	}
	without := Analyze(p, DefaultCatalog(), Options{})
	if len(with) != len(without) || with[n/2].Address != without[n/2].Address {
		t.Errorf("%d resources with checkpoints, %d without", len(with), len(without))
	}
}
