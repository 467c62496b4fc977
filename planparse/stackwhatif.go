package planparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// This file reads Azure Deployment Stacks what-if results: the
// Microsoft.Resources/deploymentStacksWhatIfResults resource of API
// 2025-07-01 (`az stack-whatif group|sub|mg create ... --output json`, or
// the REST whatIf response), whose properties.changes.resourceChanges list
// what the stack creates, modifies, deletes or detaches. A resource the
// template no longer declares is deleted or detached as the stack's
// actionOnUnmanage says: a delete is a delete (the rules judge it so), a
// detach is a forget (the resource keeps running outside the stack). The
// result reads like a group or subscription what-if: Plan.Tool is
// ToolWhatIf.

// stackWhatIfHint says how to produce a stack what-if planwarden reads.
const stackWhatIfHint = "produce it with `az stack-whatif group create ... --output json` (or `sub`, `mg`)"

type wireStackWhatIf struct {
	Type       string                `json:"type"`
	Properties *wireStackWhatIfProps `json:"properties"`
}

type wireStackWhatIfProps struct {
	ActionOnUnmanage struct {
		Resources        string `json:"resources"`
		ResourceGroups   string `json:"resourceGroups"`
		ManagementGroups string `json:"managementGroups"`
	} `json:"actionOnUnmanage"`
	Changes *struct {
		ResourceChanges []wireStackChange `json:"resourceChanges"`
	} `json:"changes"`
	Error       *wireARMError `json:"error"`
	Diagnostics []struct {
		Level   string `json:"level"`
		Code    string `json:"code"`
		Message string `json:"message"`
		Target  string `json:"target"`
	} `json:"diagnostics"`
	ProvisioningState string `json:"provisioningState"`
}

type wireStackChange struct {
	ID                     string `json:"id"`
	Type                   string `json:"type"`
	SymbolicName           string `json:"symbolicName"`
	ChangeType             string `json:"changeType"`
	ChangeCertainty        string `json:"changeCertainty"`
	UnsupportedReason      string `json:"unsupportedReason"`
	ManagementStatusChange *struct {
		Before string `json:"before"`
		After  string `json:"after"`
	} `json:"managementStatusChange"`
	ResourceConfigurationChanges *struct {
		Before json.RawMessage     `json:"before"`
		After  json.RawMessage     `json:"after"`
		Delta  []wireStackProperty `json:"delta"`
	} `json:"resourceConfigurationChanges"`
}

type wireStackProperty struct {
	Path       string              `json:"path"`
	ChangeType string              `json:"changeType"`
	Before     json.RawMessage     `json:"before"`
	After      json.RawMessage     `json:"after"`
	Children   []wireStackProperty `json:"children"`
}

// stackWhatIfDoc decodes data as a stack what-if result when it is one: a
// JSON object without format_version whose properties (or the object
// itself) hold changes.resourceChanges, or whose type is
// Microsoft.Resources/deploymentStacksWhatIfResults.
func stackWhatIfDoc(data []byte) (*wireStackWhatIf, bool) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(trimmed, []byte(`resourceChanges`)) &&
		!bytes.Contains(bytes.ToLower(trimmed), []byte(`deploymentstackswhatifresults`)) {
		return nil, false
	}
	var probe struct {
		FormatVersion json.RawMessage `json:"format_version"`
		Type          string          `json:"type"`
		Changes       json.RawMessage `json:"changes"`
		Properties    *struct {
			Changes json.RawMessage `json:"changes"`
		} `json:"properties"`
	}
	if json.Unmarshal(trimmed, &probe) != nil || probe.FormatVersion != nil {
		return nil, false
	}
	hasChanges := func(raw json.RawMessage) bool {
		var c struct {
			ResourceChanges json.RawMessage `json:"resourceChanges"`
		}
		return len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &c) == nil && len(c.ResourceChanges) > 0 && c.ResourceChanges[0] == '['
	}
	var w wireStackWhatIf
	switch {
	case probe.Properties != nil && (hasChanges(probe.Properties.Changes) || strings.EqualFold(probe.Type, "Microsoft.Resources/deploymentStacksWhatIfResults")):
		if json.Unmarshal(trimmed, &w) != nil {
			return nil, false
		}
	case hasChanges(probe.Changes): // the result's properties alone
		w.Properties = &wireStackWhatIfProps{}
		if json.Unmarshal(trimmed, w.Properties) != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return &w, true
}

