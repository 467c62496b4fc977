package app

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"golang.org/x/sync/semaphore"
)

// DefaultMemoryBudget is the worker's memory budget when Config sets none.
const DefaultMemoryBudget = 1 << 30

// planOverhead is what reviewing a plan costs beyond its bytes, per byte:
// the parsed change model points into the plan (the bytes stay), plus
// what infra, the rules and the comment decode on demand.
const planOverhead = 3

// jobOverhead is the fixed cost of a job: the GitHub client, the config,
// the comment being rendered.
const jobOverhead = 16 << 20

// memoryGate admits jobs while the sum of their plans' estimated memory
// fits the budget; the others wait in arrival order (the semaphore is
// FIFO), so one large review never starves and a batch of them never
// exceeds the budget together.
type memoryGate struct {
	budget int64
	sem    *semaphore.Weighted
}

func newMemoryGate(budget int64) *memoryGate {
	return &memoryGate{budget: budget, sem: semaphore.NewWeighted(budget)}
}

// planCost estimates the memory a run's plans take while they are
// reviewed: the zips, each plan entry's bytes (as its header declares:
// extractPlans reads each into one buffer of that size and refuses an
// entry that lies) times planOverhead, and a fixed part.
func planCost(zips [][]byte) int64 {
	cost := int64(jobOverhead)
	for _, data := range zips {
		cost += int64(len(data))
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue // extractPlans says what is wrong with it
		}
		for _, f := range zr.File {
			if path.Base(f.Name) == MetadataFile || strings.HasSuffix(strings.ToLower(f.Name), ".json") {
				cost += planOverhead * int64(min(f.UncompressedSize64, 1<<40))
			}
		}
	}
	return cost
}

// admit waits until cost fits the budget and returns the release; a cost
// over the whole budget is refused at once with the check's message.
func (g *memoryGate) admit(ctx context.Context, cost int64) (release func(), out outcome, ok bool) {
	adm := &admission{gate: g}
	if out, ok := adm.grow(ctx, cost); !ok {
		return nil, out, false
	}
	return adm.release, outcome{}, true
}

// admission is the memory one job holds. A job reading several runs grows
// it run by run; when the next run does not fit at once, it gives back
// what it holds and waits for the whole, so two jobs never hold part each
// while waiting for the rest.
type admission struct {
	gate *memoryGate
	held int64
	want int64 // the last amount asked for
}

func (a *admission) grow(ctx context.Context, cost int64) (outcome, bool) {
	g := a.gate
	a.want = a.held + cost
	if a.want > g.budget {
		return failed("Plan too large for the worker",
			fmt.Sprintf("Reviewing this run's plans needs about %d MiB of memory (3 times the uncompressed plans, plus the artifacts), more than this worker's budget of %d MiB. "+
				"Split the plan into smaller projects (one artifact or plan file each), or have the operator raise the budget (PLANWARDEN_MEMORY_BUDGET_MB for serve, the function's memory size on Lambda).",
				a.want>>20, g.budget>>20)), false
	}
	if a.held > 0 && g.sem.TryAcquire(cost) {
		a.held += cost
		return outcome{}, true
	}
	a.release()
	if err := g.sem.Acquire(ctx, a.want); err != nil {
		return failed("Review not started", "planwarden stopped waiting for memory to review this plan. Press Re-run on this check to try again."), false
	}
	a.held = a.want
	return outcome{}, true
}

// release gives back everything the job holds.
func (a *admission) release() {
	if a.held > 0 {
		a.gate.sem.Release(a.held)
		a.held = 0
	}
}
