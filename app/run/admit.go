package run

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
)

// The worker's memory: what each job is charged, and the gate that admits
// jobs while their charges fit the budget together.

// planOverhead is what reviewing a plan costs beyond its bytes, per byte:
// the parsed change model points into the plan (the bytes stay), plus
// what infra, the rules and the comment decode on demand.
const planOverhead = 3

// jobOverhead is the fixed cost of a job: the GitHub client, the config,
// the comment being rendered, and the blobs planparse decodes while it
// reads a plan (at most planparse.DecodeBound, whatever the plan holds).
const jobOverhead = 16<<20 + planparse.DecodeBound

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

// compressionBound is the ratio of plan bytes to zip bytes charged for an
// artifact before its zip is read: Terraform's JSON plans compress about
// 10 to 25 times (a 26.6 MB plan of 20,000 changes is a 1.1 MB zip). The
// charge is corrected from the zip's headers once it is downloaded.
const compressionBound = 32

// upfrontCost is what a run's artifacts are charged before they are
// downloaded, from the sizes GitHub lists: the zips, their plans at
// compressionBound times the zip (at most the run's uncompressed limit),
// times planOverhead, and the fixed part.
func upfrontCost(arts []port.Artifact, maxTotal int64) int64 {
	var zips int64
	for _, art := range arts {
		zips += max(art.SizeInBytes, 0)
	}
	return jobOverhead + zips + planOverhead*min(zips*compressionBound, maxTotal)
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

// grow adds cost to what the job holds, waiting for it when it does not
// fit now. More than the whole budget is a *publish.Final; a wait cut short is
// the context's error (the job is tried again).
func (a *admission) grow(ctx context.Context, cost int64) error {
	g := a.gate
	a.want = a.held + cost
	if a.want > g.budget {
		return &publish.Final{Why: comment.PlanTooLarge{NeedMiB: a.want >> 20, BudgetMiB: g.budget >> 20}}
	}
	if a.tryGrow(cost) {
		return nil
	}
	a.release()
	if err := g.sem.Acquire(ctx, a.want); err != nil {
		return fmt.Errorf("wait for %d MiB of the worker's memory: %w", a.want>>20, err)
	}
	a.held = a.want
	return nil
}

// tryGrow adds cost to what the job holds when it fits now (within the
// budget, without waiting), and reports whether it did.
func (a *admission) tryGrow(cost int64) bool {
	if cost <= 0 {
		return true
	}
	if a.held+cost > a.gate.budget || !a.gate.sem.TryAcquire(cost) {
		return false
	}
	a.held += cost
	return true
}

// shrink gives back n of what the job holds (an estimate that was too
// high, a zip whose plans are read).
func (a *admission) shrink(n int64) {
	n = min(n, a.held)
	if n > 0 {
		a.gate.sem.Release(n)
		a.held -= n
	}
}

// release gives back everything the job holds.
func (a *admission) release() { a.shrink(a.held) }

// notAdmitted logs that the job's plans were not admitted, and returns
// err.
func (a *admission) notAdmitted(ctx context.Context, err error) error {
	worklog.From(ctx).Warn("plans not admitted", "need_mib", a.want>>20, "budget_mib", a.gate.budget>>20, "err", err)
	return err
}
