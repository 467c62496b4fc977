package comment

import (
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// actionItem is one action of the "Actions the apply will run" section:
// the list line, and its configuration as a collapsed <details>.
type actionItem struct{ line, config string }

// actionItems lists every project's actions, then the deferred ones.
func (v *view) actionItems() *lazyItems[actionItem] {
	type ref struct {
		p *review.Project
		i int
		a *review.Action
	}
	var out, deferred []ref
	for i, p := range v.r.Projects {
		for _, a := range p.Actions {
			out = append(out, ref{p, i, a})
		}
		for _, a := range p.DeferredActions {
			deferred = append(deferred, ref{p, i, a})
		}
	}
	all := append(out, deferred...)
	return newLazy(len(all), func(j int) actionItem { return v.action(all[j].p, all[j].i, all[j].a) })
}

func (v *view) action(p *review.Project, i int, a *review.Action) actionItem {
	s := code(a.Address)
	if v.multi {
		s += " in " + code(v.projectName(p, i))
	}
	if a.DeferredReason != "" {
		s += " is deferred to a later plan (" + text(a.DeferredReason) + "); it will run "
	} else {
		s += " runs "
	}
	if a.Source != nil {
		s += a.Source.When(func(x string) string {
			if x == a.Source.Event { // the only word When quotes that is no address
				x = planparse.ShownName(x)
			}
			return code(x)
		})
	}
	if a.OnFailure != "" {
		s += "; on failure: " + text(a.OnFailure)
	}
	if a.Type != "" {
		s += " (" + code(a.Type) + ")"
	}
	return actionItem{line: s, config: v.actionConfig(a)}
}

// actionConfig renders an action's sanitized configuration like an
// attribute diff: one `path = value` line per set leaf, collapsed.
func (v *view) actionConfig(a *review.Action) string {
	if a.Source == nil {
		return ""
	}
	var lines []string
	size, total := 0, 0
	at := planparse.Place{Type: a.Type, Address: a.Address}
	v.r.Viewer.Leaves(at, a.Source.Config, func(path string, val planparse.Shown) {
		total++
		if len(lines) >= maxDiffLines || size > maxDiffBytes {
			return
		}
		l := clean(path, `\n`) + " = " + shownText(val)
		lines = append(lines, l)
		size += len(l)
	})
	if total == 0 {
		return ""
	}
	if n := total - len(lines); n > 0 {
		lines = append(lines, "… "+plural(n, "more attribute", "more attributes")+" not shown")
	}
	sum := "configuration of <code>" + htmlText(a.Address) + "</code> (" + plural(total, "attribute", "attributes") + ")"
	return execute("details", struct{ Summary, Body string }{sum, fenced("hcl", lines)})
}

// actions renders the actions the apply will run (at most limit when
// limit >= 0), each with its configuration, and says how many it left out.
func (v *view) actions(limit int) (string, int) {
	v.prepare()
	if v.actionList.n == 0 {
		return "", 0
	}
	items := v.actionList.first(limit)
	s := section{Heading: "Actions the apply will run",
		Intro: "Terraform runs these provider actions during the apply (Terraform 1.14+ `action` blocks): code that acts on real systems, beside the resource changes below."}
	configs := ""
	for _, it := range items {
		s.List = append(s.List, it.line)
		configs += it.config
	}
	n := v.actionList.n - len(items)
	if n > 0 {
		s.LeftOut = "_… and " + plural(n, "more action", "more actions") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s) + configs, n
}
