package app

import (
	"context"
	"strings"
	"testing"
)

func TestMemoryGateAdmitsWhatFitsAndRefusesWhatNeverWill(t *testing.T) {
	g := newMemoryGate(100 << 20)
	release, _, ok := g.admit(context.Background(), 60<<20)
	if !ok {
		t.Fatal("a job within the budget was not admitted")
	}
	// A second such job does not fit beside the first: it waits (here,
	// until its context gives up).
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, out, ok := g.admit(gone, 60<<20); ok || !strings.Contains(out.Summary, "Press Re-run") {
		t.Errorf("a second job past the budget was admitted (%v) or not told to re-run: %q", ok, out.Summary)
	}
	if r, _, ok := g.admit(context.Background(), 40<<20); !ok {
		t.Errorf("a job that fits beside the first was not admitted")
	} else {
		r()
	}
	release()
	if r, _, ok := g.admit(context.Background(), 60<<20); !ok {
		t.Errorf("after the first job ended, the second was still not admitted")
	} else {
		r()
	}
	_, out, ok := g.admit(context.Background(), 101<<20)
	if ok || out.Conclusion != "failure" || !strings.Contains(out.Summary, "more than this worker's budget of 100 MiB") {
		t.Errorf("a job over the whole budget: admitted %v, %q; want a failure naming the budget", ok, out.Summary)
	}
}
