package secret

import (
	"sync"
	"weak"
)

// liveSets are the secret sets of the plans still in memory, so that a log
// line quoting a plan string hides what the plan's review hides (RedactText);
// a set leaves when its plan is collected.
var liveSets struct {
	sync.Mutex
	sets []weak.Pointer[Set]
}

// Remember makes s one of the live sets.
func Remember(s *Set) {
	if s.Len() == 0 {
		return
	}
	liveSets.Lock()
	defer liveSets.Unlock()
	kept := liveSets.sets[:0]
	for _, p := range liveSets.sets {
		if p.Value() != nil {
			kept = append(kept, p)
		}
	}
	liveSets.sets = append(kept, weak.Make(s))
}

// Live returns the live sets.
func Live() []*Set {
	liveSets.Lock()
	defer liveSets.Unlock()
	var out []*Set
	for _, p := range liveSets.sets {
		if s := p.Value(); s != nil {
			out = append(out, s)
		}
	}
	return out
}
