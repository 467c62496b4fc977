package comment

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// A scheduled plan of the default branch changes nothing in the code, so
// every change it plans sets back something changed outside Terraform
// (drift): a change's before side is what runs now, its after side what
// the code says. The drift issue of a project tells what drifted, what it
// costs, and carries the same review as a pull request's comment.

// DriftState is what a drift plan of one project found.
type DriftState string

// Drift states.
const (
	// DriftFound: the plan changes something (it would undo drift).
	DriftFound DriftState = "drift"
	// DriftClean: the plan is complete and changes nothing.
	DriftClean DriftState = "clean"
	// DriftUnknown: the plan failed part way or is incomplete: it can
	// neither show drift nor show that there is none.
	DriftUnknown DriftState = "unknown"
)

// DriftOf is the drift state of a project's plan.
func DriftOf(p *review.Project) DriftState {
	if p.Errored || !p.Complete {
		return DriftUnknown
	}
	for _, c := range p.Changes {
		if drifts(c) {
			return DriftFound
		}
	}
	return DriftClean
}

// drifts reports whether a change of a drift plan sets something back.
func drifts(c *review.Change) bool {
	switch planparse.Action(c.Action()) {
	case planparse.ActionNoop, planparse.ActionRead:
		return false
	}
	return true
}

// IssueState is a project's drift issue as GitHub has it (found by its
// marker); the zero value is no issue.
type IssueState struct {
	Number int
	Open   bool
	Body   string
}

// DriftAction is what to do with a project's drift issue.
type DriftAction string

// Drift actions.
const (
	DriftNone   DriftAction = "none"   // leave it as it is (or there is none to make)
	DriftOpen   DriftAction = "open"   // create the issue: the first drift
	DriftReopen DriftAction = "reopen" // drift again: reopen the closed issue, with the new body
	DriftEdit   DriftAction = "edit"   // drift goes on, changed: edit the body in place
	DriftClose  DriftAction = "close"  // the drift is gone: edit the body to say so and close
	// DriftOlder: the plan comes from an older run than the one the
	// issue shows (runs handled out of order): leave the issue.
	DriftOlder DriftAction = "older"
)

// DecideDrift is what to do with a project's drift issue, given the issue
// as it is (prev) and the new plan's state and issue body. An unknown
// state never closes an issue (a failed plan shows no absence of drift):
// it notes the failure on an open issue and does nothing otherwise. A
// plan of an older run than the one the issue shows (the run ids in the
// two bodies' markers) changes nothing: drift runs can be handled out of
// order, and the issue says what the newest plan found.
func DecideDrift(prev IssueState, state DriftState, body string) DriftAction {
	switch {
	case prev.Number != 0 && driftRunOf(prev.Body) > driftRunOf(body):
		return DriftOlder
	case state == DriftFound && prev.Number == 0:
		return DriftOpen
	case state == DriftFound && !prev.Open:
		return DriftReopen
	case state == DriftClean && prev.Number != 0 && prev.Open:
		return DriftClose
	case state == DriftClean || !prev.Open:
		return DriftNone
	case prev.Body == body:
		return DriftNone
	}
	return DriftEdit
}

const driftMarkerPrefix = "<!-- planwarden:drift v1 "

// DriftMarker is the hidden first line of a project's drift issue, by
// which the App finds it again: the project name base64url-encoded, so no
// name can end the HTML comment.
func DriftMarker(project string) string {
	return driftMarker(project, 0)
}

// driftMarker is the marker of a body written from the plan of the
// workflow run with this id ("run=ID" after the name; none for 0).
func driftMarker(project string, run int64) string {
	m := driftMarkerPrefix + base64.RawURLEncoding.EncodeToString([]byte(project))
	if run > 0 {
		m += " run=" + strconv.FormatInt(run, 10)
	}
	return m + " -->"
}

// ParseDriftMarker returns the project of a drift issue's body (its first
// line), and whether the body has the marker at all.
func ParseDriftMarker(body string) (string, bool) {
	name, _, ok := parseDriftMarker(body)
	return name, ok
}

// driftRunOf is the run id a drift issue's body was written from (0 when
// its marker has none, as bodies written before the id was kept).
func driftRunOf(body string) int64 {
	_, run, _ := parseDriftMarker(body)
	return run
}

func parseDriftMarker(body string) (string, int64, bool) {
	line, _, _ := strings.Cut(body, "\n")
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), driftMarkerPrefix)
	if !ok {
		return "", 0, false
	}
	rest, ok = strings.CutSuffix(rest, " -->")
	if !ok {
		return "", 0, false
	}
	enc, runField, hasRun := strings.Cut(rest, " ")
	var run int64
	if hasRun {
		digits, ok := strings.CutPrefix(runField, "run=")
		n, err := strconv.ParseInt(digits, 10, 64)
		if !ok || err != nil || n <= 0 {
			return "", 0, false
		}
		run = n
	}
	name, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(name) == 0 {
		return "", 0, false
	}
	return string(name), run, true
}

// DriftTitle is the drift issue's title (plain text: GitHub renders no
// markdown in titles).
func DriftTitle(p *review.Project) string {
	t := "planwarden: drift in " + clean(p.Name, " ")
	if p.Environment != "" {
		t += " (" + clean(p.Environment, " ") + ")"
	}
	return truncate(t, 256)
}

// DriftOptions say where the drift plan came from.
type DriftOptions struct {
	// RunURL is the drift workflow's run; Commit the default branch's commit it planned.
	RunURL, Commit string
	// Run is the run's id, kept in the issue's hidden marker: a plan of an
	// older run never overwrites a newer one's (DecideDrift).
	Run int64
}

