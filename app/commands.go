package app

import (
	"path"
	"strings"
)

// Commands say which workflows are plan workflows. Zero values mean the
// defaults. (What /plan dispatches is the repo config's plan_workflows,
// read from the default branch: command_plan.go.)
type Commands struct {
	// PlanWorkflow is a workflow file (default planwarden-plan.yml) whose
	// runs are plan runs.
	PlanWorkflow string
	// PlanWorkflowMatch is a substring that marks a workflow as a plan
	// workflow by file or name (default "plan"). A plan workflow's run that
	// failed or uploaded no plan artifact fails the check; other workflows'
	// runs without a planwarden artifact are ignored.
	PlanWorkflowMatch string
}

func (c Commands) withDefaults() Commands {
	if c.PlanWorkflow == "" {
		c.PlanWorkflow = "planwarden-plan.yml"
	}
	if c.PlanWorkflowMatch == "" {
		c.PlanWorkflowMatch = "plan"
	}
	return c
}

func (c Commands) isPlanWorkflow(run WorkflowRun) bool {
	m := strings.ToLower(c.PlanWorkflowMatch)
	return path.Base(run.Path) == c.PlanWorkflow ||
		strings.Contains(strings.ToLower(path.Base(run.Path)), m) ||
		strings.Contains(strings.ToLower(run.Name), m)
}
