// Package comment renders a review.Report as the PR comment (markdown) and
// as the check run's output, within GitHub's size limits.
//
// The comment reads top to bottom as a reviewer needs it: the verdict with
// counts per action and the hourly cost delta; findings, blocking first,
// each with what to do; GPU changes; serving endpoints to be replaced; cost;
// the changes of each project by action, drift apart; and a collapsed
// <details> per resource with its attribute diff. Everything taken from a
// plan, a config or a user is escaped so it can inject no markdown
// structure, HTML, link or @mention.
//
// The package is pure: no I/O, no logging.
package comment

import (
	"strconv"
	"strings"
	"time"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// Options say what the rendered comment is for.
type Options struct {
	// HeadSHA and PlanTime go into the hidden marker, so the bot can find
	// its comment and refuse to overwrite a newer plan with an older one.
	// HeadSHA must be hex (anything else is left out of the marker); a zero
	// PlanTime means the latest plan timestamp of the report's projects.
	HeadSHA  string
	PlanTime time.Time
	// Marker adds the hidden marker (the bot); the CLI leaves it out.
	Marker bool
	// DetailsURL is where the full output lives (the check run), for the
	// "left out" line when the comment is shrunk. Only an absolute http(s)
	// URL is linked.
	DetailsURL string
	// ProjectRuns are the workflow runs whose plans the report's projects
	// come from, by project name; with them, and with more than one
	// project, the check's summary and the comment end with a table per
	// project (environment, verdict, plan run, age of the plan at Now).
	ProjectRuns map[string]Run
	Now         time.Time
	// Locate, when set, says where in the repository the resource of a
	// finding is declared, for check-run annotations. The plan JSON holds
	// no source positions, so without Locate there are no annotations.
	Locate func(project, address string) (path string, line int, ok bool)
	// NoConfig says the review ran without a repo config (the defaults
	// applied); the verdict block then says so in one line, and how to
	// add one.
	NoConfig bool
}

// noConfigNote is the line a review without a repo config carries.
const noConfigNote = "ℹ️ No `.github/planwarden.yml` was found: planwarden's defaults apply, and a plan whose environment nobody named is judged as if it were `prod`. `planwarden init` writes a config that declares your projects and their environments."

// Render returns the PR comment markdown: one comment for every project of
// the report, in the report's order. With opt.Marker its first line is the
// hidden marker (see Marker). The body is at most MaxCommentBytes bytes:
// when the whole review would be longer, per-resource diffs are left out
// first (from the end; resources with findings are shown first), then rows
// of the change tables (each project keeps a fair share); findings, GPU
// changes, endpoint replacements and cost stay whole unless they alone
// exceed the limit. A visible line under the verdict says what was left out
// and points to opt.DetailsURL. Diffs are decoded only for the resources
// shown, so a very large plan renders in time proportional to its change
// count, not its size.
func Render(r *review.Report, opt Options) string {
	v := newView(r, opt)
	marker := ""
	if opt.Marker {
		marker = Marker{Version: MarkerVersion, HeadSHA: opt.HeadSHA, PlanTime: v.planTime()}.line() + "\n"
	}
	return marker + v.layout(MaxCommentBytes-len(marker), true, true, v.projectTable()+v.footer(),
		"see "+v.where+" for more, or run `planwarden review --format json` on the plan for everything")
}

// noteRoom is kept free for the "left out" line under the verdict.
const noteRoom = 1200

// headCaps are the list lengths tried, in order, when the findings, GPU,
// endpoint and cost sections alone do not fit.
var headCaps = []int{-1, 1000, 300, 100, 30, 10, 3, 0}

// layout assembles a body of at most limit bytes: the verdict, then (with
// withHead) findings, GPU, endpoints and cost, then (with withChanges) the
// project tables and the per-resource diffs. see says where the rest is.
func (v *view) layout(limit int, withHead, withChanges bool, footer, see string) string {
	var lost []string
	budget := limit - len(footer) - noteRoom
	if withHead {
		budget -= len(v.verdict(""))
	}
	head := ""
	if withHead {
		var left [5]int
		for _, k := range headCaps {
			if k != 0 && !v.headFits(k, budget) {
				continue
			}
			var parts [5]string
			parts[0], left[0] = v.findings(k)
			parts[1], left[1] = v.gpu(k)
			parts[2], left[2] = v.endpoints(k)
			parts[3], left[3] = v.actions(k)
			parts[4], left[4] = v.cost(k)
			head = strings.Join(parts[:], "")
			if len(head) <= budget {
				break
			}
		}
		if len(head) > budget { // cannot happen with cap 0; stay safe
			head = ""
			lost = append(lost, "findings, GPU changes and cost (see the check run)")
		}
		for i, what := range []string{"finding", "GPU resource", "endpoint", "action", "unpriced item"} {
			if left[i] > 0 {
				lost = append(lost, plural(left[i], what, what+"s"))
			}
		}
	}
	budget -= len(head)

	var body strings.Builder
	if withChanges {
		tables, rows, projects := v.tables(budget)
		diffs, shown, total := "", 0, 0
		if rows == 0 && projects == 0 {
			diffs, shown, total = v.diffs(budget - len(tables))
		} else {
			total = v.diffCount()
		}
		body.WriteString(tables)
		body.WriteString(diffs)
		if n := total - shown; n > 0 {
			lost = append(lost, "the attribute diffs of "+plural(n, "resource", "resources"))
		}
		if rows > 0 {
			lost = append(lost, plural(rows, "row", "rows")+" of the change tables")
		}
		if projects > 0 {
			lost = append(lost, "the change lists of "+plural(projects, "project", "projects"))
		}
	}
	note := ""
	if len(lost) > 0 {
		note = "✂️ **Shortened to fit GitHub's size limit.** Left out: " + strings.Join(lost, "; ") + ". " + upper(see) + "."
	}
	var b strings.Builder
	b.Grow(limit)
	switch {
	case withHead:
		b.WriteString(v.verdict(note))
	case note != "":
		b.WriteString("> " + note + "\n")
	}
	b.WriteString(head)
	b.WriteString(body.String())
	b.WriteString(footer)
	return b.String()
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tables renders every project's section within budget bytes and says how
// many table rows and whole projects it left out.
func (v *view) tables(budget int) (string, int, int) {
	parts := make([]projectPart, len(v.r.Projects))
	full := 0
	for i, p := range v.r.Projects {
		parts[i] = v.project(p, i)
		full += len(parts[i].head)
		for _, b := range parts[i].blocks {
			// Only whether it all fits matters: rows are measured up to the budget.
			full += b.size(execute("block", b), budget-full)
		}
	}
	var out strings.Builder
	rows, projects := 0, 0
	remaining := budget
	for i, part := range parts {
		share := remaining
		if full > budget {
			share = remaining / (len(parts) - i)
		}
		if len(part.head) > share {
			projects++
			continue
		}
		var sb strings.Builder
		sb.WriteString(part.head)
		for _, b := range part.blocks {
			s, left := v.renderBlock(b, share-sb.Len())
			sb.WriteString(s)
			rows += left
		}
		out.WriteString(sb.String())
		remaining -= sb.Len()
	}
	return out.String(), rows, projects
}

// diffs renders per-resource diffs in diffOrder until the next one would
// not fit in budget bytes; it decodes only the ones it renders.
func (v *view) diffs(budget int) (string, int, int) {
	items := v.diffOrder()
	if len(items) == 0 {
		return "", 0, 0
	}
	heading := "\n### Attribute changes per resource\n\nSensitive values read `(sensitive)`; values known only after apply read `(known after apply)`" + v.deployNote() + ".\n"
	var b strings.Builder
	shown := 0
	for _, it := range items {
		d := v.diff(it)
		need := len(d)
		if shown == 0 {
			need += len(heading)
		}
		if b.Len()+need > budget {
			break
		}
		if shown == 0 {
			b.WriteString(heading)
		}
		b.WriteString(d)
		shown++
	}
	return b.String(), shown, len(items)
}

// Check is the check run's output: the same report as the comment, in the
// shape of a check run.
type Check struct {
	// Conclusion is success (verdict pass), neutral (warn) or failure (fail).
	Conclusion string
	// Title is the verdict and the counts per action, plain text.
	Title string
	// Summary holds the verdict, findings, GPU changes, endpoint
	// replacements and cost; at most MaxCheckBytes bytes.
	Summary string
	// Text holds the change list of every project and the per-resource
	// diffs; at most MaxCheckBytes bytes, shrunk with a visible note.
	Text string
	// Annotations are at most MaxAnnotations, blocking findings first.
	Annotations []record.Annotation
}

// CheckOutput returns the check run's output for the report. Annotations
// are made only for findings that opt.Locate places in a file (the plan
// holds no source positions): failure for blocking findings, warning for
// warnings, notice for notes and overridden findings; at most
// MaxAnnotations, blocking first, the rest counted in the summary.
func CheckOutput(r *review.Report, opt Options) Check {
	v := newView(r, opt)
	c := Check{Conclusion: Conclusion(v.r), Title: v.title()}
	c.Annotations, c.Summary = v.annotations()
	footer := c.Summary + v.projectTable()
	c.Summary = v.layout(MaxCheckBytes-len(footer), true, false, footer, "the full list is in this check run's details")
	v.where = "`planwarden review --format json` run on the plan"
	record := recordBlock(v.r) // record.go: what `planwarden verify` reads
	c.Text = v.layout(MaxCheckBytes-len(record)-2, false, true, "", "everything is in the output of "+v.where)
	if record != "" {
		c.Text += "\n\n" + record
	}
	return c
}

// Conclusion maps a report onto the check run's conclusion: failure on a
// fail verdict (and on anything it does not know, so a required check never
// passes by accident), neutral on warnings, success on a pass, and success
// when every warning is an overridden blocking finding: an override is an
// authorized, recorded decision, and the comment shows it.
func Conclusion(r *review.Report) string {
	if r.Verdict == "" && len(r.Projects) == 0 {
		return "success" // an empty report: nothing was reviewed, nothing blocks
	}
	switch r.Verdict {
	case rules.VerdictPass:
		return "success"
	case rules.VerdictWarn:
		if onlyOverridden(r) {
			return "success"
		}
		return "neutral"
	}
	return "failure"
}

func onlyOverridden(r *review.Report) bool {
	overridden := false
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			switch {
			case f.Override != nil:
				overridden = true
			case f.Severity == rules.SeverityBlock || f.Severity == rules.SeverityWarn:
				return false
			}
		}
	}
	return overridden
}

