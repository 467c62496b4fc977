package run

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
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
//     added by someone GitHub's issue events name (trust.LabelOverrides).
//
// Every review re-authorizes every grant against the base branch's config
// of that moment (trust.Judge): a grant covers the exact finding it was
// given for, in the environment it was given in, and lapses, visibly, when
// a push changes the finding, when its author is no longer listed, or when
// it was the PR author's own and the config does not allow that.

// strictness orders check outcomes by conclusion: a failure beats waiting
// (no conclusion), waiting beats a warning, a warning beats success.
var strictness = map[string]int{"failure": 3, "": 2, "neutral": 1}

// evaluate reviews the plans under each base and concludes the check with
// the strictest outcome: the pull request's own review, unless another
// base is stricter.
func (r *Review) evaluate() {
	for _, b := range r.bases {
		if b.out == nil && b.fin == nil {
			b.res = r.reviewUnder(b)
			continue
		}
		if b.fin != nil {
			out := b.fin.Check()
			b.out = &out
		}
		b.res = result{out: *b.out}
	}
	r.res = r.bases[0].res
	for _, b := range r.bases[1:] {
		if strictness[b.res.out.Conclusion] > strictness[r.res.out.Conclusion] {
			r.log.Info("another pull request of the commit is stricter", "pr", b.pr.Number, "base", b.pr.BaseRef, "conclusion", cmp.Or(b.res.out.Conclusion, "unknown"))
			r.res.out = b.res.out
			r.res.out.Summary = comment.Stricter(b.pr.Number, b.pr.BaseRef, b.res.out.Summary)
		}
	}
}

