package trust

import (
	"slices"
	"strings"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Provenance is what the plans of a review may be believed for: where each
// belongs (the Assignment), the provenance findings (unknown-project,
// plan-workflow-changed, missing-plan) and the declared projects whose
// plans may still come.
type Provenance struct {
	Assignment
	// Waiting are the projects the pull request changes whose plan is
	// missing while a plan workflow has not reported yet: no finding yet,
	// the check waits.
	Waiting []string
}

// judge takes the plans read from runs with their projects and environments
// (Assign), then says what the pull request's changes ch and the files the
// plan workflows use (used) make of them: a changed plan workflow, or a
// file it uses, is a plan-workflow-changed finding (WorkflowChanges; not
// a plan workflow file itself when the plans come from the default
// branch's version of it, FromDefaultBranch); with
// projects declared, a project the pull request changes without a plan is
// a missing-plan finding once every plan workflow has a run (Reported),
// and waited for until then. Findings come in that order, after Assign's.
func (p Provenance) judge(cfg *rules.Config, ch Changes, used []Used, runs []record.Run, modules map[string][]string) Provenance {
	first := ""
	if len(p.Plans) > 0 {
		first = p.Plans[0].Project
	}
	fromDefault := FromDefaultBranch(cfg, runs)
	for _, f := range WorkflowChanges(cfg, ch, used, first) {
		if fromDefault && cfg.IsPlanWorkflow(f.Address) {
			continue // the default branch's version of it made the plans
		}
		p.Findings = append(p.Findings, f)
	}
	if len(cfg.Projects) == 0 {
		return p
	}
	touched, _ := TouchedWith(cfg, ch, modules)
	missing := Missing(cfg, p.Assignment, touched, runs)
	if Reported(cfg, runs) {
		p.Findings = append(p.Findings, missing...)
		return p
	}
	for _, f := range missing {
		p.Waiting = append(p.Waiting, f.Project)
	}
	return p
}

// FromDefaultBranch reports whether every run the check concludes from is
// a plan planwarden dispatched itself (record.Run.Dispatched, set only
// once DispatchedRun said so: a workflow_dispatch run of a plan workflow
// on the default branch, triggered by planwarden's own account) under
// cfg's plan_source: dispatch. GitHub runs a dispatched workflow from the
// ref it was dispatched on, so the plan workflow files of such runs are
// the default branch's: a pull request changing one cannot change what
// made its plans, and that change is no plan-workflow-changed finding.
// What those workflows run from a checkout (scripts, local actions,
// plan_workflow_inputs) may still be the pull request's, so a change to
// it still is. No runs is not from the default branch.
func FromDefaultBranch(cfg *rules.Config, runs []record.Run) bool {
	if !cfg.Dispatches() || len(runs) == 0 {
		return false
	}
	for _, r := range runs {
		if !r.Dispatched {
			return false
		}
	}
	return true
}

// Provenances assigns plans under cfg and judges them with the pull
// request's changes ch, the files the plan workflows use and the runs the
// check concludes from (see Provenance.judge).
func Provenances(cfg *rules.Config, plans []Plan, ch Changes, used []Used, runs []record.Run) Provenance {
	return ProvenancesWith(cfg, plans, ch, used, runs, nil)
}

// ProvenancesWith is Provenances with each project's paths widened by the
// local modules its root module calls (modules, by project: ModuleDirs of
// its trusted plans, kept with the pull request's state; TouchedWith): a
// pull request changing only a module a project calls needs that
// project's plan.
func ProvenancesWith(cfg *rules.Config, plans []Plan, ch Changes, used []Used, runs []record.Run, modules map[string][]string) Provenance {
	return Provenance{Assignment: Assign(cfg, plans)}.judge(cfg, ch, used, runs, modules)
}

// ProjectFindings are the findings of one project of a review, in the
// project's environment.
type ProjectFindings struct {
	Environment string
	Findings    []rules.Finding
}

// LabelOverrides are the overrides a pull request's labels give to the
// blocking findings of its projects that nothing overrides yet. Who added a label is GitHub's record (adders, by
// the label's name in lower case, from the pull request's issue events),
// never a webhook the App may have missed: a label whose adder GitHub does
// not show does not count, and is named in unknown (sorted). A label the
// author put on their own pull request counts only where the config
// allows authors (allow_author).
func LabelOverrides(cfg *rules.Config, projects []ProjectFindings, labels []string, author string, adders map[string]record.LabelMark) (out []rules.Override, unknown []string) {
	for _, p := range projects {
		out = labelOverrides(cfg, p, labels, author, adders, out, &unknown)
	}
	slices.Sort(unknown)
	return out, unknown
}

func labelOverrides(cfg *rules.Config, p ProjectFindings, labels []string, author string, adders map[string]record.LabelMark, out []rules.Override, unknown *[]string) []rules.Override {
	env := p.Environment
	for _, f := range p.Findings {
		if f.Severity != rules.SeverityBlock || f.Override != nil || !cfg.Overridable(f.Rule) {
			continue
		}
		for _, l := range labels {
			if !cfg.MayOverride(f.Rule, env, "", nil, []string{l}) {
				continue
			}
			m, ok := adders[strings.ToLower(l)]
			if !ok || m.By == "" {
				if !slices.Contains(*unknown, l) {
					*unknown = append(*unknown, l)
				}
				continue
			}
			if strings.EqualFold(m.By, author) && !AuthorMay(cfg, f.Rule, env, author, nil) {
				continue
			}
			out = append(out, rules.Override{Rule: f.Rule, Address: f.Address, Project: f.Project,
				By: "label:" + l + " (added by " + m.By + ")", At: m.At, Digest: rules.FindingDigest(f)})
			break
		}
	}
	return out
}
