package rules

import (
	"slices"

	"github.com/planwarden/planwarden/par"
)

// parallelSort is the number of findings from which sortFindings sorts
// two halves on two goroutines and merges them. Tests lower it.
var parallelSort = 20_000

// sortHalves sorts pos by order, a total order (the position is its last
// key), in two halves at once, then merges them into a new slice: the
// same order as sorting pos whole.
func sortHalves(pos []int32, order func(i, j int32) int) []int32 {
	half := len(pos) / 2
	a, b := pos[:half], pos[half:]
	par.Each(2, func(k int) { slices.SortFunc([][]int32{a, b}[k], order) })
	// The order is total (the position breaks ties), so the merged list is
	// one: the second goroutine merges its later half from the ends.
	out := make([]int32, len(pos))
	par.Each(2, func(k int) {
		if k == 0 {
			i, j := len(a)-1, len(b)-1
			for k := len(out) - 1; k >= half; k-- {
				if j < 0 || (i >= 0 && order(a[i], b[j]) > 0) {
					out[k], i = a[i], i-1
				} else {
					out[k], j = b[j], j-1
				}
			}
			return
		}
		i, j := 0, 0
		for k := range half {
			if i == len(a) || (j < len(b) && order(b[j], a[i]) < 0) {
				out[k], j = b[j], j+1
			} else {
				out[k], i = a[i], i+1
			}
		}
	})
	return out
}
