package trust

import (
	"fmt"
	"path"
	"strconv"

	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/rules"
)

// Covered reports whether cfg's plan_workflow_inputs covers u: a glob
// covers every file under u.In (planwarden then treats those files as the
// ones the step runs), or, for a word bounded by no directory, every file
// of the repository.
func Covered(cfg *rules.Config, u Unreadable) bool {
	if u.Anywhere {
		return matchAny(cfg.PlanWorkflowInputs, "planwarden-probe.tf") && coversDir(cfg.PlanWorkflowInputs, "planwarden-probe")
	}
	return coversDir(cfg.PlanWorkflowInputs, u.In)
}

// Address is where an Unreadable is, as a finding's address: the workflow
// file and the YAML path of the step (jobs.plan.steps[3], or
// runs.steps[0] in an action).
func (u Unreadable) Address() string {
	if u.Step < 0 {
		return u.File
	}
	if u.Job == "" {
		return u.File + " runs.steps[" + strconv.Itoa(u.Step) + "]"
	}
	return u.File + " jobs." + u.Job + ".steps[" + strconv.Itoa(u.Step) + "]"
}

// UnreadableFindings returns a plan-workflow-unreadable finding, filed
// under project, for each of r's unreadable steps that cfg's
// plan_workflow_inputs does not cover, in r's order. With plan_source:
// dispatch none is returned: the workflow and its scripts then come from
// the default branch, whatever they run.
func UnreadableFindings(cfg *rules.Config, r Reading, project string) []rules.Finding {
	if cfg.Dispatches() {
		return nil
	}
	var out []rules.Finding
	for _, u := range r.Unreadable {
		if Covered(cfg, u) {
			continue
		}
		out = append(out, rules.Finding{
			Rule: rules.RulePlanWorkflowUnreadable, Severity: rules.SeverityBlock, Project: project, Address: u.Address(),
			Message: u.sentence(),
			Remedy: fmt.Sprintf("Write the step so that the files it runs are literal paths, or list them (a directory glob such as %s) under plan_workflow_inputs in %s on the base branch; or set plan_source: dispatch, so the plan workflow and its scripts come from the default branch.",
				u.suggestedGlob(), configFile(cfg)),
		})
	}
	return out
}

// sentence says what planwarden could not place, and where.
func (u Unreadable) sentence() string {
	where := fmt.Sprintf("step %s of job %s in %s", u.stepLabel(), u.Job, u.File)
	switch {
	case u.Step < 0 && u.Job == "":
		where = u.File
	case u.Step < 0:
		where = fmt.Sprintf("%s (job %s)", u.File, u.Job)
	case u.Job == "":
		where = fmt.Sprintf("step %s of the local action %s", u.stepLabel(), u.File)
	}
	if u.Script != "" {
		where += ", in " + u.Script
		if u.Line > 0 {
			where += " line " + strconv.Itoa(u.Line)
		}
	}
	return fmt.Sprintf("%s: planwarden cannot place %s: %s, so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted.",
		where, prose.Code(u.Word), u.Why)
}

func (u Unreadable) stepLabel() string {
	if u.Name != "" {
		return strconv.Quote(u.Name)
	}
	return "#" + strconv.Itoa(u.Step+1)
}

// suggestedGlob is a plan_workflow_inputs entry that would cover u.
func (u Unreadable) suggestedGlob() string {
	if u.Anywhere || u.In == "" {
		return "ci/**"
	}
	return path.Join(u.In, "**")
}
