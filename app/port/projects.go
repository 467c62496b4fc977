package port

import "time"

// MaxListedResources bounds the resources a project status or a destroy
// request lists (the state must stay small: a DynamoDB item holds 400 KB).
const MaxListedResources = 30

// ProjectStatus is one project of the newest review of a PR's head.
type ProjectStatus struct {
	Name        string    `json:"name"`
	Environment string    `json:"environment,omitempty"`
	Verdict     string    `json:"verdict"`
	RunID       int64     `json:"run_id,omitempty"`
	RunURL      string    `json:"run_url,omitempty"`
	PlanTime    time.Time `json:"plan_time,omitzero"`
	// Resources are the managed resources the plan leaves in place
	// (created, kept or changed), at most MaxListedResources; More counts
	// the rest.
	Resources []string `json:"resources,omitempty"`
	More      int      `json:"more,omitempty"`
}
