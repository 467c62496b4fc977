package comment

import (
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// valueIn renders a diff value of project p: a value an ARM what-if could
// not evaluate reads "(known after deploy)".
func valueIn(p *review.Project, s planparse.Shown) string {
	if s.Text == planparse.UnknownText && !s.Whole && p.Tool == planparse.ToolWhatIf {
		return planparse.UnknownDeployText
	}
	return shownText(s)
}

// deployNote completes the diff heading when some project is a what-if.
func (v *view) deployNote() string {
	for _, p := range v.r.Projects {
		if p.Tool == planparse.ToolWhatIf {
			return "; in an ARM what-if, values ARM evaluates only during the deployment read `" + planparse.UnknownDeployText + "`"
		}
	}
	return ""
}

// skippedBlock lists the what-if entries ARM did not evaluate.
func skippedBlock(p *review.Project) (block, bool) {
	if len(p.Skipped) == 0 {
		return block{}, false
	}
	b := newBlock("**Not evaluated by the what-if**: ARM says what it will not predict; check these by hand.", "skipped resources",
		len(p.Skipped), func(i int) []string {
			s := p.Skipped[i]
			return []string{codeCell(s.Address), codeCell(s.Type), text(s.ChangeType), text(s.Reason)}
		}, "Resource", "Type", "Change type", "Why")
	return b, true
}
