package comment

import (
	"embed"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"text/template"
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

//go:embed templates/*.tmpl
var templateFS embed.FS

// tmpl holds the layouts; a parse error stops the program at start-up.
var tmpl = template.Must(template.New("comment").ParseFS(templateFS, "templates/*.tmpl"))

func execute(name string, data any) string {
	var b strings.Builder
	if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
		// The templates and their data types are fixed at compile time:
		// an error here is a bug in this package, caught by its tests.
		panic("comment: template " + name + ": " + err.Error())
	}
	return b.String()
}

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
	where  string          // where the full output is, as markdown
	issues map[string]bool // project and address with a finding
	// gpuIssues: project and address with a finding of a gpu-* rule.
	gpuIssues map[string]bool
	priced    bool // some change has an hourly figure

	// Computed once, cut to length as the budget needs.
	sorted        []rules.Finding
	items         []findingItem
	prepared      bool
	gpuTable      *table
	unpriced      []string
	endpointItems []string
}

func newView(r *review.Report, opt Options) *view {
	if r == nil {
		r = &review.Report{Verdict: rules.VerdictPass}
	}
	v := &view{r: r, opt: opt, multi: len(r.Projects) > 1, issues: map[string]bool{}, gpuIssues: map[string]bool{}}
	for _, p := range r.Projects {
		addSummary(&v.total, p.Summary)
		for _, c := range p.Changes {
			v.priced = v.priced || c.HourlyBefore != nil || c.HourlyAfter != nil
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

func findingKey(fp, project, address string) string {
	if fp == "" {
		fp = project
	}
	return fp + "\x00" + address
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
	if over > 0 {
		return "✅ Nothing left to worry about: " + plural(over, "finding was", "findings were") + " overridden"
	}
	return "✅ Nothing to worry about: no findings"
}

// title is the headline for the check run (plain text, no emoji).
func (v *view) title() string {
	h := v.headline()
	_, h, _ = strings.Cut(h, " ")
	return truncate(h+" · "+counts(v.total), 200)
}

func (v *view) countsLine() string {
	v.prepare()
	s := "**Plan:** " + counts(v.total)
	if v.multi {
		s += " across " + groupInt(len(v.r.Projects)) + " projects"
	}
	t := v.r.Totals
	s += " · **Cost:** "
	switch {
	case !v.priced && len(v.unpriced) == 0:
		s += "no priced resources"
	case t.HourlyDelta != nil:
		s += delta(t.HourlyDelta) + " per hour (" + delta(monthly(t.HourlyDelta)) + " per month)"
	default:
		s += "change unknown"
	}
	if m, a := t.MaxHourlyAfter, t.HourlyAfter; m != nil && a != nil && money(m) != money(a) {
		s += ", up to " + money(m) + " per hour at maximum scale"
	}
	if n := len(v.unpriced); n > 0 {
		s += ", " + plural(n, "item", "items") + " not priced"
	}
	return s
}

func (v *view) notes() []string {
	var out []string
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

type findingItem struct{ Lead, Todo string }

type findingGroup struct {
	Heading string
	Items   []findingItem
}

// prepare computes, once, the items of the sections that are cut to
// length when the budget is short.
func (v *view) prepare() {
	if v.prepared {
		return
	}
	v.prepared = true
	v.sorted = v.allFindings()
	v.items = make([]findingItem, len(v.sorted))
	for i, f := range v.sorted {
		v.items[i] = v.finding(f)
	}
	v.gpuTable = v.gpuRows()
	v.endpointItems = []string{}
	for i, p := range v.r.Projects {
		for _, c := range p.Changes {
			if c.Action == string(planparse.ActionReplace) && isEndpoint(c) {
				v.endpointItems = append(v.endpointItems, v.endpoint(p, i, c))
			}
		}
	}
	v.unpriced = v.unpricedItems()
}

// headEstimate is a lower bound on the bytes the findings, GPU, endpoint
// and unpriced lists take when cut to limit items each (all when limit < 0),
// so layout renders only the cut that can fit.
func (v *view) headEstimate(limit int) int {
	v.prepare()
	n := 0
	take := func(count int) int {
		if limit >= 0 && count > limit {
			return limit
		}
		return count
	}
	for _, it := range v.items[:take(len(v.items))] {
		n += len(it.Lead) + len(it.Todo) + 8
	}
	for _, r := range v.gpuTable.Rows[:take(len(v.gpuTable.Rows))] {
		n += len(r) + 1
	}
	for _, e := range v.endpointItems[:take(len(v.endpointItems))] {
		n += len(e) + 3
	}
	for _, u := range v.unpriced[:take(len(v.unpriced))] {
		n += len(u) + 3
	}
	return n
}

// allFindings returns the findings of every project, blocking first, then
// overridden, warnings and notes; project order and rule order within.
func (v *view) allFindings() []rules.Finding {
	var fs []rules.Finding
	for _, p := range v.r.Projects {
		for _, f := range p.Findings {
			if f.Project == "" {
				f.Project = p.Name
			}
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(a, b rules.Finding) int { return severityRank(a) - severityRank(b) })
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
		gr.Items = append(gr.Items, v.items[i])
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

func (v *view) finding(f rules.Finding) findingItem {
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
		todo = "**What to do:** fix it in this pull request, or have someone allowed to override " + code(f.Rule) + " do so from the `planwarden` check run."
	default:
		todo = "**What to do:** nothing required; check that it is intended."
	}
	return findingItem{Lead: lead, Todo: todo}
}

// gpu renders the GPU resources changed (at most limit rows when limit >= 0).
func (v *view) gpu(limit int) (string, int) {
	v.prepare()
	all := v.gpuTable
	if len(all.Rows) == 0 {
		return "", 0
	}
	t := *all
	if limit >= 0 && len(t.Rows) > limit {
		t.Rows = t.Rows[:limit]
	}
	s := section{Heading: "GPU changes", Table: t,
		Intro: "Per resource: SKU, accelerators per node, node counts and the GPUs of the whole fleet (expected scale), before → after."}
	n := len(all.Rows) - len(t.Rows)
	if n > 0 {
		s.LeftOut = "_… and " + plural(n, "more GPU resource", "more GPU resources") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s), n
}

// gpuRows is one row per changed resource that has accelerators on either
// side, or that a gpu-* rule has a finding about; resources with findings
// first (they stay when the list is cut), plan order within.
func (v *view) gpuRows() *table {
	cols := []string{"Resource"}
	if v.multi {
		cols = append(cols, "Project")
	}
	cols = append(cols, "SKU", "GPUs per node", "Nodes min / expected / max", "Fleet GPUs", "Hourly")
	t := newTable(cols...)
	var later []string // rows without findings go after those with
	for i, p := range v.r.Projects {
		for _, c := range p.Changes {
			r := c.Resource
			if r == nil || actionKey(c) == "no-op" || actionKey(c) == "read" {
				continue
			}
			k := findingKey("", p.Name, c.Address)
			if !hasGPU(r.Before) && !hasGPU(r.After) && !v.gpuIssues[k] {
				continue
			}
			cells := []string{codeCell(c.Address)}
			if v.multi {
				cells = append(cells, codeCell(v.projectName(p, i)))
			}
			hb := money(r.Cost.HourlyBefore)
			if r.Before == nil {
				hb = "—"
			}
			ha := money(r.Cost.HourlyAfter)
			if r.After == nil {
				ha = "—"
			}
			cells = append(cells,
				beforeAfter(sideSKU(r.Before), sideSKU(r.After)),
				beforeAfter(perNode(r.Before), perNode(r.After)),
				beforeAfter(nodes(r.Before), nodes(r.After)),
				fleet(r),
				beforeAfter(hb, ha))
			if v.issues[k] {
				t.add(cells...)
			} else {
				later = append(later, "| "+strings.Join(cells, " | ")+" |")
			}
		}
	}
	t.Rows = append(t.Rows, later...)
	return &t
}

var endpointTypes = map[string]bool{
	"aws_sagemaker_endpoint":                      true,
	"azurerm_machine_learning_online_endpoint":    true,
	"azurerm_machine_learning_inference_endpoint": true,
	"google_vertex_ai_endpoint":                   true,
	"google_vertex_ai_index_endpoint":             true,
	"aws_bedrock_provisioned_model_throughput":    true,
	"azurerm_cognitive_deployment":                true,
	"databricks_model_serving":                    true,
	"azurerm_machine_learning_online_deployment":  true,
}

func isEndpoint(c *review.Change) bool {
	if c.Resource != nil {
		return c.Resource.Kind == infra.KindEndpoint
	}
	return endpointTypes[c.Type]
}

// endpoints lists serving endpoints that are replaced, with what forces it.
func (v *view) endpoints(limit int) (string, int) {
	v.prepare()
	total := len(v.endpointItems)
	if total == 0 {
		return "", 0
	}
	items := v.endpointItems
	if limit >= 0 && len(items) > limit {
		items = items[:limit]
	}
	s := section{Heading: "Serving endpoints to be replaced", List: items,
		Intro: "Replacing an endpoint destroys it and creates a new one; traffic to it is affected."}
	if n := total - len(items); n > 0 {
		s.LeftOut = "_… and " + plural(n, "more endpoint", "more endpoints") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s), total - len(items)
}

func (v *view) endpoint(p *review.Project, i int, c *review.Change) string {
	s := code(c.Address)
	if v.multi {
		s += " in " + code(v.projectName(p, i))
	}
	if p.Environment != "" {
		s += " (" + code(p.Environment) + ")"
	}
	s += ": "
	forced := v.forcing(c)
	switch {
	case len(forced) > 0:
		s += "replaced because " + strings.Join(forced, ", ") + " cannot be changed in place. "
	case c.Reason != "":
		s += "replaced because " + text(c.Reason) + ". "
	default:
		s += "replaced. "
	}
	switch c.ReplaceOrder {
	case string(planparse.CreateThenDelete):
		s += "The new endpoint is created before the old one is deleted; both bill while it runs."
	default:
		s += "The old endpoint is deleted first: requests fail until the new one is in service."
	}
	for _, rp := range c.ReplacePaths {
		if rp == "name" {
			s += " Its name changes, so callers that use the old name break."
			break
		}
	}
	return s
}

// forcing names the attributes that force a replace, with their values
// when the diff has them (at most 5).
func (v *view) forcing(c *review.Change) []string {
	var out []string
	var diffs []planparse.AttrDiff
	if c.Source != nil && len(c.ReplacePaths) > 0 {
		diffs = c.Source.Diff()
	}
	for _, rp := range c.ReplacePaths {
		if len(out) == 5 {
			out = append(out, "…")
			break
		}
		s := code(rp)
		for _, d := range diffs {
			if d.Path == rp {
				s += " (" + code(value(d.Before)) + " → " + code(value(d.After)) + ")"
				break
			}
		}
		out = append(out, s)
	}
	return out
}

// cost renders the cost section: totals, per project, unpriced items (at
// most limit unpriced items when limit >= 0).
func (v *view) cost(limit int) (string, int) {
	t := v.r.Totals
	v.prepare()
	total := len(v.unpriced)
	unpriced := slices.Clone(v.unpriced)
	if limit >= 0 && len(unpriced) > limit {
		unpriced = unpriced[:limit]
	}
	if !v.priced && total == 0 {
		if !changed(v.total) {
			return "", 0
		}
		return execute("section", section{Heading: "Cost", Intro: "Nothing in this plan has an hourly price in planwarden's catalog."}), 0
	}
	tb := newTable(" ", "Before>", "After>", "Change>")
	tb.add("Hourly", money(t.HourlyBefore), money(t.HourlyAfter), delta(t.HourlyDelta))
	tb.add("Monthly ("+strconv.Itoa(HoursPerMonth)+" h)", money(monthly(t.HourlyBefore)), money(monthly(t.HourlyAfter)), delta(monthly(t.HourlyDelta)))
	tb.add("Hourly at maximum scale", " ", money(t.MaxHourlyAfter), " ")
	s := section{Heading: "Cost", Table: tb,
		Intro: "Estimated on-demand USD for what this plan touches, at the expected node counts; unknown figures stay unknown, never 0."}
	if v.multi {
		var pr []string
		for i, p := range v.r.Projects {
			if limit >= 0 && i >= limit {
				pr = append(pr, "… and "+plural(len(v.r.Projects)-i, "more project", "more projects"))
				break
			}
			c := p.Cost
			pr = append(pr, code(v.projectName(p, i))+": "+money(c.HourlyBefore)+" → "+money(c.HourlyAfter)+" per hour ("+
				delta(c.HourlyDelta)+"; at maximum scale "+money(c.MaxHourlyAfter)+")")
		}
		s.List = pr
	}
	if len(unpriced) > 0 {
		s.List = append(s.List, unpriced...)
	}
	if n := total - len(unpriced); n > 0 {
		s.LeftOut = "_… and " + plural(n, "more unpriced item", "more unpriced items") + ", left out to fit; see " + v.where + "._"
	}
	return execute("section", s), total - len(unpriced)
}

// unpricedItems lists what has no price and why, once per item.
func (v *view) unpricedItems() []string {
	out := []string{}
	for i, p := range v.r.Projects {
		seen := map[review.Unpriced]bool{}
		for _, u := range p.Cost.Unpriced {
			if seen[u] {
				continue
			}
			seen[u] = true
			s := "Not priced: " + code(u.Address)
			if u.SKU != "" {
				s += " (" + code(u.SKU) + ")"
			}
			if v.multi {
				s += " in " + code(v.projectName(p, i))
			}
			out = append(out, s+": "+text(orUnknown(u.Reason, "no reason given")))
		}
	}
	return out
}

// block is one budgeted table or list of a project section.
type block struct {
	Title  string
	Header []string
	Align  []string
	Rows   []string
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
	out := make([]*review.Change, 0, len(p.Changes))
	for _, c := range p.Changes {
		if _, ok := actionRank[actionKey(c)]; ok {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *review.Change) int {
		return actionRank[actionKey(a)] - actionRank[actionKey(b)]
	})
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
	part := projectPart{head: execute("project", struct {
		Heading, Counts string
		Notes           []string
	}{heading, cl, nil})}

	changes := orderedChanges(p)
	if len(changes) > 0 {
		b := newBlock("**Resource changes**", "changes", "Action", "Resource", "Type", "Details")
		for _, c := range changes {
			b.add(actionLabel(actionKey(c)), codeCell(c.Address), codeCell(c.Type), details(c))
		}
		part.blocks = append(part.blocks, b)
	}
	if len(p.Drift) > 0 {
		b := newBlock("**Changed outside Terraform (drift)**: found on refresh, not caused by this pull request.", "drifted resources", "Action", "Resource", "Type")
		for _, c := range p.Drift {
			b.add(actionLabel(actionKey(c)), codeCell(c.Address), codeCell(c.Type))
		}
		part.blocks = append(part.blocks, b)
	}
	if len(p.Deferred) > 0 {
		b := newBlock("**Deferred to a later plan**", "deferred changes", "Resource", "Type", "Why")
		for _, c := range p.Deferred {
			b.add(codeCell(c.Address), codeCell(c.Type), text(orUnknown(c.DeferredReason, "no reason given")))
		}
		part.blocks = append(part.blocks, b)
	}
	if len(p.Outputs) > 0 {
		b := newBlock("**Output changes**", "output changes", "Output", "Action", "Before", "After")
		for _, o := range p.Outputs {
			if o.Action == string(planparse.ActionNoop) {
				continue
			}
			bf, af := o.Before, o.After
			if o.Sensitive { // review redacts already; this is the second line of defence
				if bf != "null" {
					bf = planparse.SensitiveText
				}
				if af != "null" && af != planparse.UnknownText {
					af = planparse.SensitiveText
				}
			}
			b.add(codeCell(o.Name), text(o.Action), codeCell(truncate(bf, maxValue)), codeCell(truncate(af, maxValue)))
		}
		if len(b.Rows) > 0 {
			part.blocks = append(part.blocks, b)
		}
	}
	var failing []*review.Check
	for _, c := range p.Checks {
		if c.Status == "fail" || c.Status == "error" {
			failing = append(failing, c)
		}
	}
	if len(failing) > 0 {
		b := newBlock("**Failing checks and conditions**", "failing checks", "Check", "Status", "Problem")
		for _, c := range failing {
			b.add(codeCell(c.Address), text(c.Status), text(truncate(strings.Join(c.Problems, "; "), 500)))
		}
		part.blocks = append(part.blocks, b)
	}
	return part
}

func newBlock(title, unit string, cols ...string) block {
	t := newTable(cols...)
	return block{Title: title, Header: t.Header, Align: t.Align, unit: unit}
}

func (b *block) add(cells ...string) {
	b.Rows = append(b.Rows, "| "+strings.Join(cells, " | ")+" |")
}

// details is the Details cell of a change row.
func details(c *review.Change) string {
	var parts []string
	if c.PreviousAddress != "" && c.PreviousAddress != c.Address {
		parts = append(parts, "moved from "+codeCell(c.PreviousAddress))
	}
	if c.Importing {
		parts = append(parts, "imported")
	}
	switch {
	case c.SKUBefore == c.SKUAfter:
	case c.Action == string(planparse.ActionCreate) || c.SKUBefore == "" && c.Action != string(planparse.ActionUpdate):
		parts = append(parts, "SKU "+codeCell(c.SKUAfter))
	case c.Action == string(planparse.ActionDelete):
		parts = append(parts, "SKU "+codeCell(c.SKUBefore))
	default:
		parts = append(parts, "SKU "+beforeAfter(skuCell(c.SKUBefore), skuCell(c.SKUAfter)))
	}
	if len(c.ReplacePaths) > 0 {
		ps := make([]string, 0, min(len(c.ReplacePaths), 4))
		for i, rp := range c.ReplacePaths {
			if i == 3 {
				ps = append(ps, "…")
				break
			}
			ps = append(ps, codeCell(rp))
		}
		parts = append(parts, "forced by "+strings.Join(ps, ", "))
	} else if c.Reason != "" {
		parts = append(parts, text(c.Reason))
	}
	switch c.ReplaceOrder {
	case string(planparse.CreateThenDelete):
		parts = append(parts, "new one first")
	case string(planparse.DeleteThenCreate):
		parts = append(parts, "deleted first")
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
	full := len(head)
	for _, r := range b.Rows {
		full += len(r) + 1
	}
	if full <= budget {
		var sb strings.Builder
		sb.Grow(full)
		sb.WriteString(head)
		for _, r := range b.Rows {
			sb.WriteString(r)
			sb.WriteByte('\n')
		}
		return sb.String(), 0
	}
	const noteRoom = 200
	var sb strings.Builder
	sb.WriteString(head)
	n := 0
	for _, r := range b.Rows {
		if sb.Len()+len(r)+1+noteRoom > budget {
			break
		}
		sb.WriteString(r)
		sb.WriteByte('\n')
		n++
	}
	left := len(b.Rows) - n
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
			if v.issues[findingKey("", p.Name, c.Address)] {
				first = append(first, it)
			} else {
				rest = append(rest, it)
			}
		}
	}
	return append(first, rest...)
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
	ds := c.Source.Diff()
	var lines []string
	size := 0
	for i, d := range ds {
		if i == maxDiffLines || size > maxDiffBytes {
			lines = append(lines, "… "+plural(len(ds)-i, "more attribute", "more attributes")+" not shown")
			break
		}
		var l string
		switch {
		case d.Before.IsNull() && !d.After.IsNull():
			l = "+ " + clean(d.Path, `\n`) + " = " + value(d.After)
		case d.After.IsNull() && !d.Before.IsNull():
			l = "- " + clean(d.Path, `\n`) + " = " + value(d.Before)
		default:
			l = "~ " + clean(d.Path, `\n`) + " = " + value(d.Before) + " -> " + value(d.After)
		}
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
	sum := "<code>" + htmlText(c.Address) + "</code> " + htmlText(actionWords(actionKey(c)))
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

// footer is the last line: which commit and plan the comment is about.
func (v *view) footer() string {
	var parts []string
	if sha := strings.ToLower(v.opt.HeadSHA); hexRE.MatchString(sha) {
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
