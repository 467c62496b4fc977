package app

// Commands configure the slash commands. Zero values mean the defaults.
type Commands struct {
	// PlanWorkflow is the workflow file `/plan` dispatches (default
	// planwarden-plan.yml). Which runs are plan runs is the base branch's
	// config's to say (plan_workflows), not the App's.
	PlanWorkflow string
}

func (c Commands) withDefaults() Commands {
	if c.PlanWorkflow == "" {
		c.PlanWorkflow = "planwarden-plan.yml"
	}
	return c
}
