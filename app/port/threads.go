package port

import "time"

// Thread is one slash-command thread on a PR: a /plan, or a
// /destroy-staging with its confirmation (also a refusal or a help), with
// its one reply. Its ID is the correlation id (job.ThreadID).
type Thread struct {
	ID      string    `json:"id"`
	Command string    `json:"command"` // plan, destroy-staging, help, refused
	ReplyID int64     `json:"reply_id,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	// Projects and Environment are what the command asked for.
	Projects    []string `json:"projects,omitempty"`
	Environment string   `json:"environment,omitempty"`
	// Workflow (file name) and Ref are what was, or will be, dispatched.
	Workflow string `json:"workflow,omitempty"`
	Ref      string `json:"ref,omitempty"`
	// Stage of a /destroy-staging: awaiting, expired, confirmed, superseded.
	Stage          string `json:"stage,omitempty"`
	ConfirmByOther bool   `json:"confirm_by_other,omitempty"`
	ConfirmedBy    string `json:"confirmed_by,omitempty"`
	// ConfirmID is the comment that confirmed it.
	ConfirmID int64 `json:"confirm_id,omitempty"`
	// Resources the destroy would remove, from the environment's latest
	// plan (PlanRun); More counts those left out.
	Resources []string  `json:"resources,omitempty"`
	More      int       `json:"more,omitempty"`
	PlanRun   ThreadRun `json:"plan_run,omitzero"`
	// Declared are the config's projects in Environment, for a request
	// with neither a plan nor project names.
	Declared []string  `json:"declared,omitempty"`
	Run      ThreadRun `json:"run,omitzero"`
	// Verdict is the review of a /plan run's plans.
	Verdict   string `json:"verdict,omitempty"`
	Minimized bool   `json:"minimized,omitempty"`
}

// ThreadRun is a workflow run a thread follows.
type ThreadRun struct {
	ID         int64  `json:"id,omitempty"`
	URL        string `json:"url,omitempty"`
	Status     string `json:"status,omitempty"`
	Conclusion string `json:"conclusion,omitempty"`
}

// ProjectStatus is one project of the newest review of a PR's head.
type ProjectStatus struct {
	Name        string    `json:"name"`
	Environment string    `json:"environment,omitempty"`
	Verdict     string    `json:"verdict"`
	RunID       int64     `json:"run_id,omitempty"`
	RunURL      string    `json:"run_url,omitempty"`
	PlanTime    time.Time `json:"plan_time,omitzero"`
	// Resources are the managed resources the plan leaves in place
	// (created, kept or changed), at most maxResourceList; More counts
	// the rest.
	Resources []string `json:"resources,omitempty"`
	More      int      `json:"more,omitempty"`
}
