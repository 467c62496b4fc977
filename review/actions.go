package review

import "github.com/planwarden/planwarden/planparse"

// Action is one provider action the apply will run (Terraform 1.14+), as
// reported under a project's actions and deferred_actions.
type Action struct {
	Address  string `json:"address"`
	Type     string `json:"type"`
	Name     string `json:"name"`
	Provider string `json:"provider"`
	// Trigger is "lifecycle" (a resource's action_trigger) or "invoke"
	// (terraform apply -invoke).
	Trigger string `json:"trigger"`
	// TriggeringResource, Event (before_create ... after_destroy) and
	// OnFailure are set for lifecycle triggers.
	TriggeringResource string `json:"triggering_resource,omitempty"`
	Event              string `json:"event,omitempty"`
	OnFailure          string `json:"on_failure,omitempty"`
	// CallingResource is the resource an invoked action runs for, if any.
	CallingResource string `json:"calling_resource,omitempty"`
	// Config is the action's config block, sanitized and shown by the
	// allow-list (planparse.Viewer.Tree): sensitive values read
	// "(sensitive)", unknown ones "(known after apply)", text a summary.
	Config any `json:"config"`
	// DeferredReason says why a deferred action waits for a later plan.
	DeferredReason string `json:"deferred_reason,omitempty"`

	// Source is the parsed invocation; not part of the JSON.
	Source *planparse.ActionInvocation `json:"-"`
}

// Trigger kinds of an Action.
const (
	TriggerLifecycle = "lifecycle"
	TriggerInvoke    = "invoke"
)

func newAction(a *planparse.ActionInvocation, show *planparse.Viewer) *Action {
	out := &Action{Address: a.Address, Type: a.Type, Name: a.Name, Provider: a.Provider,
		Trigger: TriggerLifecycle, TriggeringResource: a.TriggeringResource, Event: planparse.ShownName(a.Event), OnFailure: planparse.ShownName(a.OnFailure),
		CallingResource: a.CallingResource, Config: show.Tree(planparse.Place{Type: a.Type, Address: a.Address}, a.Config), Source: a}
	if a.Invoked {
		out.Trigger = TriggerInvoke
	}
	if out.Config == nil {
		out.Config = map[string]any{}
	}
	return out
}

// actions lists a plan's action invocations and its deferred ones.
func actions(plan *planparse.Plan, show *planparse.Viewer) (run, deferred []*Action) {
	run, deferred = make([]*Action, 0, len(plan.Actions)), make([]*Action, 0, len(plan.DeferredActions))
	for _, a := range plan.Actions {
		run = append(run, newAction(a, show))
	}
	for _, d := range plan.DeferredActions {
		a := newAction(d.Action, show)
		a.DeferredReason = planparse.ShownProse(d.Reason)
		deferred = append(deferred, a)
	}
	return run, deferred
}

// linkActions records on each change the actions its lifecycle triggers.
func linkActions(changes []*Change, acts []*Action) {
	if len(acts) == 0 {
		return
	}
	byAddr := make(map[string]*Change, len(changes))
	for _, c := range changes {
		byAddr[c.Address()] = c
	}
	for _, a := range acts {
		if c := byAddr[a.TriggeringResource]; c != nil && a.Trigger == TriggerLifecycle {
			c.TriggersActions = append(c.TriggersActions, a.Address)
		}
	}
}
