package comment

import (
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// block is one budgeted table or list of a project section; its rows are
// rendered as far as they are measured or printed.
type block struct {
	Title  string
	Header []string
	Align  []string
	rows   *lazyItems[string]
	unit   string
}

type projectPart struct {
	head   string
	blocks []block
}

// orderedChanges returns a project's changes in the order they are listed:
// by action (create, update, replace, delete, move, import, forget, read),
// plan order within; no-ops left out.
func orderedChanges(p *review.Project) []*review.Change {
	// A stable sort by action is one pass per action: ranks are few.
	ranks := make([]int8, len(p.Changes))
	var count [len(actions)]int
	for i, c := range p.Changes {
		ranks[i] = -1
		if r, ok := actionRank[actionKey(c)]; ok {
			ranks[i] = int8(r)
			count[r]++
		}
	}
	var start [len(actions)]int
	for r := 1; r < len(actions); r++ {
		start[r] = start[r-1] + count[r-1]
	}
	out := make([]*review.Change, start[len(actions)-1]+count[len(actions)-1])
	for i, c := range p.Changes {
		if r := ranks[i]; r >= 0 {
			out[start[r]] = c
			start[r]++
		}
	}
	return out
}

func (v *view) project(p *review.Project, i int) projectPart {
	heading := "Changes in " + code(v.projectName(p, i))
	if p.Environment != "" {
		heading += " (" + code(p.Environment) + ")"
	}
	cl := counts(p.Summary)
	if p.PlanFile != "" && p.PlanFile != p.Name {
		cl += " · plan " + code(p.PlanFile)
	}
	if p.Summary.NoOp > 0 {
		cl += " · " + groupInt(p.Summary.NoOp) + " unchanged"
	}
	var notes []string
	if len(p.ProviderUpgrades) > 0 {
		notes = append(notes, upgradeProjectNote(p.ProviderUpgrades))
	}
	part := projectPart{head: execute("project", struct {
		Heading, Counts string
		Notes           []string
	}{heading, cl, notes})}

	if changes := orderedChanges(p); len(changes) > 0 {
		b := newBlock("**Resource changes**", "changes", len(changes), func(i int) []string {
			c := changes[i]
			return []string{actionLabel(actionKey(c)), codeCell(c.Address()), codeCell(c.Type()), details(c)}
		}, "Action", "Resource", "Type", "Details")
		part.blocks = append(part.blocks, b)
	}
	if len(p.Drift) > 0 {
		b := newBlock("**Changed outside Terraform (drift)**: found on refresh, not caused by this pull request.", "drifted resources", len(p.Drift), func(i int) []string {
			c := p.Drift[i]
			return []string{actionLabel(actionKey(c)), codeCell(c.Address()), codeCell(c.Type())}
		}, "Action", "Resource", "Type")
		part.blocks = append(part.blocks, b)
	}
	if len(p.Deferred) > 0 {
		b := newBlock("**Deferred to a later plan**", "deferred changes", len(p.Deferred), func(i int) []string {
			c := p.Deferred[i]
			return []string{codeCell(c.Address()), codeCell(c.Type()), text(orUnknown(c.DeferredReason, "no reason given"))}
		}, "Resource", "Type", "Why")
		part.blocks = append(part.blocks, b)
	}
	var outputs []*review.Output
	for _, o := range p.Outputs {
		if o.Action != string(planparse.ActionNoop) {
			outputs = append(outputs, o)
		}
	}
	if len(outputs) > 0 {
		b := newBlock("**Output changes**", "output changes", len(outputs), func(i int) []string {
			o := outputs[i]
			bf, af := o.Before, o.After
			if o.Sensitive { // review redacts already; this is the second line of defence
				if bf != "null" {
					bf = planparse.SensitiveText
				}
				if af != "null" && af != planparse.UnknownText {
					af = planparse.SensitiveText
				}
			}
			return []string{codeCell(o.Name), text(o.Action), codeCell(truncate(bf, maxValue)), codeCell(truncate(af, maxValue))}
		}, "Output", "Action", "Before", "After")
		part.blocks = append(part.blocks, b)
	}
	if b, ok := skippedBlock(p); ok {
		part.blocks = append(part.blocks, b)
	}
	var failing []*review.Check
	for _, c := range p.Checks {
		if c.Status == "fail" || c.Status == "error" {
			failing = append(failing, c)
		}
	}
	if len(failing) > 0 {
		b := newBlock("**Failing checks and conditions**", "failing checks", len(failing), func(i int) []string {
			c := failing[i]
			return []string{codeCell(c.Address), text(c.Status), text(truncate(strings.Join(c.Problems, "; "), 500))}
		}, "Check", "Status", "Problem")
		part.blocks = append(part.blocks, b)
	}
	return part
}

// newBlock is a block of n rows whose cells cells(i) gives.
func newBlock(title, unit string, n int, cells func(i int) []string, cols ...string) block {
	t := newTable(cols...)
	return block{Title: title, Header: t.Header, Align: t.Align, unit: unit,
		rows: newLazy(n, func(i int) string { return "| " + strings.Join(cells(i), " | ") + " |" })}
}

// size is the bytes of the block's head and rows, counted only until they
// pass limit (a figure over limit is not the whole size).
func (b block) size(head string, limit int) int {
	n := len(head)
	for i := 0; i < b.rows.n && n <= limit; i++ {
		n += len(b.rows.at(i)) + 1
	}
	return n
}

// details is the Details cell of a change row.
func details(c *review.Change) string {
	var parts []string
	if c.PreviousAddress() != "" && c.PreviousAddress() != c.Address() {
		parts = append(parts, "moved from "+codeCell(c.PreviousAddress()))
	}
	if c.Importing() {
		parts = append(parts, "imported")
	}
	if d := c.Source.Deposed; d != "" {
		// The address is listed twice: its current object's change and
		// this one, to the object a create_before_destroy left behind.
		parts = append(parts, "deposed object "+codeCell(planparse.ShownName(d)))
	}
	switch {
	case c.SKUBefore() == c.SKUAfter():
	case c.Action() == string(planparse.ActionCreate) || c.SKUBefore() == "" && c.Action() != string(planparse.ActionUpdate):
		parts = append(parts, "SKU "+codeCell(c.SKUAfter()))
	case c.Action() == string(planparse.ActionDelete):
		parts = append(parts, "SKU "+codeCell(c.SKUBefore()))
	default:
		parts = append(parts, "SKU "+beforeAfter(skuCell(c.SKUBefore()), skuCell(c.SKUAfter())))
	}
	if r := c.Resource; r != nil {
		side := r.After
		if side == nil {
			side = r.Before
		}
		if m := capacityMark(side); m != "" {
			parts = append(parts, text(m))
		}
		if d := diskNote(side); d != "" {
			parts = append(parts, d)
		}
	}
	if reg := c.PriceRegion(); reg != "" {
		// The region whose list prices the row's figures are.
		mark := ""
		if c.PriceBasis() == infra.BasisApproximate {
			mark = "≈ "
		}
		parts = append(parts, mark+"priced in "+codeCell(reg))
	}
	if len(c.ReplacePaths()) > 0 {
		ps := make([]string, 0, min(len(c.ReplacePaths()), 4))
		for i, rp := range c.ReplacePaths() {
			if i == 3 {
				ps = append(ps, "…")
				break
			}
			ps = append(ps, codeCell(rp))
		}
		parts = append(parts, "forced by "+strings.Join(ps, ", "))
	} else if c.Reason() != "" {
		parts = append(parts, text(c.Reason()))
	}
	if n := len(c.TriggersActions); n > 0 {
		as := make([]string, 0, min(n, 3))
		for i, a := range c.TriggersActions {
			if i == 2 && n > 3 {
				as = append(as, "… "+plural(n-2, "more action", "more actions"))
				break
			}
			as = append(as, codeCell(a))
		}
		parts = append(parts, "triggers "+strings.Join(as, ", "))
	}
	switch c.ReplaceOrder() {
	case string(planparse.CreateThenDelete):
		parts = append(parts, "new one first")
	case string(planparse.DeleteThenCreate):
		parts = append(parts, "deleted first")
	}
	if len(c.ProviderUpgrades) > 0 {
		parts = append(parts, upgradeNote(c.ProviderUpgrades))
	}
	if len(parts) == 0 {
		return " "
	}
	return strings.Join(parts, "; ")
}

func skuCell(s string) string {
	if s == "" {
		return "none"
	}
	return codeCell(s)
}

// render fits a block into budget bytes: title, header and as many rows as
// fit, and a line saying how many rows were left out. It returns the text
// and the rows left out; nothing at all when not even the header fits.
func (v *view) renderBlock(b block, budget int) (string, int) {
	head := execute("block", b)
	if full := b.size(head, budget); full <= budget {
		var sb strings.Builder
		sb.Grow(full)
		sb.WriteString(head)
		for _, r := range b.rows.first(-1) {
			sb.WriteString(r)
			sb.WriteByte('\n')
		}
		return sb.String(), 0
	}
	const noteRoom = 200
	var sb strings.Builder
	sb.WriteString(head)
	n := 0
	for ; n < b.rows.n; n++ {
		r := b.rows.at(n)
		if sb.Len()+len(r)+1+noteRoom > budget {
			break
		}
		sb.WriteString(r)
		sb.WriteByte('\n')
	}
	left := b.rows.n - n
	note := "\n_… and " + groupInt(left) + " more " + b.unit + " in this table, left out to fit; see " + v.where + "._\n"
	if n == 0 {
		s := "\n" + b.Title + ": " + groupInt(left) + " " + b.unit + ", left out to fit; see " + v.where + ".\n"
		if len(s) > budget {
			return "", left
		}
		return s, left
	}
	sb.WriteString(note)
	return sb.String(), left
}

// diffOrder lists changes whose attribute diffs are shown: those with
// findings first, then every listed change in table order.
func (v *view) diffOrder() []diffItem {
	var first, rest []diffItem
	for i, p := range v.r.Projects {
		for _, c := range orderedChanges(p) {
			if c.Source == nil {
				continue
			}
			it := diffItem{p: p, i: i, c: c}
			if v.issues[findingKey("", p.Name, c.Address())] {
				first = append(first, it)
			} else {
				rest = append(rest, it)
			}
		}
	}
	return append(first, rest...)
}

// diffCount is how many changes diffOrder lists.
func (v *view) diffCount() int {
	n := 0
	for _, p := range v.r.Projects {
		for _, c := range p.Changes {
			if _, ok := actionRank[actionKey(c)]; ok && c.Source != nil {
				n++
			}
		}
	}
	return n
}

type diffItem struct {
	p *review.Project
	i int
	c *review.Change
}

const (
	maxDiffLines = 80
	maxDiffBytes = 8000
)

// diff renders one change's attribute diff as a collapsed <details>. It is
// the only place that decodes a change's values.
func (v *view) diff(it diffItem) string {
	c := it.c
	ds := v.r.Viewer.Diff(c.Source)
	var lines []string
	size := 0
	for i, d := range ds {
		if i == maxDiffLines || size > maxDiffBytes {
			lines = append(lines, "… "+plural(len(ds)-i, "more attribute", "more attributes")+" not shown")
			break
		}
		l := diffLine(it.p, d)
		if d.ForcesReplacement {
			l += "   # forces replacement"
		}
		lines = append(lines, l)
		size += len(l)
	}
	var body string
	if len(lines) == 0 {
		body = "No attribute changes.\n"
	} else {
		body = fenced("diff", lines)
	}
	sum := "<code>" + htmlText(c.Address()) + "</code> " + htmlText(actionWords(actionKey(c)))
	if v.multi {
		sum += " in <code>" + htmlText(v.projectName(it.p, it.i)) + "</code>"
	}
	if len(ds) == 0 {
		sum += " (no attribute changes)"
	} else {
		sum += " (" + plural(len(ds), "attribute", "attributes") + ")"
	}
	return execute("details", struct{ Summary, Body string }{sum, body})
}

func actionWords(key string) string {
	switch key {
	case "create":
		return "will be created"
	case "update":
		return "will be updated in place"
	case "replace":
		return "will be replaced"
	case "delete":
		return "will be deleted"
	case "move":
		return "will be moved"
	case "import":
		return "will be imported"
	case "forget":
		return "will be removed from state"
	case "read":
		return "will be read"
	}
	return key
}
