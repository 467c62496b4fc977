package secret

import "sync/atomic"

// The detector's work is bounded, per value and per plan, so that a hostile
// plan cannot hold a worker for minutes: a 20 MB script of 400,000
// WEIGHTS_KEY=<random> lines is a match of two rules on every line, and a
// text holding every rule's keyword runs every rule's regex (some read 3 MB
// a second) over each of its windows. The bound fails closed: a value the
// budget does not cover is found secret whole (Find reports it, Has says
// so), after whatever was found in it before.
//
// Work is counted, not timed: the bytes the rules' regexes read (a window
// each time a rule runs on it), the bytes of documents decoded, and the
// matches judged (each costs the allow-lists' regexes and stop words).

// Per value: 4 MiB of regex reading is 64 runs on a full window, and 4,096
// matches many times what a real script or document holds. Per plan (a
// Set's budget): 8 values' worth. The slowest rules read about 3 MB a
// second, a match costs up to 75 µs: about a second a value, ten a plan.
// The plans of the shared corpus spend at most 88 KB and 66 matches.
const (
	valueScanBudget  = 4 << 20
	valueMatchBudget = 4096
	planScanBudget   = 8 * valueScanBudget
	planMatchBudget  = 8 * valueMatchBudget
)

// Budget is what the detector has spent on one plan's values (a Set's).
// Its zero value is a full budget; it is safe for concurrent use.
type Budget struct {
	scanned, matched atomic.Int64
	// scanLimit and matchLimit replace planScanBudget and planMatchBudget
	// when not 0 (tests).
	scanLimit, matchLimit int64
}

func (b *Budget) limits() (scan, match int64) {
	scan, match = planScanBudget, planMatchBudget
	if b.scanLimit != 0 {
		scan = b.scanLimit
	}
	if b.matchLimit != 0 {
		match = b.matchLimit
	}
	return scan, match
}

// Exhausted reports whether the plan's budget is spent: every value searched
// since has been found secret whole.
func (b *Budget) Exhausted() bool {
	if b == nil {
		return false
	}
	scan, match := b.limits()
	return b.scanned.Load() > scan || b.matched.Load() > match
}

// work is the budget of one search of a value (and of the blobs and
// documents it holds), and what it spent.
type work struct {
	plan                *Budget // nil: no plan budget
	planScan, planMatch int64   // plan's limits
	// runs counts the charges for reading (regex runs and documents),
	// scanned their bytes, matched the matches judged.
	runs, scanned, matched int
	over                   bool // spent: the search stops and the value is found whole
}

// newWork starts the search of a value, charged to plan when not nil; it is
// over at once when the plan's budget is spent.
func newWork(plan *Budget) *work {
	w := &work{plan: plan}
	if plan != nil {
		w.planScan, w.planMatch = plan.limits()
		w.over = plan.Exhausted()
	}
	return w
}

// scan charges n bytes of regex reading or decoding, reporting whether
// the budget covers them.
func (w *work) scan(n int) bool {
	if w.over {
		return false
	}
	w.runs++
	w.scanned += n
	if w.scanned > valueScanBudget || w.plan != nil && w.plan.scanned.Add(int64(n)) > w.planScan {
		w.over = true
	}
	return !w.over
}

// match charges one match judged, reporting whether the budget covers it.
func (w *work) match() bool {
	if w.over {
		return false
	}
	w.matched++
	if w.matched > valueMatchBudget || w.plan != nil && w.plan.matched.Add(1) > w.planMatch {
		w.over = true
	}
	return !w.over
}

// Budget returns the detector's budget for the set's plan (nil for a nil
// set).
func (s *Set) Budget() *Budget {
	if s == nil {
		return nil
	}
	return &s.work
}

// Find is Find charged to the set's plan budget.
func (s *Set) Find(x, name string, found func(string)) {
	findValue(x, name, s.Budget(), found)
}

// HasClass is HasClass charged to the set's plan budget.
func (s *Set) HasClass(x, name string, c NameClass) bool {
	return hasClass(x, name, c, s.Budget())
}
