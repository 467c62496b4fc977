package planparse

import "github.com/planwarden/planwarden/planparse/internal/secret"

// This file extends Redact to what actions.go and whatif.go read: the
// config of action invocations, and the payloads and deltas of an ARM
// what-if, so that `planwarden redact` hides in them what the review hides.

// extra redacts the action invocations and, for a what-if, its changes.
func (r redactor) extra(doc map[string]any) {
	for _, a := range list(doc["action_invocations"]) {
		r.action(obj(a))
	}
	for _, d := range list(doc["deferred_action_invocations"]) {
		r.action(obj(obj(d)["action_invocation"]))
	}
	if _, isPlan := doc["format_version"]; isPlan {
		return
	}
	changes := list(doc["changes"])
	if props := obj(doc["properties"]); len(list(props["changes"])) > 0 {
		changes = list(props["changes"])
	}
	for _, c := range changes {
		r.armChange(obj(c))
	}
	r.armError(obj(doc["error"]))
	r.armError(obj(obj(doc["properties"])["error"]))
	r.inputs(doc) // redact_inputs.go: Pulumi previews, stack what-ifs
}

// armError hides secrets in a failed what-if's messages, as the review's
// check does.
func (r redactor) armError(e map[string]any) {
	if e == nil {
		return
	}
	r.prose(e, "message")
	for _, d := range list(e["details"]) {
		r.armError(obj(d))
	}
}

func (r redactor) action(a map[string]any) {
	if a == nil {
		return
	}
	a["config_values"] = r.value(a["config_values"], a["config_sensitive"])
	r.marks(a["config_sensitive"])
	r.marks(a["config_unknown"])
	r.address(a, "address")
	r.address(obj(a["lifecycle_action_trigger"]), "triggering_resource_address")
	r.address(obj(a["invoke_action_trigger"]), "calling_resource_address")
}

// armChange hides what the review hides in a what-if entry: ARM secret
// properties (armMasks) and what the detector finds, in the payloads and
// in every delta leaf.
func (r redactor) armChange(c map[string]any) {
	if c == nil {
		return
	}
	if id, ok := c["resourceId"].(string); ok {
		c["resourceId"] = secret.RedactKnown(id, r.z.secrets)
	}
	for _, side := range []string{"before", "after"} {
		if c[side] != nil {
			sens, _ := armMasks(c[side], "", false)
			c[side] = r.value(armExpressions(c[side]), sens)
		}
	}
	for _, d := range list(c["delta"]) {
		r.armDelta(obj(d), "")
	}
}

func (r redactor) armDelta(d map[string]any, parent string) {
	if d == nil {
		return
	}
	path, _ := d["path"].(string)
	full := childPath(parent, path)
	leaf := full
	for i := len(full) - 1; i >= 0; i-- {
		if full[i] == '.' || full[i] == ']' {
			leaf = full[i+1:]
			break
		}
	}
	for _, side := range []string{"before", "after"} {
		if d[side] == nil {
			continue
		}
		sens, _ := armMasks(d[side], leaf, false)
		d[side] = r.z.shownOnly(pathSteps(full), r.z.sanitize(armExpressions(d[side]), sens, nil, leaf), 0)
	}
	for _, ch := range list(d["children"]) {
		r.armDelta(obj(ch), full)
	}
	if path != "" {
		d["path"] = secret.RedactKnown(path, r.z.secrets)
	}
}
