package receiver

import (
	"cmp"
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The body gate: a webhook body is read only once its declared size
// (Content-Length) fits in a byte budget, and it must keep arriving at a
// minimum rate. Waiting bodies are admitted smallest first, and when one
// waits, a body that has read for PreemptAfter and is behind the pace that
// would finish it within BodyTimeout (the slowest first) loses its place:
// its read fails at once. A stranger who opens many connections and
// drips bytes holds no budget for long, while GitHub's deliveries, small and
// sent at network speed, go in ahead of large declared ones.

var (
	errBusy      = errors.New("busy: too many webhook deliveries at once")
	errTooSlow   = errors.New("body arrived too slowly")
	errPreempted = errors.New("body arrived too slowly: its place went to a delivery that was waiting")
)

// gate admits bodies by their declared size against a budget of bytes.
type gate struct {
	budget       int64
	preemptAfter time.Duration
	pace         time.Duration // a body of n bytes should arrive within pace
	now          func() time.Time

	mu       sync.Mutex
	reserved int64 // bytes of the holds, preempted ones until they are released
	holds    map[*hold]struct{}
	waiting  []*waiter
	seq      uint64
	// changed, when set (tests), learns every admission, preemption and
	// release.
	changed func()
}

// hold is one body's place in the budget.
type hold struct {
	size  int64
	start time.Time
	read  atomic.Int64 // bytes arrived so far

	// mu orders a preemption against the reader setting its deadline, so
	// the reader never blocks again after it lost its place.
	mu        sync.Mutex
	preempted bool
	wake      func(t time.Time) // sets the connection's read deadline; nil: cannot
}

type waiter struct {
	size  int64
	seq   uint64
	wake  func(time.Time)
	ready chan *hold
}

func newGate(budget int64, preemptAfter, pace time.Duration, now func() time.Time) *gate {
	return &gate{budget: budget, preemptAfter: preemptAfter, pace: pace, now: now, holds: map[*hold]struct{}{}}
}

// acquire waits up to wait for size bytes of the budget; stop ends the
// wait early (the request's context). wake, when not nil, interrupts the
// body's blocked read (a read deadline in the past).
func (g *gate) acquire(size int64, wait time.Duration, stop <-chan struct{}, wake func(time.Time)) (*hold, error) {
	w := &waiter{size: size, wake: wake, ready: make(chan *hold, 1)}
	g.mu.Lock()
	g.seq++
	w.seq = g.seq
	g.waiting = append(g.waiting, w)
	g.pumpLocked()
	g.mu.Unlock()
	g.notify()
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	// A body becomes preemptible as time passes (it falls behind its
	// pace), not only when something is released: look again meanwhile.
	recheck := time.NewTicker(max(g.preemptAfter/4, 10*time.Millisecond))
	defer recheck.Stop()
	for {
		select {
		case h := <-w.ready:
			return h, nil
		case <-recheck.C:
			g.mu.Lock()
			n := len(g.holds)
			g.pumpLocked()
			changed := n != len(g.holds)
			g.mu.Unlock()
			if changed {
				g.notify()
			}
		case <-timeout.C:
			if h := g.leave(w); h != nil {
				return h, nil
			}
			return nil, errBusy
		case <-stop:
			if h := g.leave(w); h != nil {
				g.release(h)
			}
			return nil, errBusy
		}
	}
}

// leave takes w off the waiting list, or returns the hold it was given
// meanwhile.
func (g *gate) leave(w *waiter) *hold {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i := slices.Index(g.waiting, w); i >= 0 {
		g.waiting = slices.Delete(g.waiting, i, i+1)
		return nil
	}
	return <-w.ready
}

// release gives a hold's bytes back and admits who fits now. A hold
// released is no longer in g.holds, so it is never preempted after.
func (g *gate) release(h *hold) {
	g.mu.Lock()
	if _, ok := g.holds[h]; ok {
		delete(g.holds, h)
		g.reserved -= h.size
	}
	g.pumpLocked()
	g.mu.Unlock()
	g.notify()
}

func (g *gate) notify() {
	if g.changed != nil {
		g.changed()
	}
}

// pumpLocked admits the waiting bodies that fit, smallest first; when the
// smallest does not fit, the slowest bodies lose their place until it
// would (it is admitted when they are released).
func (g *gate) pumpLocked() {
	slices.SortFunc(g.waiting, func(a, b *waiter) int {
		if c := cmp.Compare(a.size, b.size); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	now := g.now()
	for len(g.waiting) > 0 {
		w := g.waiting[0]
		if g.reserved+w.size <= g.budget {
			h := &hold{size: w.size, start: now, wake: w.wake}
			g.holds[h] = struct{}{}
			g.reserved += w.size
			g.waiting = g.waiting[1:]
			w.ready <- h
			continue
		}
		var freeing int64
		for h := range g.holds {
			if h.preempted {
				freeing += h.size
			}
		}
		for short := g.reserved - freeing + w.size - g.budget; short > 0; {
			v := g.victimLocked(now)
			if v == nil {
				break
			}
			v.preempt()
			short -= v.size
		}
		return
	}
}

// victimLocked is the hold furthest behind its pace among those that have
// read for preemptAfter and are behind it, or nil.
func (g *gate) victimLocked(now time.Time) *hold {
	var (
		victim *hold
		worst  float64
	)
	for h := range g.holds {
		// A body of no bytes holds nothing (and its request's context
		// would end with a read deadline in the past).
		if h.preempted || h.size == 0 {
			continue
		}
		elapsed := now.Sub(h.start)
		if elapsed < g.preemptAfter {
			continue
		}
		// The share of the body that arrived, against the share of pace
		// that passed: below 1 it will not arrive in time.
		progress := (float64(h.read.Load()) / float64(h.size)) / (float64(elapsed) / float64(g.pace))
		if progress >= 1 {
			continue
		}
		if victim == nil || progress < worst {
			victim, worst = h, progress
		}
	}
	return victim
}

// preempt makes the hold's reads fail from now on, waking a blocked one.
func (h *hold) preempt() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.preempted = true
	if h.wake != nil {
		h.wake(time.Unix(1, 0))
	}
}

// lost reports whether the hold lost its place.
func (h *hold) lost() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.preempted
}

// counts reports the bodies holding a place and waiting for one (tests).
func (g *gate) counts() (holding, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.holds), len(g.waiting)
}

// pacedBody reads a held body: by any moment t after its start at least
// minRate × (t − grace) bytes must have arrived, and all of it within
// timeout; a preempted hold's reads fail.
type pacedBody struct {
	r       io.Reader
	h       *hold
	grace   time.Duration
	timeout time.Duration
	minRate int64 // bytes per second
	now     func() time.Time
}

func (p *pacedBody) Read(b []byte) (int, error) {
	h := p.h
	h.mu.Lock()
	if h.preempted {
		h.mu.Unlock()
		return 0, errPreempted
	}
	read := h.read.Load()
	deadline := h.start.Add(min(p.timeout, p.grace+time.Duration(read*int64(time.Second)/p.minRate)))
	if !p.now().Before(deadline) {
		h.mu.Unlock()
		return 0, errTooSlow
	}
	if h.wake != nil {
		h.wake(deadline)
	}
	h.mu.Unlock()
	n, err := p.r.Read(b)
	h.read.Add(int64(n))
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		h.mu.Lock()
		preempted := h.preempted
		h.mu.Unlock()
		if preempted {
			return n, errPreempted
		}
		return n, errTooSlow
	}
	return n, err
}
