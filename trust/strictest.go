package trust

import (
	"cmp"
	"slices"
)

// PRResult is one open pull request's current result for a commit it
// heads: the conclusion its own review reached under its own base, or ""
// while it waits (for a plan, a run, a re-decision).
type PRResult struct {
	Number     int
	Base       string
	Conclusion string
}

// conclusionRank orders check conclusions from the strictest: a failure
// of any kind, then waiting (""), then neutral, then success and skipped.
// A conclusion planwarden does not know ranks with the failures.
func conclusionRank(c string) int {
	switch c {
	case "success", "skipped":
		return 3
	case "neutral":
		return 2
	case "":
		return 1
	}
	return 0 // failure, action_required, timed_out, cancelled, stale, anything else
}

// Strictest returns the result that decides the check of a commit that
// is the head of several open pull requests: the strictest of their
// current results (a failure over waiting, waiting over neutral, neutral
// over success), the lowest pull request number among equals. One pull
// request's result never loosens another's: a stale or neutral review of
// one cannot turn the commit's failed check of another neutral. False
// when results is empty.
func Strictest(results []PRResult) (PRResult, bool) {
	if len(results) == 0 {
		return PRResult{}, false
	}
	return slices.MinFunc(results, func(a, b PRResult) int {
		if c := cmp.Compare(conclusionRank(a.Conclusion), conclusionRank(b.Conclusion)); c != 0 {
			return c
		}
		return cmp.Compare(a.Number, b.Number)
	}), true
}
