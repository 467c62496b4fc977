package run

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// The evaluate stage: from what collect read to the review under each
// base and the check's outcome, without asking GitHub.
//
// Overrides of blocking findings come two ways:
//   - `/override RULE [ADDRESS] -- reason`, authorized against the base
//     branch's config (users, teams), recorded in the PR's state as one
//     grant per finding it covers (record.Grant: the finding's digest and
//     environment);
//   - a label the config lists for a rule, live: while the PR carries it,
//     added by someone GitHub's issue events name (labelAdders).
//
// Every review re-authorizes every grant against the base branch's config
// of that moment (trust.Judge): a grant covers the exact finding it was
// given for, in the environment it was given in, and lapses, visibly, when
// a push changes the finding, when its author is no longer listed, or when
// it was the PR author's own and the config does not allow that.

// evaluate reviews the plans under each base and concludes the check with
// the strictest outcome: the pull request's own review, unless another
// base is stricter.
func (r *Review) evaluate() {
	for _, b := range r.bases {
		if b.out != nil {
			b.res = result{out: *b.out}
			continue
		}
		b.res = r.reviewUnder(b)
	}
	r.res = r.bases[0].res
	for _, b := range r.bases[1:] {
		if strictness(b.res.out) > strictness(r.res.out) {
			r.log.Info("another pull request of the commit is stricter", "pr", b.pr.Number, "base", b.pr.BaseRef, "conclusion", orNone(b.res.out.Conclusion))
			r.res.out = b.res.out
			r.res.out.Summary = comment.Stricter(b.pr.Number, b.pr.BaseRef, b.res.out.Summary)
		}
	}
}

// reviewUnder reviews the plans b read under its config.
func (r *Review) reviewUnder(b *base) result {
	b.assign()
	col := b.plans
	report, blocking := r.withOverrides(b)
	opt := comment.Options{HeadSHA: r.run.HeadSHA, PlanTime: col.planTime, Marker: true, DetailsURL: r.checkRun.HTMLURL,
		Now: r.x.state.Now(), ProjectRuns: projectRuns(r.run, col.runOf)}
	out := comment.CheckOutput(report, opt)
	if out.Title == "" {
		out.Title = comment.VerdictTitle(report.Verdict)
	}
	if out.Summary == "" {
		out.Summary = comment.ReviewedSummary(len(col.inputs), len(b.runs), r.run.ID, r.run.HTMLURL)
	}
	if len(col.waiting) > 0 && report.Verdict != rules.VerdictFail {
		// A declared project's plan may still come from a plan workflow
		// that has not finished: no conclusion yet.
		out = comment.WaitingForProjects(col.waiting, b.cfg.PlanWorkflowPaths())
	}
	return result{out: out, body: comment.Render(report, opt), report: report, blocking: blocking, runs: opt.ProjectRuns, assigned: &col.assigned}
}

// withOverrides builds the review of what b read: the plans' findings and
// the provenance findings under one verdict, then the PR's grants as they
// stand now, then its override labels on the blocking findings still
// left. blocking are the review's overridable blocking findings, for
// /override.
func (r *Review) withOverrides(b *base) (*review.Report, []record.Blocking) {
	col, cfg, grants := b.plans, b.cfg, b.st.Grants
	opt := review.Options{Config: cfg, Findings: col.findings, Notes: col.notes}
	start := r.x.state.Now()
	report := review.Build(col.inputs, opt)
	if r.x.observe != nil {
		r.x.observe(r.x.state.Now().Sub(start), col.planBytes...)
	}
	subjects := trust.Subjects(cfg, reportFindings(report), projectEnvs(report))
	d := trust.Judge(cfg, subjects, grants, b.people)
	notes := slices.Clone(col.notes)
	for _, g := range d.Standing {
		if !g.Counts {
			notes = append(notes, comment.OverrideLapsedNote(g.Grant.Rule, g.Grant.Address, g.Grant.By, g.Why))
		}
	}
	for _, w := range d.Waiting {
		notes = append(notes, comment.OverrideWaitingNote(w))
	}
	ovs := d.Overrides
	for i := range ovs {
		ovs[i].Reason = givenOn(ovs[i], grants, b.pr.HeadSHA)
	}
	byLabel, labelNotes := labelOverrides(cfg, report, b.pr, b.adders)
	ovs, notes = append(ovs, byLabel...), append(notes, labelNotes...)
	if len(ovs) > 0 || len(notes) > len(col.notes) {
		opt.Overrides, opt.Notes = ovs, notes
		report = review.Build(col.inputs, opt)
	}
	return report, subjects
}

// strictness orders check outcomes: a failure beats waiting, waiting beats
// a warning, a warning beats success.
func strictness(o comment.Check) int {
	switch o.Conclusion {
	case "failure":
		return 3
	case "":
		return 2
	case "neutral":
		return 1
	}
	return 0
}