// parseStackWhatIf maps a stack what-if result onto the change model, as
// parseWhatIf does a deployment's.
func parseStackWhatIf(name string, w *wireStackWhatIf, secrets *secret.Set) (*Plan, error) {
	complete := true
	p := &Plan{File: name, Tool: ToolWhatIf, Complete: &complete, lazy: &lazyPlan{}}
	props := w.Properties
	if props.Error != nil && (props.Error.Code != "" || props.Error.Message != "") || strings.EqualFold(props.ProvisioningState, "failed") {
		p.Errored = true
		problems := armErrors(props.Error)
		for i, m := range problems {
			problems[i] = secret.Redact(m, secrets)
		}
		p.Checks = append(p.Checks, &Check{Address: "stack what-if", Kind: "what-if", Status: "error", Problems: problems})
	}
	for _, d := range props.Diagnostics {
		if strings.EqualFold(d.Level, "error") {
			p.Errored = true
			p.Checks = append(p.Checks, &Check{Address: orText(secret.RedactKnown(d.Target, secrets), "stack what-if"), Kind: "diagnostic", Status: "error",
				Problems: []string{secret.Redact(strings.TrimSpace(d.Code+": "+d.Message), secrets)}})
		}
	}
	var changes []wireStackChange
	if props.Changes != nil {
		changes = props.Changes.ResourceChanges
	}
	ids := make([]armID, len(changes))
	groups := map[string]bool{}
	for i, c := range changes {
		if c.ID == "" {
			continue // an extension resource named by its identifiers: listed as skipped below
		}
		id, err := parseARMID(c.ID)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("properties.changes.resourceChanges[%d].id: %v", i, err), secrets),
				Hint: "the file looks hand-edited or truncated; " + stackWhatIfHint}
		}
		ids[i] = id
		if id.group != "" {
			groups[strings.ToLower(id.group)] = true
		}
	}
	for i := range changes {
		c := &changes[i]
		ct := strings.ToLower(c.ChangeType)
		if c.ID == "" {
			p.Skipped = append(p.Skipped, &SkippedChange{Address: secret.RedactKnown(orText(c.SymbolicName, c.Type), secrets), Type: c.Type, ChangeType: c.ChangeType,
				Reason: "an extension resource without an ARM resource id; planwarden reads resources by id"})
			continue
		}
		addr, typ := secret.RedactKnown(ids[i].address(len(groups) > 1), secrets), ids[i].typ
		var before, after json.RawMessage
		var delta []wireARMProperty
		if rc := c.ResourceConfigurationChanges; rc != nil {
			before, after, delta = rc.Before, rc.After, armDelta(rc.Delta)
		}
		if t := payloadType(after, before); t != "" && strings.EqualFold(t, typ) {
			typ = t
		}
		if ct == "unsupported" {
			p.Skipped = append(p.Skipped, &SkippedChange{Address: addr, Type: typ, ChangeType: c.ChangeType, Reason: orText(c.UnsupportedReason, "ARM gives no reason")})
			continue
		}
		armType := map[string]string{"create": "Create", "delete": "Delete", "modify": "Modify", "nochange": "NoChange", "detach": "NoChange"}[ct]
		if armType == "" {
			return nil, &Error{File: name, Kind: ErrNotPlan,
				Detail: secret.RedactKnown(fmt.Sprintf("properties.changes.resourceChanges[%d] (%s): unknown changeType %q (a stack what-if's are create, delete, detach, modify, noChange, unsupported)", i, ShownName(c.ID), ShownName(c.ChangeType)), secrets),
				Hint:   "the file looks hand-edited or truncated; " + stackWhatIfHint}
		}
		ch, err := newARMChange(addr, typ, ids[i], &wireARMChange{ResourceID: c.ID, ChangeType: armType, Before: before, After: after, Delta: delta}, secrets)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("properties.changes.resourceChanges[%d] (%s): %v", i, ShownName(c.ID), err), secrets),
				Hint: "the file looks hand-edited or truncated; " + stackWhatIfHint}
		}
		switch ct {
		case "delete":
			ch.Reason = "it is no longer in the stack's template, and the stack deletes it" + unmanageSetting(props, typ, ct)
		case "detach":
			ch.Action, ch.whatIf = ActionForget, &whatIfDiff{}
			ch.Reason = "it is no longer in the stack's template, and the stack detaches it" + unmanageSetting(props, typ, ct) +
				": it keeps running, and billing, outside the stack"
		}
		if strings.EqualFold(c.ChangeCertainty, "potential") {
			ch.Reason = strings.TrimPrefix(ch.Reason+"; ", "; ") + "ARM marks this change potential, not certain"
		}
		p.Changes = append(p.Changes, ch)
	}
	p.lazy.secrets = secrets
	secret.Remember(secrets)
	return p, nil
}

// unmanageSetting names the actionOnUnmanage setting that makes the stack
// delete or detach (action) a resource of type typ the template no longer
// declares, as " (actionOnUnmanage.resources: delete)"; "" when the result
// does not say so.
func unmanageSetting(props *wireStackWhatIfProps, typ, action string) string {
	a := props.ActionOnUnmanage
	scope, setting := "resources", a.Resources
	switch {
	case strings.EqualFold(typ, "Microsoft.Resources/resourceGroups"):
		scope, setting = "resourceGroups", a.ResourceGroups
	case strings.EqualFold(typ, "Microsoft.Management/managementGroups"):
		scope, setting = "managementGroups", a.ManagementGroups
	}
	if !strings.EqualFold(setting, action) {
		return ""
	}
	return " (actionOnUnmanage." + scope + ": " + setting + ")"
}

// armDelta converts a stack what-if's property changes into the shape of a
// deployment what-if's delta (changeType there is propertyChangeType).
func armDelta(ps []wireStackProperty) []wireARMProperty {
	if len(ps) == 0 {
		return nil
	}
	out := make([]wireARMProperty, len(ps))
	for i, p := range ps {
		out[i] = wireARMProperty{Path: p.Path, PropertyChangeType: p.ChangeType, Before: p.Before, After: p.After, Children: armDelta(p.Children)}
	}
	return out
}
