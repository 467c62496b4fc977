package comment

import (
	"slices"

	"github.com/planwarden/planwarden/rules"
)

type findingItem struct{ Lead, Todo string }

type findingGroup struct {
	Heading string
	Items   []findingItem
}

// allFindings returns the findings of every project, blocking first, then
// overridden, warnings and notes; project order and rule order within.
func (v *view) allFindings() []*rules.Finding {
	n := 0
	for _, p := range v.r.Projects {
		n += len(p.Findings)
	}
	fs := make([]*rules.Finding, 0, n)
	for _, p := range v.r.Projects {
		for i := range p.Findings {
			f := &p.Findings[i]
			if f.Project == "" {
				c := *f
				c.Project = p.Name
				f = &c
			}
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(a, b *rules.Finding) int { return severityRank(a) - severityRank(b) })
	return fs
}

var groupHeadings = []string{
	"🛑 Must be fixed or overridden before merging",
	"✔️ Overridden",
	"⚠️ Worth a look",
	"ℹ️ For information",
}

// findings renders at most limit findings (all when limit < 0) and says
// how many it left out.
func (v *view) findings(limit int) (string, int) {
	v.prepare()
	fs := v.sorted
	if len(fs) == 0 {
		return "", 0
	}
	shown := fs
	if limit >= 0 && len(fs) > limit {
		shown = fs[:limit]
	}
	var groups []findingGroup
	for i, f := range shown {
		g := severityRank(f)
		if len(groups) == 0 || groups[len(groups)-1].Heading != groupHeadings[g] {
			groups = append(groups, findingGroup{Heading: groupHeadings[g]})
		}
		gr := &groups[len(groups)-1]
		gr.Items = append(gr.Items, v.items.at(i))
	}
	left := ""
	if n := len(fs) - len(shown); n > 0 {
		left = "_… and " + plural(n, "more finding", "more findings") + ", left out to fit; see " + v.where + "._"
	}
	return execute("findings", struct {
		Groups  []findingGroup
		LeftOut string
	}{groups, left}), len(fs) - len(shown)
}

func (v *view) finding(f *rules.Finding) findingItem {
	lead := code(f.Rule)
	if f.Address != "" {
		lead += " on " + code(f.Address)
	}
	if v.multi && f.Project != "" {
		lead += " in " + code(f.Project)
	}
	lead += ": " + prose(truncate(f.Message, 1000))
	var todo string
	switch {
	case f.Override != nil:
		o := f.Override
		todo = "**Overridden** by " + code(o.By)
		if !o.At.IsZero() {
			todo += " on " + o.At.UTC().Format("2006-01-02 15:04 UTC")
		}
		if o.Reason != "" {
			todo += ": " + text(truncate(o.Reason, 500))
		}
	case f.Remedy != "":
		todo = "**What to do:** " + prose(truncate(f.Remedy, 1000))
	case f.Severity == rules.SeverityBlock:
		todo = "**What to do:** fix it in this pull request, or have someone allowed to override " + code(f.Rule) + " do so by commenting " + code("/override "+f.Rule) + "."
	default:
		todo = "**What to do:** nothing required; check that it is intended."
	}
	return findingItem{Lead: lead, Todo: todo}
}