// DriftIssue renders the drift issue's body for one project of the
// report (the review of a scheduled plan of the default branch): the
// marker, one line per drifted resource ("GPU pool `gpu` scaled 2 → 6
// outside Terraform: +\$18.36/h"), the hourly cost of the drift, and the
// review as a pull request's comment shows it (findings, GPU table, cost,
// the changes that would set it back), within GitHub's body limit. A clean
// plan's body says the drift is gone; an unknown one's that the plan failed.
func DriftIssue(r *review.Report, project string, opt DriftOptions) string {
	var p *review.Project
	for _, q := range r.Projects {
		if q.Name == project {
			p = q
		}
	}
	var b strings.Builder
	b.WriteString(driftMarker(project, opt.Run) + "\n")
	if p == nil {
		return b.String() + "## Drift of " + code(project) + "\n\nThe drift plan has no project of this name.\n"
	}
	heading := "## Drift of " + code(p.Name)
	if p.Environment != "" {
		heading += " (" + code(p.Environment) + ")"
	}
	b.WriteString(heading + "\n\n")
	b.WriteString(driftSource(opt))
	switch DriftOf(p) {
	case DriftClean:
		b.WriteString("✅ **No drift**: the plan of the default branch changes nothing, so what runs is what the code says. This issue is closed.\n")
		return b.String()
	case DriftUnknown:
		b.WriteString("⚠️ **The drift plan failed part way** (or is incomplete), so it shows neither drift nor its absence. This issue stays open until a plan completes and finds none.\n")
		return b.String()
	}
	lines, cost := driftLines(p)
	b.WriteString("Changed outside Terraform; the next apply sets it back unless the code changes to match:\n\n")
	for _, l := range lines {
		b.WriteString("- " + l + "\n")
	}
	if cost != nil {
		b.WriteString("\n**Cost of the drift:** " + delta(cost) + "/h against what the code says.\n")
	}
	head := b.String() + "\n---\n\n"
	one := &review.Report{SchemaVersion: r.SchemaVersion, Verdict: r.Verdict, Totals: r.Totals, Projects: []*review.Project{p}, Overrides: r.Overrides}
	v := newView(one, Options{})
	return head + v.layout(MaxCommentBytes-len(head), true, true, "", "run `planwarden review` on the drift plan for everything")
}

func driftSource(opt DriftOptions) string {
	s := ""
	if opt.Commit != "" {
		s = "Planned on " + code(shortCommit(opt.Commit))
	}
	if u := safeURL(opt.RunURL); u != "" {
		if s == "" {
			s = "Planned"
		}
		s += " by [this run](" + u + ")"
	}
	if s == "" {
		return ""
	}
	return s + ".\n\n"
}

func shortCommit(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// driftLines says, per change of the drift plan, what drifted, and sums
// the drift's hourly cost: what runs now (a change's before) less what the
// code says (its after). The sum is nil when no drifted change is priced
// on both sides.
func driftLines(p *review.Project) ([]string, *float64) {
	var lines []string
	var sum *float64
	for _, c := range p.Changes {
		if !drifts(c) {
			continue
		}
		line, cost := driftLine(c)
		if cost != nil {
			if sum == nil {
				sum = new(float64)
			}
			*sum += *cost
			line += ": " + delta(cost) + "/h"
		}
		lines = append(lines, line)
	}
	return lines, sum
}

// driftLine is one drifted resource: what runs now is the change's
// before side, what the code says its after side.
func driftLine(c *review.Change) (string, *float64) {
	var cost *float64
	if b, a := c.HourlyBefore(), c.HourlyAfter(); b != nil && a != nil {
		d := *b - *a
		cost = &d
	}
	res := c.Resource
	now, code := c.CountBefore(), c.CountAfter()
	switch planparse.Action(c.Action()) {
	case planparse.ActionCreate:
		return codeName(c) + " was deleted outside Terraform; the plan creates it again", cost
	case planparse.ActionDelete:
		return codeName(c) + " runs but the code does not declare it (made outside Terraform, or its code was removed without an apply)", cost
	}
	if res != nil && res.Before != nil && res.After != nil && res.Before.SKU != res.After.SKU && res.Before.SKU != "" {
		return driftNoun(c) + " changed from " + codeCell(res.After.SKU) + " to " + codeCell(res.Before.SKU) + " outside Terraform", cost
	}
	if now != nil && code != nil && *now != *code {
		verb := "scaled"
		return driftNoun(c) + " " + verb + " " + strconv.Itoa(*code) + " → " + strconv.Itoa(*now) + " outside Terraform", cost
	}
	if planparse.Action(c.Action()) == planparse.ActionReplace {
		return codeName(c) + " changed outside Terraform; the plan replaces it", cost
	}
	return codeName(c) + " changed outside Terraform; the plan sets it back", cost
}

// driftNoun names a resource the way a reviewer says it: "GPU pool `gpu`",
// "node pool `cpu`", else its address.
func driftNoun(c *review.Change) string {
	res := c.Resource
	if res == nil {
		return codeName(c)
	}
	side := res.Before
	if side == nil {
		side = res.After
	}
	name := ""
	if side != nil {
		name = side.Name
	}
	if name == "" {
		return codeName(c)
	}
	gpu := res.Before.HasGPU() || res.After.HasGPU()
	switch {
	case res.Kind == infra.KindNodePool && gpu:
		return "GPU pool " + code(name)
	case res.Kind == infra.KindNodePool:
		return "node pool " + code(name)
	case gpu:
		return "GPU resource " + code(name)
	}
	return codeName(c)
}

func codeName(c *review.Change) string { return code(c.Address()) }
