package receiver

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// woken records whether a hold's blocked read was interrupted.
type woken struct {
	mu  sync.Mutex
	any bool
}

func (w *woken) wake(t time.Time) {
	if t.Before(time.Unix(2, 0)) && !t.IsZero() {
		w.mu.Lock()
		w.any = true
		w.mu.Unlock()
	}
}

func (w *woken) was() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.any }

// A body that has read for PreemptAfter and is behind its pace loses its
// place to one that waits; a body on its pace keeps it, and without a
// waiter nobody loses anything.
func TestASlowBodyLosesItsPlaceToAWaitingOne(t *testing.T) {
	const pace, after = 10 * time.Second, 500 * time.Millisecond
	tests := map[string]struct {
		slowRead    int64 // bytes of 1000 the second body has read after 1 s
		waiter      bool
		wantPreempt bool
	}{
		"slow body, a delivery waits":       {slowRead: 0, waiter: true, wantPreempt: true},
		"body on its pace, one waits":       {slowRead: 150, waiter: true, wantPreempt: false},
		"slow body, nobody waits":           {slowRead: 0, waiter: false, wantPreempt: false},
		"barely behind pace, a waiter":      {slowRead: 90, waiter: true, wantPreempt: true},
		"exactly on pace, a waiter":         {slowRead: 100, waiter: true, wantPreempt: false},
		"slow, read for under PreemptAfter": {slowRead: -1, waiter: true, wantPreempt: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			clock := &fakeClock{t: time.Unix(1_000_000, 0)}
			g := newGate(2000, after, pace, clock.now)
			var fastW, slowW woken
			fast, err := g.acquire(1000, time.Second, nil, fastW.wake)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := g.acquire(1000, time.Second, nil, slowW.wake)
			if err != nil {
				t.Fatal(err)
			}
			fast.read.Store(1000)
			if tc.slowRead >= 0 {
				slow.read.Store(tc.slowRead)
				clock.add(time.Second)
			} else {
				clock.add(after / 2)
			}
			if !tc.waiter {
				g.mu.Lock()
				g.pumpLocked()
				g.mu.Unlock()
			} else {
				admitted := make(chan *hold, 1)
				go func() {
					h, err := g.acquire(1000, time.Minute, nil, nil)
					if err != nil {
						t.Error(err)
					}
					admitted <- h
				}()
				// The waiter has looked at the holds once it is listed.
				for deadline := time.Now().Add(time.Minute); ; {
					if _, waiting := g.counts(); waiting == 1 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("the waiter never waited")
					}
					time.Sleep(time.Millisecond)
				}
				g.mu.Lock()
				g.pumpLocked()
				g.mu.Unlock()
				defer func() {
					g.release(fast)
					g.release(<-admitted)
				}()
			}
			if got := slow.lost(); got != tc.wantPreempt || slowW.was() != tc.wantPreempt {
				t.Errorf("the slow body lost its place: %v (its read woken: %v); want %v", got, slowW.was(), tc.wantPreempt)
			}
			if fast.lost() || fastW.was() {
				t.Errorf("the body that arrived whole lost its place")
			}
			if tc.wantPreempt {
				if _, err := (&pacedBody{r: zeros{}, h: slow, grace: time.Hour, timeout: time.Hour, minRate: 1, now: clock.now}).Read(make([]byte, 8)); err != errPreempted {
					t.Errorf("a read of the preempted body = %v; want errPreempted", err)
				}
			}
			g.release(slow)
		})
	}
}

// Bodies that wait go in smallest first: a small delivery is not stuck
// behind large declared ones.
func TestWaitingBodiesGoInSmallestFirst(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	g := newGate(100, time.Hour, time.Hour, clock.now)
	first, err := g.acquire(100, time.Second, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Any two of them exceed the budget: one goes in at a time.
	sizes := []int64{90, 80, 50}
	order := make(chan int64, len(sizes))
	var wg sync.WaitGroup
	for i, size := range sizes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := g.acquire(size, time.Minute, nil, nil)
			if err != nil {
				t.Error(err)
				return
			}
			order <- size
			g.release(h)
		}()
		for deadline := time.Now().Add(time.Minute); ; {
			if _, waiting := g.counts(); waiting == i+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the waiters never waited")
			}
			time.Sleep(time.Millisecond)
		}
	}
	g.release(first)
	wg.Wait()
	close(order)
	var got []int64
	for s := range order {
		got = append(got, s)
	}
	if len(got) != 3 || got[0] != 50 || got[1] != 80 || got[2] != 90 {
		t.Errorf("admitted in the order %v; want [50 80 90] (smallest first, not in the order they came)", got)
	}
}

// A waiting body takes only as many places as it needs, however often the
// gate looks again before they are released; a body of no bytes, which
// holds nothing, never loses its place.
func TestOnlyAsManyLoseTheirPlaceAsTheWaitingBodyNeeds(t *testing.T) {
	tests := map[string]struct {
		budget    int64
		holds     []int64 // sizes; each has read nothing after 1 s, except 0-sized ones
		onPace    int     // holds after these that have read whole
		waiter    int64
		wantLoser int
	}{
		"three slow bodies, a waiter the size of one": {budget: 3000, holds: []int64{1000, 1000, 1000}, waiter: 1000, wantLoser: 1},
		"three slow bodies, a waiter the size of two": {budget: 3000, holds: []int64{1000, 1000, 1000}, waiter: 1500, wantLoser: 2},
		"a body of no bytes beside one on its pace":   {budget: 1000, holds: []int64{0}, onPace: 1, waiter: 1000, wantLoser: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			clock := &fakeClock{t: time.Unix(1_000_000, 0)}
			g := newGate(tc.budget, 500*time.Millisecond, 10*time.Second, clock.now)
			var holds []*hold
			for _, size := range tc.holds {
				h, err := g.acquire(size, time.Second, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				holds = append(holds, h)
			}
			for range tc.onPace {
				h, err := g.acquire(tc.budget-sum(tc.holds), time.Second, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				h.read.Store(h.size)
				holds = append(holds, h)
			}
			clock.add(time.Second)
			g.mu.Lock()
			g.waiting = append(g.waiting, &waiter{size: tc.waiter, ready: make(chan *hold, 1)})
			for range 3 { // the waiter looks again before anything is released
				g.pumpLocked()
			}
			g.mu.Unlock()
			losers := 0
			for _, h := range holds {
				if h.lost() {
					losers++
				}
			}
			if losers != tc.wantLoser {
				t.Errorf("%d bodies lost their place; want %d", losers, tc.wantLoser)
			}
		})
	}
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}
