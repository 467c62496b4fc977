package comment

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// actions is the order changes are listed in, with the words used for them.
var actions = [...]struct{ key, verb, label string }{
	{"create", "to create", "create"},
	{"update", "to update in place", "update"},
	{"replace", "to replace", "**replace**"},
	{"delete", "to delete", "**delete**"},
	{"move", "to move", "move"},
	{"import", "to import", "import"},
	{"forget", "to forget (removed from state, kept in the cloud)", "forget"},
	{"read", "to read (data sources)", "read"},
}

var actionRank = func() map[string]int {
	m := map[string]int{}
	for i, a := range actions {
		m[a.key] = i
	}
	return m
}()

// actionKey is the group a change is listed under: its action, or move /
// import for a change that only moves or imports.
func actionKey(c *review.Change) string {
	if c.Action() == string(planparse.ActionNoop) || c.Action() == "" {
		switch {
		case c.PreviousAddress() != "" && c.PreviousAddress() != c.Address():
			return "move"
		case c.Importing():
			return "import"
		}
		return "no-op"
	}
	return c.Action()
}

func actionLabel(key string) string {
	if i, ok := actionRank[key]; ok {
		return actions[i].label
	}
	return text(key)
}

// counts says how many changes there are per action, in words.
func counts(s review.Summary) string {
	n := map[string]int{"create": s.Create, "update": s.Update, "replace": s.Replace, "delete": s.Delete,
		"move": s.Move, "import": s.Import, "forget": s.Forget, "read": s.Read}
	var parts []string
	for _, a := range actions {
		if n[a.key] > 0 {
			parts = append(parts, groupInt(n[a.key])+" "+a.verb)
		}
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

func addSummary(a *review.Summary, b review.Summary) {
	a.Create += b.Create
	a.Update += b.Update
	a.Delete += b.Delete
	a.Replace += b.Replace
	a.Move += b.Move
	a.Import += b.Import
	a.Read += b.Read
	a.Forget += b.Forget
	a.NoOp += b.NoOp
}

func changed(s review.Summary) bool {
	return s.Create+s.Update+s.Delete+s.Replace+s.Move+s.Import+s.Read+s.Forget > 0
}

// money formats USD with a thousands separator; nil reads "unknown".
// The dollar sign is escaped so GitHub never reads "$...$" as math.
func money(f *float64) string {
	if f == nil {
		return "unknown"
	}
	return infra.FormatUSD(*f, `\$`)
}

// delta formats a signed USD difference: +\$4.20, -\$1.00, \$0.00.
func delta(f *float64) string {
	if f == nil {
		return "unknown"
	}
	if math.Round(*f*100) > 0 {
		return "+" + money(f)
	}
	if math.Round(*f*100) == 0 {
		z := 0.0
		return money(&z)
	}
	return money(f)
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return groupInt(n) + " " + many
}

// groupInt formats n with thousands separators: 20,000.
func groupInt(n int) string {
	if n < 0 {
		return "-" + groupInt(-n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// shownText renders a value as the report's Viewer shows it, on one line:
// a string shown whole quoted (with newlines and control characters
// escaped), anything else as it reads, cut at maxValue bytes.
func shownText(v planparse.Shown) string {
	s := v.Text
	if v.Whole {
		// Only what can be printed is quoted: the quote of a longer
		// string starts with the quote of this prefix, and is cut
		// within it.
		if len(s) > maxValue {
			cut := maxValue
			for cut < len(s) && !utf8.RuneStart(s[cut]) {
				cut++
			}
			s = s[:cut]
		}
		s = strconv.Quote(s)
	}
	return truncate(clean(s, `\n`), maxValue)
}

// diffLine is one line of an attribute diff of project p:
// "+ path = value", "- path = value", "~ path = before -> after", or
// "~ path = (text, ...)" for a text that changed.
func diffLine(p *review.Project, d planparse.ShownDiff) string {
	path := clean(d.Path, `\n`)
	switch {
	case d.Text != "":
		return string(d.Op) + " " + path + " = " + truncate(clean(d.Text, `\n`), maxValue)
	case d.Op == '+':
		return "+ " + path + " = " + valueIn(p, d.After)
	case d.Op == '-':
		return "- " + path + " = " + valueIn(p, d.Before)
	}
	return "~ " + path + " = " + valueIn(p, d.Before) + " -> " + valueIn(p, d.After)
}

// shownChange is a changed value for prose: the summary of a text, else
// both sides, each through quote.
func shownChange(p *review.Project, d planparse.ShownDiff, quote func(string) string) string {
	if d.Text != "" {
		return quote(d.Text)
	}
	return quote(valueIn(p, d.Before)) + " → " + quote(valueIn(p, d.After))
}

const maxValue = 300

// perNode says what accelerators one node (instance) of a side carries.
func perNode(s *infra.Side) string {
	if s == nil {
		return "—"
	}
	if len(s.Groups) == 0 {
		if s.SKU == "" {
			return "unknown"
		}
		return "none"
	}
	var parts []string
	for gi := range s.Groups {
		g := &s.Groups[gi]
		var items []string
		if g.SKU.HasGPU() {
			items = append(items, text(orUnknown(g.SKU.GPUModel, "accelerator"))+" × "+num(g.SKU.GPUCount))
		}
		for _, a := range g.Attached {
			if a.Count == 0 { // infra's accelerator known only after apply
				items = append(items, text(planparse.ShownName(a.Type)))
				continue
			}
			items = append(items, text(orUnknown(a.GPUModel, planparse.ShownName(a.Type)))+" × "+strconv.Itoa(a.Count))
		}
		p := strings.Join(items, " + ")
		switch {
		case p != "":
		case g.Serverless:
			p = "serverless"
		case !g.SKU.Known && g.SKU.Name != "":
			p = "unknown (SKU not in the catalog)"
		case g.SKU.Name == "":
			p = "unknown"
		default:
			p = "none"
		}
		if len(s.Groups) > 1 && g.Name != "" {
			p = codeCell(planparse.ShownName(g.Name)) + ": " + p
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

func orUnknown(s, alt string) string {
	if s != "" {
		return s
	}
	return alt
}

// nodes says min / expected / max per group of a side.
func nodes(s *infra.Side) string {
	if s == nil {
		return "—"
	}
	var parts []string
	for gi := range s.Groups {
		g := &s.Groups[gi]
		var p string
		switch {
		case g.Scale.Unknown:
			p = "known after apply"
		case g.Serverless:
			p = "serverless"
		case g.SKU.Name == "" && g.Scale == (infra.Scale{}):
			// No SKU and no count read (an endpoint whose configuration
			// is not in the plan): unknown, not 0 nodes.
			p = "unknown"
		default:
			p = fmt.Sprintf("%d / %d / %d", g.Scale.Min, g.Scale.Expected, g.Scale.Max)
		}
		if len(s.Groups) > 1 && g.Name != "" {
			p = codeCell(planparse.ShownName(g.Name)) + ": " + p
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, "; ")
}

func sideSKU(s *infra.Side) string {
	if s == nil {
		return "—"
	}
	if s.SKU == "" {
		return "unknown"
	}
	return codeCell(planparse.ShownName(s.SKU))
}

// hourlyRange is a resource's hourly figure at the expected scale, with
// what an autoscaled fleet can reach: "\$7.35 (up to \$146.92)", and
// "\$0.00 to \$36.73" for a pool expected at zero nodes (never a bare
// \$0.00). A figure at another region's list price is marked "≈".
func hourlyRange(exp, lo, hi *float64, approx bool) string {
	mark := ""
	if approx && exp != nil {
		mark = "≈"
	}
	s := mark + money(exp)
	switch {
	case exp == nil || hi == nil || money(hi) == money(exp):
		return s
	case lo != nil && money(lo) == money(exp) && math.Round(*exp*100) == 0:
		return s + " to " + money(hi)
	case lo != nil && money(lo) != money(exp):
		// Expected, minimum and maximum all differ: say each.
		return s + " (min " + money(lo) + ", max " + money(hi) + ")"
	}
	return s + " (up to " + money(hi) + ")"
}

// fleet is a resource's fleet GPUs before and after; a side whose
// accelerators or count are not known reads "unknown", never 0.
func fleet(before, after *infra.Side) string {
	eb, ea := before.GPUs(false), after.GPUs(false)
	mb, ma := before.GPUs(true), after.GPUs(true)
	kb, ka := before.GPUsKnown(), after.GPUsKnown()
	s := gpuCount(eb, kb) + " → " + gpuCount(ea, ka)
	if (kb && mb != eb) || (ka && ma != ea) {
		s += " (at max " + gpuCount(mb, kb) + " → " + gpuCount(ma, ka) + ")"
	}
	return s
}

func gpuCount(n float64, known bool) string {
	if !known {
		return "unknown"
	}
	return num(n)
}

// beforeAfter joins two cells with an arrow, or shows one when they agree.
func beforeAfter(b, a string) string {
	if b == a {
		return a
	}
	return b + " → " + a
}

// severityRank orders findings: blocking first.
func severityRank(f *rules.Finding) int {
	if f.Override != nil {
		return 1
	}
	switch f.Severity {
	case rules.SeverityBlock:
		return 0
	case rules.SeverityWarn:
		return 2
	}
	return 3
}