// reviewUnder reviews the plans b read under its config. Trust says where
// each plan belongs and what its provenance says (trust.Provenances); the
// plans' findings and the provenance findings are reviewed under one
// verdict; then the pull request's grants as they stand now count, then its
// override labels on the blocking findings still left. The result's
// blocking findings are the review's overridable ones, for /override.
func (r *Review) reviewUnder(b *base) result {
	col, cfg, grants := b.plans, b.cfg, b.st.Grants
	modules := learnModules(cfg, b.st.Modules, col)
	prov := trust.ProvenancesWith(cfg, col.claims, b.changes, b.reading.Used, b.runs, modules)
	first := ""
	if len(prov.Plans) > 0 {
		first = prov.Plans[0].Project
	}
	// A step of a plan workflow planwarden cannot place fails closed.
	prov.Findings = append(prov.Findings, trust.UnreadableFindings(cfg, b.reading, first)...)
	// With plan_source: dispatch, what makes terraform plan run the pull
	// request's own code (read from its files through GitHub).
	prov.Findings = append(prov.Findings, trust.PlanRunsPRCode(b.prCode, first)...)
	var inputs []review.Input
	runOf := map[string]int64{}
	for _, p := range prov.Plans {
		inputs = append(inputs, review.Input{Name: p.Project, Environment: p.Environment,
			Plan: col.parsed[fmt.Sprintf("%d/%s/%s", p.Run.ID, p.Artifact, p.File)], ProviderUpgrades: b.upgrades[projectDir(cfg, p.Project)]})
		runOf[p.Project] = p.Run.ID
	}
	// A finding of a project without a plan needs a project to show
	// under.
	for _, f := range prov.Findings {
		if len(cfg.Projects) == 0 || f.Project == "" || slices.ContainsFunc(inputs, func(in review.Input) bool { return in.Name == f.Project }) {
			continue
		}
		env := cfg.EnvironmentOf(f.Project)
		if env == "" {
			env = rules.DefaultEnvironmentName
		}
		inputs = append(inputs, review.Input{Name: f.Project, Environment: env, Plan: &planparse.Plan{File: "(no plan)"}})
	}
	baseNotes := append(slices.Clone(col.notes), prov.Notes...)
	opt := review.Options{Config: cfg, Findings: prov.Findings, Notes: baseNotes}
	if len(r.x.digest) > 0 {
		opt.DigestKey = review.PRDigestKey(r.x.digest, r.repo.String(), b.pr.Number)
	}
	start := r.x.state.Now()
	report := review.Build(inputs, opt)
	if r.x.observe != nil {
		r.x.observe(r.x.state.Now().Sub(start), col.planBytes...)
	}
	var findings []rules.Finding
	var projects []trust.ProjectFindings
	envs := map[string]string{}
	for _, p := range report.Projects {
		findings = append(findings, p.Findings...)
		projects = append(projects, trust.ProjectFindings{Environment: p.Environment, Findings: p.Findings})
		envs[p.Name] = p.Environment
	}
	subjects := trust.Subjects(cfg, findings, envs)
	d := trust.Judge(cfg, subjects, grants, b.people)
	notes := slices.Clone(baseNotes)
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
		ovs[i].Reason = comment.GivenOn(ovs[i].Reason, ovs[i].Digest, b.pr.HeadSHA, grants)
	}
	byLabel, unknown := trust.LabelOverrides(cfg, projects, b.pr.Labels, b.pr.Author, b.adders)
	ovs = append(ovs, byLabel...)
	for _, l := range unknown {
		if why, ok := b.botLabels[strings.ToLower(l)]; ok {
			notes = append(notes, comment.BotLabelNote(l, why))
			continue
		}
		notes = append(notes, comment.UnknownLabelNote(l))
	}
	if len(ovs) > 0 || len(notes) > len(baseNotes) {
		opt.Overrides, opt.Notes = ovs, notes
		report = review.Build(inputs, opt)
	}
	// The check run's record of what was reviewed (`planwarden verify`
	// reads it): every project's change-set digest, made once.
	report.MakeDigests()

	copt := comment.Options{HeadSHA: r.run.HeadSHA, PlanTime: col.planTime, Marker: true, DetailsURL: r.checkRun.HTMLURL,
		Now: r.x.state.Now(), ProjectRuns: comment.ProjectRuns(r.run.ID, r.run.HTMLURL, runOf), NoConfig: cfg.File() == ""}
	out := comment.CheckOutput(report, copt)
	if out.Title == "" {
		out.Title = comment.VerdictTitle(report.Verdict)
	}
	if out.Summary == "" {
		out.Summary = comment.ReviewedSummary(len(inputs), len(b.runs), r.run.ID, r.run.HTMLURL)
	}
	if len(prov.Waiting) > 0 && report.Verdict != rules.VerdictFail {
		// A declared project's plan may still come from a plan workflow
		// that has not finished: no conclusion yet.
		out = comment.WaitingForProjects(prov.Waiting, cfg.PlanWorkflowPaths())
	}
	return result{out: out, body: comment.Render(report, copt), report: report, blocking: subjects, runs: copt.ProjectRuns, assigned: &prov.Assignment,
		modules: modules}
}

// maxModuleDirs bounds the module directories the state keeps per project.
const maxModuleDirs = 50

// learnModules adds to known (by project) the directories of the local
// modules each plan read shows its project's root module calls
// (trust.ModuleDirs, from the plan's configuration).
func learnModules(cfg *rules.Config, known map[string][]string, col collected) map[string][]string {
	out := map[string][]string{}
	for p, dirs := range known {
		out[p] = slices.Clone(dirs)
	}
	for _, c := range col.claims {
		proj, ok := cfg.Project(c.Project)
		plan := col.parsed[fmt.Sprintf("%d/%s/%s", c.Run.ID, c.Artifact, c.File)]
		if !ok || plan == nil {
			continue
		}
		for _, d := range trust.ModuleDirs(proj.Directory, plan.ModuleCalls()) {
			if !slices.Contains(out[proj.Name], d) && len(out[proj.Name]) < maxModuleDirs {
				out[proj.Name] = append(out[proj.Name], d)
			}
		}
	}
	for p := range out {
		slices.Sort(out[p])
	}
	return out
}
