package planparse

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// ActionInvocation is one provider action the apply will run: a Terraform
// 1.14+ `action` block triggered by a resource's lifecycle
// (`action_trigger`) or invoked directly (`terraform apply -invoke`).
type ActionInvocation struct {
	// Address is the action's address, as action.aws_lambda_invoke.drain.
	Address  string
	Type     string
	Name     string
	Provider string

	// Invoked is true for an action run by -invoke; TriggeringResource,
	// Event and OnFailure are then empty.
	Invoked bool
	// CallingResource is the resource an invoked action runs for, if any.
	CallingResource string

	// TriggeringResource is the resource whose lifecycle event runs the action.
	TriggeringResource string
	// Event is the lifecycle event in snake case: before_create,
	// after_create, before_update, after_update, before_destroy,
	// after_destroy (Terraform's words for other events are kept as they
	// come, lower-cased).
	Event string
	// OnFailure is what the apply does when the action fails, in lower
	// case: fail, halt, taint or continue; empty when the plan does not say.
	OnFailure string
	// TriggerBlockIndex and ActionsListIndex locate the action_trigger
	// block and the entry of its actions list.
	TriggerBlockIndex, ActionsListIndex int

	// Config is the action's sanitized config block: values marked in
	// config_sensitive, secret-looking attributes and known secret values
	// read as SensitiveText, those marked in config_unknown as UnknownText.
	Config Value
}

// DeferredActionInvocation is an action invocation Terraform postponed to
// a later plan.
type DeferredActionInvocation struct {
	Reason string // deferred reason in words
	Action *ActionInvocation
}

type wireAction struct {
	Address                string          `json:"address"`
	Type                   string          `json:"type"`
	Name                   string          `json:"name"`
	ProviderName           string          `json:"provider_name"`
	ConfigValues           json.RawMessage `json:"config_values"`
	ConfigSensitive        json.RawMessage `json:"config_sensitive"`
	ConfigUnknown          json.RawMessage `json:"config_unknown"`
	LifecycleActionTrigger *struct {
		TriggeringResourceAddress string `json:"triggering_resource_address"`
		ActionTriggerEvent        string `json:"action_trigger_event"`
		ActionTriggerBlockIndex   int    `json:"action_trigger_block_index"`
		ActionsListIndex          int    `json:"actions_list_index"`
		OnFailure                 string `json:"on_failure"`
	} `json:"lifecycle_action_trigger"`
	InvokeActionTrigger *struct {
		CallingResourceAddress string `json:"calling_resource_address"`
	} `json:"invoke_action_trigger"`
}

type wireDeferredAction struct {
	Reason           string     `json:"reason"`
	ActionInvocation wireAction `json:"action_invocation"`
}

// readActions decodes the plan's action_invocations and
// deferred_action_invocations (raw JSON, either may be empty). It first
// adds the values their config_sensitive marks to secrets, so that a value
// marked only on an action is redacted everywhere; the caller must call it
// before any other value of the plan is decoded.
func readActions(name string, invocations, deferred []byte, secrets *secret.Set) ([]*ActionInvocation, []*DeferredActionInvocation, error) {
	var ws []wireAction
	if err := unmarshalSection(invocations, &ws); err != nil {
		return nil, nil, actionError(name, "action_invocations", err)
	}
	var wd []wireDeferredAction
	if err := unmarshalSection(deferred, &wd); err != nil {
		return nil, nil, actionError(name, "deferred_action_invocations", err)
	}
	for i := range ws {
		secrets.Collect(ws[i].ConfigValues, ws[i].ConfigSensitive)
	}
	for i := range wd {
		secrets.Collect(wd[i].ActionInvocation.ConfigValues, wd[i].ActionInvocation.ConfigSensitive)
	}
	var out []*ActionInvocation
	for i := range ws {
		a, err := newAction(&ws[i], secrets)
		if err != nil {
			return nil, nil, actionError(name, fmt.Sprintf("action_invocations[%d] (%s)", i, shownAddress(secrets, ws[i].Address)), err)
		}
		out = append(out, a)
	}
	var outD []*DeferredActionInvocation
	for i := range wd {
		a, err := newAction(&wd[i].ActionInvocation, secrets)
		if err != nil {
			return nil, nil, actionError(name, fmt.Sprintf("deferred_action_invocations[%d] (%s)", i, shownAddress(secrets, wd[i].ActionInvocation.Address)), err)
		}
		outD = append(outD, &DeferredActionInvocation{Reason: deferredReason(wd[i].Reason), Action: a})
	}
	return out, outD, nil
}

