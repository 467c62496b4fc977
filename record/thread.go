package record

import (
	"errors"
	"fmt"
	"time"
)

// Thread is one slash-command thread on a pull request with its one reply,
// edited in place as the thread moves on. Its ID is the correlation id
// (job.ThreadID). Like a job, a thread is one of a few kinds, each with its
// own fields: exactly one of Plan, Destroy and Note is set (Check).
type Thread struct {
	ID      string    `json:"id"`
	ReplyID int64     `json:"reply_id,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	// Minimized says the reply is hidden as outdated.
	Minimized bool `json:"minimized,omitempty"`

	Plan    *PlanThread    `json:"plan,omitempty"`
	Destroy *DestroyThread `json:"destroy,omitempty"`
	Note    *Note          `json:"note,omitempty"`
}

// PlanThread is a /plan: the plan workflow it dispatched on the pull
// request's branch, and the verdict of the review of that run's plans.
type PlanThread struct {
	// Projects are what the command asked for; none means all.
	Projects []string `json:"projects,omitempty"`
	Dispatch Dispatch `json:"dispatch"`
	// Verdict is the review of the run's plans (pass, warn, fail).
	Verdict string `json:"verdict,omitempty"`
}

// Destroy stages of a /destroy-staging thread.
const (
	DestroyAwaiting  = "awaiting"  // asked for confirmation
	DestroyExpired   = "expired"   // nobody confirmed in time
	DestroyConfirmed = "confirmed" // dispatched; the run says how it goes
	// DestroyDispatching: confirmed, and its dispatch recorded before it
	// is sent; a run whose title carries the thread's id may exist (the
	// dispatch went out, and what recorded it was cut short).
	DestroyDispatching = "dispatching"
	DestroySuperseded  = "superseded" // a newer /destroy-staging replaced it
)

// ConfirmWindow is how long a /destroy-staging waits for its confirmation.
const ConfirmWindow = 10 * time.Minute

// DestroyThread is a /destroy-staging and its confirmation: the
// environment's destroy workflow, dispatched from the default branch once
// confirmed.
type DestroyThread struct {
	Environment string `json:"environment"`
	// Projects are what the command asked for; none means all of the
	// environment's.
	Projects []string `json:"projects,omitempty"`
	Dispatch Dispatch `json:"dispatch"`
	// Stage is one of the Destroy stages.
	Stage          string `json:"stage"`
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
	Declared []string `json:"declared,omitempty"`
}

// Note is a reply given once: `/planwarden help`, a refusal, or an
// /override's answer.
type Note struct {
	// Command names the reply in its marker: help, refused, override (an
	// override recorded or revoked: the plan is reviewed again) or
	// override-info.
	Command string `json:"command"`
}

// Dispatch is the workflow a thread dispatched, or will, and the run that
// carries the thread's id in its title.
type Dispatch struct {
	Workflow string    `json:"workflow,omitempty"` // file name, planwarden-plan.yml
	Ref      string    `json:"ref,omitempty"`      // the branch it is dispatched on
	Run      ThreadRun `json:"run,omitzero"`
}

// ThreadRun is a workflow run a thread follows.
type ThreadRun struct {
	ID         int64  `json:"id,omitempty"`
	URL        string `json:"url,omitempty"`
	Status     string `json:"status,omitempty"`
	Conclusion string `json:"conclusion,omitempty"`
}

// Command is the thread's command without its slash, as its reply's
// marker names it: plan, destroy-staging, or the note's.
func (t Thread) Command() string {
	switch {
	case t.Plan != nil:
		return "plan"
	case t.Destroy != nil:
		return "destroy-staging"
	case t.Note != nil:
		return t.Note.Command
	}
	return ""
}

// Check reports a thread that is not exactly one kind.
func (t Thread) Check() error {
	n := 0
	for _, set := range []bool{t.Plan != nil, t.Destroy != nil, t.Note != nil} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Errorf("thread %s: no kind (plan, destroy or note)", t.ID)
	case n > 1:
		return errors.New("thread " + t.ID + ": more than one kind")
	}
	return nil
}

// Dispatched is the dispatch of a /plan or /destroy-staging thread; nil
// for a note.
func (t *Thread) Dispatched() *Dispatch {
	switch {
	case t.Plan != nil:
		return &t.Plan.Dispatch
	case t.Destroy != nil:
		return &t.Destroy.Dispatch
	}
	return nil
}

// Lapsed reports whether a destroy request waits for a confirmation that
// can no longer come at now.
func (t Thread) Lapsed(now time.Time) bool {
	return t.Destroy != nil && t.Destroy.Stage == DestroyAwaiting && now.After(t.Deadline())
}

// Deadline is when a destroy request lapses.
func (t Thread) Deadline() time.Time { return t.At.Add(ConfirmWindow) }

// Done reports whether nothing more will happen in the thread at now, so a
// newer reply may hide its reply. A destroy request nobody confirmed in
// time is done.
func (t Thread) Done(now time.Time) bool {
	switch {
	case t.Plan != nil:
		return t.Plan.Dispatch.Run.Status == "completed"
	case t.Destroy != nil:
		switch t.Destroy.Stage {
		case DestroyAwaiting:
			return t.Lapsed(now)
		case DestroyConfirmed:
			return t.Destroy.Dispatch.Run.Status == "completed"
		case DestroyDispatching:
			return false
		}
	}
	return true
}

// WithStage is a copy of a /destroy-staging thread at stage; t is left as
// it is (copies of a thread share its kind's fields).
func (t Thread) WithStage(stage string) Thread {
	if t.Destroy != nil {
		d := *t.Destroy
		d.Stage = stage
		t.Destroy = &d
	}
	return t
}
