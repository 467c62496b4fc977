package comment

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// Size limits, in bytes. GitHub counts characters; a character is at least
// one byte in UTF-8 and at least one UTF-16 unit, so a body within these
// byte counts is within GitHub's limits however it counts.
const (
	// MaxCommentBytes is GitHub's limit on an issue comment body.
	MaxCommentBytes = 65536
	// MaxCheckBytes is GitHub's limit on a check run's output.summary and
	// output.text, each.
	MaxCheckBytes = 65535
	// MaxAnnotations is how many annotations GitHub takes per request.
	MaxAnnotations = 50
)

type table struct {
	Header []string
	Align  []string
	Rows   []string
}

func newTable(cols ...string) table {
	t := table{}
	for _, c := range cols {
		right := strings.HasSuffix(c, ">")
		c = strings.TrimSuffix(c, ">")
		t.Header = append(t.Header, c)
		if right {
			t.Align = append(t.Align, "---:")
		} else {
			t.Align = append(t.Align, "---")
		}
	}
	return t
}

func (t *table) add(cells ...string) {
	t.Rows = append(t.Rows, "| "+strings.Join(cells, " | ")+" |")
}

type section struct {
	Heading string
	Intro   string
	Table   table
	List    []string
	LeftOut string
}

// view is the report taken apart into the pieces the comment and the check
// run are made of. Every string in it is markdown, escaped.
type view struct {
	r      *review.Report
	opt    Options
	multi  bool
	total  review.Summary
	where  string            // where the full output is, as markdown
	issues map[issueKey]bool // project and address with a finding
	// gpuIssues: project and address with a finding of a gpu-* rule.
	gpuIssues map[issueKey]bool
	priced    bool // some change has an hourly figure

	// Listed once, rendered only as far as the budget needs.
	sorted        []*rules.Finding
	items         *lazyItems[findingItem]
	prepared      bool
	gpuTable      table // header only; the rows are gpuRows
	gpuRows       *lazyItems[string]
	unpriced      *lazyItems[string]
	endpointItems *lazyItems[string]
	actionList    *lazyItems[actionItem]
	// spot is spotBound's result, made once (the headline, the title and
	// the cost section all ask).
	spot *spotResult
}

type spotResult struct {
	b  spotBound
	ok bool
}

// lazyItems are the n items of a list, each rendered on first use and
// kept: a section cut to length renders only what it prints, so a plan of
// 20,000 changes costs what its comment shows, not what it holds.
type lazyItems[T any] struct {
	n      int
	render func(i int) T
	done   []T
}

func newLazy[T any](n int, render func(i int) T) *lazyItems[T] {
	return &lazyItems[T]{n: n, render: render}
}

// at is item i, rendering the items before it first (in order).
func (l *lazyItems[T]) at(i int) T {
	for len(l.done) <= i {
		l.done = append(l.done, l.render(len(l.done)))
	}
	return l.done[i]
}

// first returns the first k items, all of them when k < 0; the slice may
// not be appended to.
func (l *lazyItems[T]) first(k int) []T {
	if k < 0 || k > l.n {
		k = l.n
	}
	if k > 0 {
		l.at(k - 1)
	}
	return l.done[:k:k]
}

func newView(r *review.Report, opt Options) *view {
	if r == nil {
		r = &review.Report{Verdict: rules.VerdictPass}
	}
	n := 0
	for _, p := range r.Projects {
		n += len(p.Findings)
	}
	v := &view{r: r, opt: opt, multi: len(r.Projects) > 1, issues: make(map[issueKey]bool, n), gpuIssues: map[issueKey]bool{}}
	for _, p := range r.Projects {
		addSummary(&v.total, p.Summary)
		for _, c := range p.Changes {
			v.priced = v.priced || c.HourlyBefore() != nil || c.HourlyAfter() != nil
		}
		for _, f := range p.Findings {
			k := findingKey(f.Project, p.Name, f.Address)
			v.issues[k] = true
			if strings.HasPrefix(f.Rule, "gpu-") {
				v.gpuIssues[k] = true
			}
		}
	}
	if u := safeURL(opt.DetailsURL); u != "" {
		v.where = "[the planwarden check run](" + u + ")"
	} else {
		v.where = "the `planwarden` check run"
	}
	return v
}

// issueKey is a project and an address.
type issueKey struct{ project, address string }

func findingKey(fp, project, address string) issueKey {
	if fp == "" {
		fp = project
	}
	return issueKey{fp, address}
}

// safeURL returns u when it is an absolute http(s) URL that cannot break
// out of a markdown link, else "".
func safeURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return ""
	}
	s := p.String()
	if len(s) > 400 || strings.ContainsAny(s, " ()<>[]`\"'\\\n\r\t") {
		return ""
	}
	return s
}