func unmarshalSection(raw []byte, into any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, into)
}

func actionError(name, field string, err error) error {
	return &Error{File: name, Kind: ErrNotPlan, Detail: field + ": " + err.Error(),
		Hint: "the file looks hand-edited or truncated; " + showHint}
}

func newAction(w *wireAction, secrets *secret.Set) (*ActionInvocation, error) {
	if w.Address == "" {
		return nil, fmt.Errorf("the action has no address")
	}
	z := sanitizer{secrets: secrets} // instance keys shown as a change's are
	a := &ActionInvocation{Address: z.redactAddress(w.Address), Type: w.Type, Name: w.Name, Provider: w.ProviderName}
	switch {
	case w.LifecycleActionTrigger != nil:
		t := w.LifecycleActionTrigger
		a.TriggeringResource = z.redactAddress(t.TriggeringResourceAddress)
		a.Event = triggerEvent(t.ActionTriggerEvent)
		a.OnFailure = onFailure(t.OnFailure)
		a.TriggerBlockIndex, a.ActionsListIndex = t.ActionTriggerBlockIndex, t.ActionsListIndex
	case w.InvokeActionTrigger != nil:
		a.Invoked = true
		a.CallingResource = z.redactAddress(w.InvokeActionTrigger.CallingResourceAddress)
	default:
		return nil, fmt.Errorf("it has neither lifecycle_action_trigger nor invoke_action_trigger")
	}
	v, err := decodeValue(w.ConfigValues, w.ConfigSensitive, w.ConfigUnknown, secrets)
	if err != nil {
		return nil, fmt.Errorf("config_values: %w", err)
	}
	a.Config = v
	return a, nil
}

// triggerEvent turns Terraform's event name into snake case: its JSON has
// held both BeforeCreate (the Go constant's name) and before_create.
func triggerEvent(e string) string {
	var b strings.Builder
	for i, r := range e {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// onFailure turns Terraform's on_failure value into one lower-case word:
// ActionTriggerOnFailureFail, ActionOnFailureContinue and fail all occur.
func onFailure(s string) string {
	for _, p := range []string{"ActionTriggerOnFailure", "ActionOnFailure"} {
		s = strings.TrimPrefix(s, p)
	}
	return strings.ToLower(s)
}

// When says when the action runs, for a reviewer: "before RESOURCE is
// updated", "after RESOURCE is destroyed", or "when invoked directly
// (terraform apply -invoke)" followed by "for RESOURCE" when an invoked
// action has a calling resource; an event it does not know reads "on the
// EVENT event of RESOURCE". quote formats an address or event name, which
// come from the plan (the caller escapes them for its medium).
func (a *ActionInvocation) When(quote func(string) string) string {
	if a.Invoked {
		s := "when invoked directly (terraform apply -invoke)"
		if a.CallingResource != "" {
			s += " for " + quote(a.CallingResource)
		}
		return s
	}
	when, what, ok := strings.Cut(a.Event, "_")
	past := map[string]string{"create": "created", "update": "updated", "destroy": "destroyed"}[what]
	if !ok || (when != "before" && when != "after") || past == "" {
		if a.Event == "" {
			return "on an event the plan does not name of " + quote(a.TriggeringResource)
		}
		return "on the " + quote(a.Event) + " event of " + quote(a.TriggeringResource)
	}
	return when + " " + quote(a.TriggeringResource) + " is " + past
}