// givenOn is an applied override's reason, saying which commit its grants
// were given on.
func givenOn(o rules.Override, grants []record.Grant, head string) string {
	var on []string
	moved := false
	for _, g := range grants {
		if g.Digest == o.Digest && g.HeadSHA != "" && !slices.Contains(on, prose.ShortSHA(g.HeadSHA)) {
			on = append(on, prose.ShortSHA(g.HeadSHA))
			moved = moved || g.HeadSHA != head
		}
	}
	return comment.GivenOn(o.Reason, on, moved)
}

func reportFindings(r *review.Report) []rules.Finding {
	var out []rules.Finding
	for _, p := range r.Projects {
		out = append(out, p.Findings...)
	}
	return out
}

func projectEnvs(r *review.Report) map[string]string {
	envs := map[string]string{}
	for _, p := range r.Projects {
		envs[p.Name] = p.Environment
	}
	return envs
}

// labelOverrides are the overrides the PR's labels give to the report's
// blocking findings that nothing overrides yet. Who added a label is
// GitHub's record (adders, from the PR's issue events), never a webhook
// the App may have missed: a label whose adder GitHub does not show does
// not count, and the notes say so. A label its author put on their own PR
// counts only where the config allows authors (allow_author).
func labelOverrides(cfg *rules.Config, r *review.Report, pr port.PullRequest, adders map[string]port.LabelMark) (out []rules.Override, notes []string) {
	unknown := map[string]bool{}
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			if f.Severity != rules.SeverityBlock || f.Override != nil || !cfg.Overridable(f.Rule) {
				continue
			}
			for _, l := range pr.Labels {
				if !cfg.MayOverride(f.Rule, p.Environment, "", nil, []string{l}) {
					continue
				}
				m, ok := adders[strings.ToLower(l)]
				if !ok || m.By == "" {
					unknown[l] = true
					continue
				}
				if strings.EqualFold(m.By, pr.Author) && !trust.AuthorMay(cfg, f.Rule, p.Environment, pr.Author, nil) {
					continue
				}
				out = append(out, rules.Override{Rule: f.Rule, Address: f.Address, Project: f.Project,
					By: "label:" + l + " (added by " + m.By + ")", At: m.At, Digest: rules.FindingDigest(f)})
				break
			}
		}
	}
	for _, l := range slices.Sorted(maps.Keys(unknown)) {
		notes = append(notes, comment.UnknownLabelNote(l))
	}
	return out, notes
}

// projectRuns names the run of each project's plan, with its link when
// GitHub gave one for the run under review (the others' links are built
// the same way: .../actions/runs/<id>).
func projectRuns(base port.WorkflowRun, runOf map[string]int64) map[string]comment.Run {
	out := make(map[string]comment.Run, len(runOf))
	prefix, ok := strings.CutSuffix(base.HTMLURL, "/"+strconv.FormatInt(base.ID, 10))
	for project, id := range runOf {
		r := comment.Run{ID: id}
		if ok {
			r.URL = prefix + "/" + strconv.FormatInt(id, 10)
		}
		out[project] = r
	}
	return out
}

// assign gives the plans read for a base their projects and environments
// from its config (trust.Assign), and adds the provenance findings:
// unknown-project, plan-workflow-changed and missing-plan (or, while a
// plan workflow has not reported, the projects still waited for).
func (b *base) assign() {
	col := &b.plans
	as := trust.Assign(b.cfg, col.claims)
	col.runOf = map[string]int64{}
	for _, p := range as.Plans {
		col.inputs = append(col.inputs, review.Input{Name: p.Project, Environment: p.Environment,
			Plan: col.parsed[fmt.Sprintf("%d/%s/%s", p.Run.ID, p.Artifact, p.File)]})
		col.runOf[p.Project] = p.Run.ID
	}
	col.findings, col.notes, col.assigned = as.Findings, append(col.notes, as.Notes...), as

	changes := trust.Changes{Files: b.files, Complete: b.complete}
	first := ""
	if len(col.inputs) > 0 {
		first = col.inputs[0].Name
	}
	col.findings = append(col.findings, trust.WorkflowChanges(b.cfg, changes, b.used, first)...)
	if len(b.cfg.Projects) == 0 {
		return
	}
	touched, _ := trust.Touched(b.cfg, changes)
	missing := trust.Missing(b.cfg, as, touched, b.runs)
	if trust.Reported(b.cfg, b.runs) {
		col.findings = append(col.findings, missing...)
	} else {
		for _, f := range missing {
			col.waiting = append(col.waiting, f.Project)
		}
	}
	// A finding of a project without a plan needs a project to show
	// under.
	for _, f := range col.findings {
		if f.Project != "" && !slices.ContainsFunc(col.inputs, func(in review.Input) bool { return in.Name == f.Project }) {
			pc, _ := b.cfg.Project(f.Project)
			env := pc.Environment
			if env == "" {
				env = rules.DefaultEnvironmentName
			}
			col.inputs = append(col.inputs, review.Input{Name: f.Project, Environment: env, Plan: &planparse.Plan{File: "(no plan)"}})
		}
	}
}
