package par

import (
	"runtime"
	"testing"
)

// The default policy splits work from its kind's size on, and only with
// two processors or more; infra's changes go in a part per processor, at
// most one per size.
func TestPolicySplitsFromTheKindsSize(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	var p Policy
	runtime.GOMAXPROCS(4)
	tests := map[string]struct {
		w     Work
		n     int
		split bool
		parts int
	}{
		"changes below the size":           {Changes, 39_999, false, 1},
		"changes at the size":              {Changes, 40_000, true, 1},
		"changes at twice the size":        {Changes, 80_000, true, 2},
		"changes past four times the size": {Changes, 400_000, true, 4},
		"findings at the size":             {Findings, 20_000, true, 1},
		"findings below it":                {Findings, 19_999, false, 1},
		"digests at the size":              {Digests, 4096, true, 1},
		"elements below the size":          {Elements, 39_999, false, 1},
		"plan changes below 8 MiB":         {PlanChanges, 8<<20 - 1, false, 1},
		"plan changes at 8 MiB":            {PlanChanges, 8 << 20, true, 1},
		"plan changes below 64 MiB":        {PlanChanges, 64<<20 - 1, true, 4},
		"plan changes at their limit":      {PlanChanges, 64 << 20, false, 1},
		"prior state below 64 MiB":         {PriorState, 64<<20 - 1, false, 1},
		"prior state at 64 MiB":            {PriorState, 64 << 20, true, 1},
		"prior state of a huge plan":       {PriorState, 1 << 30, true, 4},
	}
	for name, tt := range tests {
		if got := p.Split(tt.w, tt.n); got != tt.split {
			t.Errorf("%s: Split = %v, want %v", name, got, tt.split)
		}
		if got := p.Parts(tt.w, tt.n); got != tt.parts {
			t.Errorf("%s: Parts = %d, want %d", name, got, tt.parts)
		}
	}
	runtime.GOMAXPROCS(1)
	if p.Split(Changes, 1_000_000) || p.Parts(Changes, 1_000_000) != 1 {
		t.Error("one processor: the default policy split the work")
	}
	if p.Batch() != 256 {
		t.Errorf("default grain %d, want 256", p.Batch())
	}
}

// A policy's Min splits every kind of work from that size on, even on one
// processor (so that tests take the concurrent paths anywhere), and its
// Grain replaces the default; one item is never split.
func TestMinSplitsSmallWork(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	runtime.GOMAXPROCS(1)
	p := Policy{Min: 2, Grain: 7}
	for _, w := range []Work{Changes, Findings, Digests, Elements, PlanChanges, PriorState} {
		if !p.Split(w, 2) || p.Split(w, 1) {
			t.Errorf("work %d: Min 2 splits 2 items: %v, 1 item: %v; want true, false", w, p.Split(w, 2), p.Split(w, 1))
		}
	}
	if got := p.Parts(Changes, 1000); got != 2 {
		t.Errorf("Min 2 on one processor: %d parts, want 2", got)
	}
	if p.Batch() != 7 {
		t.Errorf("grain %d, want 7", p.Batch())
	}
	if (Policy{Min: 1 << 30}).Split(Changes, 1_000_000) {
		t.Error("Min 1<<30 split a million changes")
	}
	if !(Policy{Min: 1}).Split(PlanChanges, 1<<30) {
		t.Error("Min 1 kept a plan past the limit of its changes on one goroutine")
	}
	if (Policy{Min: 1}).Split(Changes, 1) {
		t.Error("Min 1 split one item")
	}
}
