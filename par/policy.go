package par

import "runtime"

// Work is a kind of work the pure core splits. Each kind has the size, in
// its own items, from which a second goroutine saves more time than it
// costs in CPU (measured on the generated plans of `make bench`); below
// it, and on one processor, the work stays on the calling goroutine.
type Work uint8

const (
	// Changes are a plan's changes: analysed by infra (in as many parts
	// as there are processors, one per 40,000 changes), checked by the
	// rules and made into the report's rows (on two goroutines).
	Changes Work = iota
	// Findings are the rules' findings, completed and sorted.
	Findings
	// Digests are the changes whose keyed digests are made (each decodes
	// every written attribute, so a smaller plan is worth splitting).
	Digests
	// Elements are the elements of one list of the JSON report.
	Elements
	// PlanChanges are the changes planparse makes of a plan's resource
	// changes as read, on two goroutines, counted in bytes of plan: from
	// 8 MiB (on the 30 MB brownfield plan Parse's wall time is 10%
	// shorter and its CPU no higher) up to 64 MiB, from which the work
	// stays on one goroutine again (on the 150 MB brownfield plan two
	// goroutines allocating while the collector frees the read's records
	// raised the review's peak RSS by about 6 MB).
	PlanChanges
	// PriorState is a plan's prior_state, read by planparse on a second
	// goroutine while the rest is read, counted in bytes of plan: the walk
	// back to it costs about a third of its read (35 ms of CPU on a 150 MB
	// plan), worth it only where that wall time counts.
	PriorState
)

// sizes are the sizes from which each kind of work is split.
var sizes = [...]int{Changes: 40_000, Findings: 20_000, Digests: 4096, Elements: 40_000,
	PlanChanges: 8 << 20, PriorState: 64 << 20}

// limits are the sizes from which a kind of work stays on one goroutine
// again (0: none).
var limits = [...]int{PlanChanges: 64 << 20, PriorState: 0}

// grain is how many items a part takes at a time where parts take the
// work in turn (the JSON report's elements).
const grain = 256

// Policy decides which work is split, into how many parts, and how much a
// part takes at a time. The zero Policy is the one to use: it splits work
// of at least its kind's size when the process has two processors or more.
type Policy struct {
	// Min, when positive, is the size from which every kind of work is
	// split, even on one processor and past a kind's limit, in place of
	// each kind's own: tests set
	// it to take the concurrent paths on small plans (and, with -race, to
	// check them), or to 1<<30 to keep all work on one goroutine.
	Min int
	// Grain, when positive, is how many items a part takes at a time
	// where parts take the work in turn (the default is 256).
	Grain int
}

// Split reports whether n items of work w are split: from the kind's
// size on (and never one item), below its limit where it has one, when
// the process has two processors or more.
func (p Policy) Split(w Work, n int) bool {
	size, procs := p.size(w)
	if p.Min <= 0 && int(w) < len(limits) && limits[w] > 0 && n >= limits[w] {
		return false
	}
	return procs >= 2 && n >= max(size, 2)
}

// Parts returns how many parts n items of work w are split into, for
// work that can go in more than two (infra's changes): one per processor,
// at most one per size items; 1 when it is not split.
func (p Policy) Parts(w Work, n int) int {
	if !p.Split(w, n) {
		return 1
	}
	size, procs := p.size(w)
	return max(1, min(procs, n/size))
}

// size is the size from which work w is split, and the processors it is
// split over.
func (p Policy) size(w Work) (size, procs int) {
	if p.Min > 0 {
		return p.Min, max(runtime.GOMAXPROCS(0), 2)
	}
	return sizes[w], runtime.GOMAXPROCS(0)
}

// Batch is how many items a part takes at a time where parts take the
// work in turn.
func (p Policy) Batch() int {
	if p.Grain > 0 {
		return p.Grain
	}
	return grain
}
