package rules

import (
	"cmp"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/par"
)

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

// sortFindings puts findings in Result's order: by rank, project,
// address, rule and message, findings alike in all five keeping the order
// they came in. It sorts their positions (pattern-defeating quicksort, the
// position the last key, which makes it stable) and moves each finding
// once, rather than merging the 104-byte findings in place; many
// findings (pol) are sorted in two halves side by side.
func sortFindings(findings []Finding, pol par.Policy) {
	if len(findings) < 2 {
		return
	}
	pos := make([]int32, len(findings))
	ranks := make([]int8, len(findings))
	for i := range findings {
		pos[i], ranks[i] = int32(i), int8(rank(findings[i]))
	}
	order := func(i, j int32) int {
		if ranks[i] != ranks[j] {
			return cmp.Compare(ranks[i], ranks[j])
		}
		a, b := &findings[i], &findings[j]
		if c := strings.Compare(a.Project, b.Project); c != 0 {
			return c
		}
		if c := strings.Compare(a.Address, b.Address); c != 0 {
			return c
		}
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		if c := strings.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	}
	if pol.Split(par.Findings, len(pos)) {
		pos = sortHalves(pos, order)
	} else {
		slices.SortFunc(pos, order)
	}
	// Follow each cycle of the permutation: the finding at pos[k] goes to k.
	for start := range findings {
		if pos[start] < 0 {
			continue
		}
		held, k := findings[start], start
		for {
			from := int(pos[k])
			pos[k] = -1
			if from == start {
				findings[k] = held
				break
			}
			findings[k] = findings[from]
			k = from
		}
	}
}

func rank(f Finding) int {
	switch {
	case f.Severity == SeverityBlock && f.Override == nil:
		return 0
	case f.Severity == SeverityBlock:
		return 1
	case f.Severity == SeverityWarn:
		return 2
	}
	return 3
}
