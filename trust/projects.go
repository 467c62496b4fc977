package trust

import (
	"fmt"
	"slices"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Plan is one plan file of a trusted run, with what its artifact claims
// about it (the artifact is written by the workflow: a claim, not a fact).
type Plan struct {
	Run record.Run
	// Artifact is the artifact's name; File the plan's path in it.
	Artifact, File string
	// Single is true when the artifact holds this one plan only.
	Single bool
	// Project and Environment are what the artifact says: its metadata, or
	// the name derived from the artifact or the file.
	Project, Environment string
}

// Assigned is a plan with the project and environment the config gives it.
type Assigned struct {
	Plan
	Project, Environment string
}

// Assignment is where each plan of a commit's newest runs belongs.
type Assignment struct {
	// Plans are the plans to review, one per project: the plan of the
	// newest run (by run id, then attempt) that has one. In run order,
	// then artifact order.
	Plans []Assigned
	// Findings are unknown-project findings.
	Findings []rules.Finding
	// Notes say what of the artifacts' claims was ignored.
	Notes []string
}

// Assign gives each plan its project and environment from cfg. A plan
// belongs to the declared project whose artifact (PlanArtifact) is the
// plan's artifact when that artifact holds one plan, else to the declared
// project of the name the artifact claims. Its environment is that
// project's environment (DefaultEnvironmentName when it names none);
// whatever environment the artifact names is ignored, and a note says so
// when it differs. When cfg declares projects, a plan of no declared
// project gets an unknown-project finding; when it declares none, every
// plan keeps its claimed name and is reviewed in DefaultEnvironmentName.
// When two runs plan one project, the newer run's plan is kept.
func Assign(cfg *rules.Config, plans []Plan) Assignment {
	var a Assignment
	byProject := map[string]int{}
	for _, p := range plans {
		name, env, ok := project(cfg, p)
		if !ok {
			a.Findings = append(a.Findings, rules.Finding{
				Rule: rules.RuleUnknownProject, Severity: rules.SeverityBlock, Project: p.Project, Address: p.Artifact + "/" + p.File,
				Message: fmt.Sprintf("the plan %s of artifact %s is for project %q, which the base branch's config does not declare, so planwarden cannot tell its environment.", p.File, p.Artifact, p.Project),
				Remedy:  fmt.Sprintf("Declare the project under projects (with its environment) in %s on the base branch, or name the artifact after a declared project (projects[].artifact).", configFile(cfg)),
			})
			name, env = p.Project, rules.DefaultEnvironmentName
		}
		if p.Environment != "" && p.Environment != env {
			a.Notes = append(a.Notes, fmt.Sprintf("The artifact %s names environment %q for project %q; the base branch's config says %q, which applies.", p.Artifact, p.Environment, name, env))
		}
		as := Assigned{Plan: p, Project: name, Environment: env}
		i, seen := byProject[name]
		switch {
		case !seen:
			byProject[name] = len(a.Plans)
			a.Plans = append(a.Plans, as)
		case p.Run.After(a.Plans[i].Run):
			a.Notes = append(a.Notes, fmt.Sprintf("Project %q is planned by run %d and by the newer run %d; the newer plan is reviewed.", name, a.Plans[i].Run.ID, p.Run.ID))
			a.Plans[i] = as
		case p.Run == a.Plans[i].Run:
			a.Findings = append(a.Findings, rules.Finding{
				Rule: rules.RuleUnknownProject, Severity: rules.SeverityBlock, Project: name, Address: p.Artifact + "/" + p.File,
				Message: fmt.Sprintf("run %d uploaded two plans for project %q (%s/%s and %s/%s), so planwarden cannot tell which one is applied.", p.Run.ID, name, a.Plans[i].Artifact, a.Plans[i].File, p.Artifact, p.File),
				Remedy:  "Upload one plan per project, in an artifact named after it.",
			})
		default:
			a.Notes = append(a.Notes, fmt.Sprintf("Project %q is planned by run %d and by the newer run %d; the newer plan is reviewed.", name, p.Run.ID, a.Plans[i].Run.ID))
		}
	}
	return a
}

// project finds the declared project of a plan.
func project(cfg *rules.Config, p Plan) (name, env string, ok bool) {
	if len(cfg.Projects) == 0 {
		return p.Project, rules.DefaultEnvironmentName, true
	}
	if p.Single {
		if pc, ok := cfg.ProjectForArtifact(p.Artifact); ok {
			return pc.Name, envOf(pc), true
		}
	}
	if pc, ok := cfg.Project(p.Project); ok {
		return pc.Name, envOf(pc), true
	}
	return "", "", false
}

func envOf(p rules.ProjectConfig) string {
	if p.Environment == "" {
		return rules.DefaultEnvironmentName
	}
	return p.Environment
}

// Missing returns a missing-plan finding for each of the projects expected
// (see Touched) that has no plan in a.
func Missing(cfg *rules.Config, a Assignment, expected []string, runs []record.Run) []rules.Finding {
	var out []rules.Finding
	for _, name := range expected {
		if slices.ContainsFunc(a.Plans, func(p Assigned) bool { return p.Project == name }) {
			continue
		}
		var ids []int64
		for _, r := range runs {
			ids = append(ids, r.ID)
		}
		out = append(out, rules.Finding{
			Rule: rules.RuleMissingPlan, Severity: rules.SeverityBlock, Project: name, Address: cfg.PlanArtifact(name),
			Message: fmt.Sprintf("this pull request changes files of project %q, but the plan workflow runs %v uploaded no plan for it (artifact %s), so its changes are not reviewed.", name, ids, cfg.PlanArtifact(name)),
			Remedy:  "Make the plan workflow plan this project and upload its `terraform show -json` output as the artifact " + cfg.PlanArtifact(name) + ".",
		})
	}
	return out
}

func configFile(cfg *rules.Config) string {
	if cfg.File() != "" {
		return cfg.File()
	}
	return rules.ConfigPath
}