// annotations returns the located findings as annotations and, when some
// were left out, a line for the summary saying so.
func (v *view) annotations() ([]record.Annotation, string) {
	if v.opt.Locate == nil {
		return nil, ""
	}
	var out []record.Annotation
	located := 0
	for _, f := range v.allFindings() {
		path, line, ok := v.opt.Locate(f.Project, f.Address)
		if !ok || path == "" || line < 1 {
			continue
		}
		located++
		if len(out) == MaxAnnotations {
			continue
		}
		level := "notice"
		switch {
		case f.Override != nil:
		case f.Severity == rules.SeverityBlock:
			level = "failure"
		case f.Severity == rules.SeverityWarn:
			level = "warning"
		}
		msg := f.Message
		if f.Remedy != "" {
			msg += "\n\nWhat to do: " + f.Remedy
		}
		out = append(out, record.Annotation{Path: path, StartLine: line, EndLine: line, Level: level,
			Title: truncate(f.Rule+": "+f.Address, 255), Message: truncate(msg, 4000)})
	}
	if located > len(out) {
		return out, "\n_" + strconv.Itoa(located-len(out)) + " more findings have a file and line but are not annotated (GitHub takes " + strconv.Itoa(MaxAnnotations) + " per request)._\n"
	}
	return out, ""
}
