// Package par runs the parts of one piece of work side by side: the pure
// core's large-plan paths (planparse, infra, rules, review) split their
// work in parts whose results go to fixed places, so the outcome is that
// of one goroutine whatever the scheduling.
package par

import "sync"

// Each runs part(0) to part(n-1) at once, part(n-1) on the calling
// goroutine and the others on goroutines of their own, and returns when
// every part has returned. A part that panics panics in the caller, as it
// would on one goroutine (a server that recovers from a panic keeps
// running), once every part has stopped; of several, the lowest part's
// panic is raised.
func Each(n int, part func(k int)) {
	if n <= 0 {
		return
	}
	panics := make([]any, n)
	run := func(k int) {
		defer func() { panics[k] = recover() }()
		part(k)
	}
	var wg sync.WaitGroup
	for k := range n - 1 {
		wg.Go(func() { run(k) })
	}
	run(n - 1)
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
