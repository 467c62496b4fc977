package comment

import (
	"strings"
	"testing"
)

// A layout called with another layout's data is a bug in this package: it
// stops with a message naming both, never renders the wrong piece.
func TestLayoutRefusesAnotherLayoutsData(t *testing.T) {
	t.Parallel()
	defer func() {
		p, _ := recover().(string)
		if !strings.Contains(p, "layout section called with comment.block") || !strings.Contains(p, `"block"`) {
			t.Errorf("panic = %q, want one naming the section layout and the block's data", p)
		}
	}()
	execute("section", block{Title: "x"})
}