func (v *view) projectName(p *review.Project, i int) string {
	switch {
	case p.Name != "":
		return p.Name
	case p.PlanFile != "":
		return p.PlanFile
	}
	return "project " + strconv.Itoa(i+1)
}

// headline is the verdict in plain words.
func (v *view) headline() string {
	block, warn, over := 0, 0, 0
	for _, p := range v.r.Projects {
		for _, f := range p.Findings {
			switch {
			case f.Override != nil:
				over++
			case f.Severity == rules.SeverityBlock:
				block++
			case f.Severity == rules.SeverityWarn:
				warn++
			}
		}
	}
	switch v.r.Verdict {
	case rules.VerdictFail:
		if block == 0 {
			return "🛑 Not ready to merge: the review failed"
		}
		return "🛑 Not ready to merge: " + plural(block, "blocking finding", "blocking findings") + " to fix or override"
	case rules.VerdictWarn:
		if warn == 0 {
			return "⚠️ OK to merge after a look"
		}
		return "⚠️ OK to merge after a look: " + plural(warn, "warning", "warnings")
	}
	if !changed(v.total) {
		return "✅ No changes: nothing to review"
	}
	if v.leftOut() > 0 {
		// No reassurance about cost that leaves resources out.
		s := "☑️ No findings, but " + v.leftOutText() + " left out of the cost estimate"
		if over > 0 {
			s = "☑️ Nothing left to worry about (" + plural(over, "finding was", "findings were") + " overridden), but " + v.leftOutText() + " left out of the cost estimate"
		}
		return s
	}
	if over > 0 {
		return "✅ Nothing left to worry about: " + plural(over, "finding was", "findings were") + " overridden"
	}
	return "✅ Nothing to worry about: no findings"
}

// title is the headline for the check run (plain text, no emoji).
func (v *view) title() string {
	h := v.headline()
	_, h, _ = strings.Cut(h, " ")
	if g := v.gpuTotals().text(); g != "" {
		// "GPUs 2 → 0 (V100); cost -\$5.81/h": a GPU loss never reads as a saving.
		h += " · GPUs " + g
		plain := func(s string) string { return strings.ReplaceAll(s, `\$`, "$") }
		if d := v.r.Totals.HourlyDelta; d != nil && money(d) != money(ptr(0)) {
			h += "; cost " + plain(delta(d)) + "/h"
		} else if sb, ok := v.spotBound(); ok && d == nil && sb.beforeKnown {
			x := sb.after - sb.before
			h += "; cost at most " + plain(delta(&x)) + "/h (spot at on-demand)"
		}
	}
	return truncate(h+" · "+counts(v.total), 200)
}

func (v *view) countsLine() string {
	v.prepare()
	s := ""
	// GPUs lead when they change, so a GPU loss never reads as a saving.
	if g := v.gpuTotals().text(); g != "" {
		s = "**GPUs:** " + g + " · "
	}
	s += "**Plan:** " + counts(v.total)
	if v.multi {
		s += " across " + groupInt(len(v.r.Projects)) + " projects"
	}
	return s + " · **Cost:** " + v.costHeadline()
}

// costHeadline is the headline's cost: the change per hour and per month
// ("no change" when it is 0), the change at maximum scale when it grows
// more than that, and the range after the change from every fleet's
// minimum to its maximum, so a pool that may scale to zero is never a
// bare \$0.00.
func (v *view) costHeadline() string {
	t := v.r.Totals
	var s string
	sb, spot := v.spotBound()
	switch {
	case !v.priced && v.unpriced.n == 0 && v.leftOut() > 0:
		return "not estimated (" + plural(v.leftOut(), "resource", "resources") + " that bill, listed under Cost)"
	case !v.priced && v.unpriced.n == 0:
		return "no priced resources"
	case t.HourlyDelta != nil && money(t.HourlyDelta) == money(ptr(0)):
		s = "no change at the expected scale"
	case t.HourlyDelta != nil:
		s = delta(t.HourlyDelta) + " per hour (" + delta(infra.Monthly(t.HourlyDelta)) + " per month)"
	case spot:
		return sb.text()
	default:
		s = "change unknown"
	}
	// The growth at maximum scale, when more than at the expected scale
	// and not already read from the range after (a fleet from nothing).
	if d, m := t.HourlyDelta, t.MaxHourlyDelta; d != nil && m != nil && *m > *d+0.005 && *m > 0.005 &&
		t.MaxHourlyBefore != nil && *t.MaxHourlyBefore > 0.005 {
		s += ", " + delta(m) + " per hour at maximum scale"
	}
	if r := costRange(t); r != "" {
		s += "; after it: " + r + " (expected " + money(t.HourlyAfter) + ")"
	}
	if spot && t.HourlyDelta != nil {
		// The priced part above, and the bound with the spot capacity.
		return s + "; with the spot capacity, " + sb.bound()
	}
	if n := v.unpriced.n; n > 0 {
		s += ", " + plural(n, "item", "items") + " not priced"
	}
	return s
}

