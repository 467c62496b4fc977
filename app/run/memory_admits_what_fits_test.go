package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/publish"
)

// admit takes cost of g for one job, waiting until it fits, and returns
// its release.
func admit(ctx context.Context, g *memoryGate, cost int64) (release func(), err error) {
	adm := &admission{gate: g}
	if err := adm.grow(ctx, cost); err != nil {
		return nil, err
	}
	return adm.release, nil
}

func TestMemoryGateAdmitsWhatFitsAndRefusesWhatNeverWill(t *testing.T) {
	t.Parallel()
	g := newMemoryGate(100 << 20)
	release, err := admit(context.Background(), g, 60<<20)
	if err != nil {
		t.Fatalf("a job within the budget was not admitted: %v", err)
	}
	// A second such job does not fit beside the first: it waits (here,
	// until its context gives up), and is tried again later: the wait
	// cut short is no final answer for its check.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := admit(gone, g, 60<<20); err == nil || publish.FinalOf(err) != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("a second job past the budget: %v; want the wait's cancellation, retried (final: %v)", err, publish.FinalOf(err))
	}
	if r, err := admit(context.Background(), g, 40<<20); err != nil {
		t.Errorf("a job that fits beside the first was not admitted: %v", err)
	} else {
		r()
	}
	release()
	if r, err := admit(context.Background(), g, 60<<20); err != nil {
		t.Errorf("after the first job ended, the second was still not admitted: %v", err)
	} else {
		r()
	}
	_, err = admit(context.Background(), g, 101<<20)
	fin := publish.FinalOf(err)
	if fin == nil || fin.Check().Conclusion != "failure" || !strings.Contains(fin.Check().Summary, "more than this worker's budget of 100 MiB") {
		t.Errorf("a job over the whole budget: %v; want a final failure naming the budget", err)
	}
}
