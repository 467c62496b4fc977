package review_test

import (
	"testing"

	"github.com/planwarden/planwarden/review"
)

// A create_before_destroy replacement that left a deposed object lists one
// address twice: the replacement and the deposed object's delete. Each row
// carries its own change's SKUs and figures, not those of the other change
// at the same address.
func TestRowsOfADeposedObjectKeepTheirOwnFigures(t *testing.T) {
	t.Parallel()
	p := parseFile(t, "../planparse/testdata/deposed-replace.json")
	rows := review.Build([]review.Input{{Name: "x", Plan: p}}, review.Options{}).Projects[0].Changes
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for i, want := range [][2]string{{"g5.xlarge", "g5.2xlarge"}, {"p3.2xlarge", ""}} {
		if got := [2]string{rows[i].SKUBefore(), rows[i].SKUAfter()}; got != want {
			t.Errorf("row %d (%s): SKUs %q, want %q", i, rows[i].Action(), got, want)
		}
	}
	if h := rows[1].HourlyAfter(); h == nil || *h != 0 {
		t.Errorf("the deposed object's delete costs %v per hour after; want 0", h)
	}
}
