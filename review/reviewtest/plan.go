package reviewtest

import (
	"encoding/json"
	"strings"
)

// PlanChange is one resource change of a plan that Plan writes.
type PlanChange struct {
	// Address is `type.name` (with instance keys); the type, name and
	// provider are read from it.
	Address string
	// Actions default to ["update"].
	Actions []string
	Deposed string
	// Before and After are the values; the marks are Terraform's
	// before_sensitive, after_sensitive and after_unknown.
	Before, After                   map[string]any
	BeforeSensitive, AfterSensitive map[string]any
	AfterUnknown                    map[string]any
	// ReplacePaths are replace_paths, as Terraform writes them.
	ReplacePaths [][]any
	// PreviousAddress moves the resource; ImportID imports it.
	PreviousAddress, ImportID string
}

// Plan writes a Terraform plan (terraform show -json) of the changes, in
// their order, and the same resource_drift when drift is given.
func Plan(changes []PlanChange, drift ...PlanChange) []byte {
	doc := map[string]any{
		"format_version": "1.2", "terraform_version": "1.9.8",
		"resource_changes": resourceChanges(changes),
	}
	if len(drift) > 0 {
		doc["resource_drift"] = resourceChanges(drift)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("reviewtest: plan: " + err.Error())
	}
	return b
}

func resourceChanges(changes []PlanChange) []any {
	out := make([]any, 0, len(changes))
	for _, c := range changes {
		typ, name, _ := strings.Cut(c.Address, ".")
		if i := strings.IndexByte(name, '['); i >= 0 {
			name = name[:i]
		}
		provider, _, _ := strings.Cut(typ, "_")
		actions := c.Actions
		if actions == nil {
			actions = []string{"update"}
		}
		ch := map[string]any{"actions": actions, "before": nilMap(c.Before), "after": nilMap(c.After),
			"before_sensitive": orEmpty(c.BeforeSensitive), "after_sensitive": orEmpty(c.AfterSensitive),
			"after_unknown": orEmpty(c.AfterUnknown)}
		if len(c.ReplacePaths) > 0 {
			ch["replace_paths"] = c.ReplacePaths
		}
		rc := map[string]any{"address": c.Address, "mode": "managed", "type": typ, "name": name,
			"provider_name": "registry.terraform.io/hashicorp/" + provider, "change": ch}
		if c.Deposed != "" {
			rc["deposed"] = c.Deposed
		}
		if c.PreviousAddress != "" {
			rc["previous_address"] = c.PreviousAddress
		}
		if c.ImportID != "" {
			ch["importing"] = map[string]any{"id": c.ImportID}
		}
		out = append(out, rc)
	}
	return out
}

func nilMap(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
