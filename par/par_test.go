package par

import (
	"slices"
	"testing"
)

func TestEachRunsEveryPartOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5} {
		got := make([]int, n)
		Each(n, func(k int) { got[k]++ })
		want := make([]int, n)
		for k := range want {
			want[k] = 1
		}
		if !slices.Equal(got, want) {
			t.Errorf("Each(%d): parts ran %v times, want once each", n, got)
		}
	}
}

// A part's panic reaches the caller after every part has stopped, the
// lowest part's first.
func TestEachRaisesAPartsPanicOnceAllStopped(t *testing.T) {
	for _, panicking := range [][]int{{0}, {2}, {1, 2}} {
		done := make([]bool, 3)
		got := func() (p any) {
			defer func() { p = recover() }()
			Each(3, func(k int) {
				defer func() { done[k] = true }()
				if slices.Contains(panicking, k) {
					panic(k)
				}
			})
			return nil
		}()
		if got != panicking[0] {
			t.Errorf("parts %v panicking: the caller got %v, want part %d's panic", panicking, got, panicking[0])
		}
		if !slices.Equal(done, []bool{true, true, true}) {
			t.Errorf("parts %v panicking: the panic came before every part stopped (%v)", panicking, done)
		}
	}
}
