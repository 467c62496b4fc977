package planparse

import (
	"sync"
	"sync/atomic"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// A big plan's prior_state is read on a second goroutine while the main
// one reads the sections before it (planned_values, resource_changes):
// prior_state is a quarter to a third of a plan's bytes, and Terraform
// writes it after resource_changes. The second goroutine finds it from the
// end of the plan, walking the top-level members back (only configuration,
// relevant_attributes, checks and a few flags come after it), and reads it
// as the main goroutine would: readState is a function of the plan's
// bytes and the section's offset alone. The main goroutine takes that read
// only when it meets a "prior_state" member at that same offset, and then
// appends the read's secret notes to its own at that point, so the plan,
// the notes and the first error (with its offset) are those of one pass.

// How big a plan must be for each of these (and for making its changes on
// two goroutines) is par's policy: par.PriorState and par.PlanChanges.

// stateRead is prior_state read on a second goroutine.
type stateRead struct {
	v     int // the offset of the section's value
	done  chan struct{}
	end   int
	err   error
	raw   rawJSON
	scan  stateScan
	notes *secret.Notes
	// panicked is what the read panicked with, raised by take.
	panicked any
}

// startPriorRead starts the read of the plan's last top-level
// "prior_state" member on a new goroutine, or returns nil for a plan the
// policy does not split (par.PriorState) or where the walk back finds no
// such member.
func startPriorRead(data []byte, pol par.Policy) *stateRead {
	if !pol.Split(par.PriorState, len(data)) {
		return nil
	}
	v, ok := jsonscan.LastMember(data, "prior_state")
	if !ok {
		return nil
	}
	r := &stateRead{v: v, done: make(chan struct{}), notes: secret.NewNotes(data),
		scan: stateScan{root: []string{"values", "root_module"}}}
	go func() {
		defer close(r.done)
		defer func() { r.panicked = recover() }()
		r.end, r.err = readState(data, v, 1, &r.raw, r.notes, &r.scan)
	}()
	return r
}

// wait waits for the read to end (a nil read has nothing to wait for).
func (r *stateRead) wait() {
	if r != nil {
		<-r.done
	}
}

// take waits for the read and gives it to the main read, which meets
// prior_state where it began. A read that panicked panics here, in
// Parse's caller, as the same read on the calling goroutine would (a
// server that recovers from it keeps running); a read the main one never
// takes raises nothing, as it would not have run.
func (r *stateRead) take() (rawJSON, stateScan, *secret.Notes, int, error) {
	r.wait()
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.raw, r.scan, r.notes, r.end, r.err
}

// changeError is the first change newChanges could not make.
type changeError struct {
	i       int    // its index
	at      int    // its offset in the plan
	address string // its address, as the plan has it
	err     error
}

// newChanges makes the changes of records (read.go) into out (one a
// record, in order), a chunk of records at a time and each chunk of
// wireRecords let go once made (see Parse), on two goroutines when both is
// true. It returns the error of the first record (by index) that is no
// change, where a one-goroutine pass stops.
func newChanges(records *wireList, z *sanitizer, out []*Change, both bool) *changeError {
	starts := make([]int, len(records.recs))
	for k, n := 0, 0; k < len(records.recs); k++ {
		starts[k], n = n, n+len(records.recs[k])
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		first *changeError
	)
	work := func() {
		for {
			k := int(next.Add(1) - 1)
			if k >= len(starts) {
				return
			}
			recs, slab := records.recs[k], records.changes[k]
			records.recs[k] = nil
			mu.Lock()
			failed := first != nil && first.i < starts[k]
			mu.Unlock()
			if failed {
				continue // a one-goroutine pass stops before this chunk
			}
			for j := range recs {
				r := recs[j].unpack(records.data, records.odd)
				c, err := newChange(&r, z, &slab[j])
				if err != nil {
					mu.Lock()
					if i := starts[k] + j; first == nil || i < first.i {
						first = &changeError{i, r.at, slab[j].Address, err}
					}
					mu.Unlock()
					break
				}
				out[starts[k]+j] = c
			}
		}
	}
	parts := 1
	if both && len(starts) >= 2 {
		parts = 2
	}
	par.Each(parts, func(int) { work() })
	return first
}