func ptr(f float64) *float64 { return &f }

func (v *view) notes() []string {
	var out []string
	if v.opt.NoConfig {
		out = append(out, noConfigNote)
	}
	for i, n := range v.r.Notes {
		if i == maxNotes {
			out = append(out, "… and more notes: see the JSON report.")
			break
		}
		out = append(out, "ℹ️ "+text(n))
	}
	for i, p := range v.r.Projects {
		if len(out) == maxNotes {
			out = append(out, "… and more projects with incomplete plans: see their sections below.")
			break
		}
		name := code(v.projectName(p, i))
		if p.Errored {
			out = append(out, "⚠️ Planning failed part way in "+name+": the change list below is incomplete; fix the plan errors and plan again.")
		} else if !p.Complete {
			out = append(out, "ℹ️ The plan of "+name+" is not complete (changes were deferred or `-target` was used): another plan will follow the apply.")
		}
	}
	return out
}

// maxNotes is how many per-project warnings the verdict block lists.
const maxNotes = 5

func (v *view) verdict(leftOut string) string {
	notes := v.notes()
	if leftOut != "" {
		notes = append(notes, leftOut)
	}
	return execute("verdict", struct {
		Headline, Counts string
		Notes            []string
	}{v.headline(), v.countsLine(), notes})
}

// prepare lists, once, the items of the sections that are cut to length
// when the budget is short; each item is rendered when first printed or
// measured.
func (v *view) prepare() {
	if v.prepared {
		return
	}
	v.prepared = true
	v.sorted = v.allFindings()
	v.items = newLazy(len(v.sorted), func(i int) findingItem { return v.finding(v.sorted[i]) })
	v.gpuTable, v.gpuRows = v.gpuList()
	var eps []changeRef
	for i, p := range v.r.Projects {
		for _, c := range p.Changes {
			if c.Action() == string(planparse.ActionReplace) && isEndpoint(c) {
				eps = append(eps, changeRef{p, i, c})
			}
		}
	}
	v.endpointItems = newLazy(len(eps), func(j int) string { return v.endpoint(eps[j].p, eps[j].i, eps[j].c) })
	v.unpriced = v.unpricedItems()
	v.actionList = v.actionItems()
}

// changeRef is a change with its project and the project's index.
type changeRef struct {
	p *review.Project
	i int
	c *review.Change
}

// headFits reports whether the findings, GPU, endpoint and unpriced lists,
// cut to limit items each (all when limit < 0), can fit in budget bytes:
// false when a lower bound on their size is over it. It renders items only
// until the bound passes the budget.
func (v *view) headFits(limit, budget int) bool {
	v.prepare()
	n := 0
	take := func(count int) int {
		if limit >= 0 && count > limit {
			return limit
		}
		return count
	}
	for i := range take(v.items.n) {
		it := v.items.at(i)
		if n += len(it.Lead) + len(it.Todo) + 8; n > budget {
			return false
		}
	}
	for _, l := range []*lazyItems[string]{v.gpuRows, v.endpointItems, v.unpriced} {
		extra := 3
		if l == v.gpuRows {
			extra = 1
		}
		for i := range take(l.n) {
			if n += len(l.at(i)) + extra; n > budget {
				return false
			}
		}
	}
	for i := range take(v.actionList.n) {
		a := v.actionList.at(i)
		if n += len(a.line) + len(a.config) + 3; n > budget {
			return false
		}
	}
	return true
}

// footer is the last line: which commit and plan the comment is about.
func (v *view) footer() string {
	var parts []string
	if sha := strings.ToLower(v.opt.HeadSHA); hexRE().MatchString(sha) {
		parts = append(parts, "commit "+code(sha[:min(len(sha), 12)]))
	}
	if t := v.planTime(); !t.IsZero() {
		parts = append(parts, "plan of "+t.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	if len(parts) == 0 {
		return ""
	}
	return "\n---\n_planwarden reviewed " + strings.Join(parts, ", ") + "._\n"
}

// planTime is opt.PlanTime, else the latest timestamp of the projects' plans.
func (v *view) planTime() time.Time {
	if !v.opt.PlanTime.IsZero() {
		return v.opt.PlanTime
	}
	var latest time.Time
	for _, p := range v.r.Projects {
		if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil && t.After(latest) {
			latest = t
		}
	}
	return latest
}
