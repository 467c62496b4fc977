package planparse

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// TestRedactStateSections: `planwarden redact` hides what planned_values
// and prior_state hold, not only the changes: a sensitive output, an
// output whose name says secret, and the marked values of resources in
// the root module and in a child module. What no one marked stays.
func TestRedactStateSections(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{
		"sensitive output":        "Sens1tive-output-7q",
		"output named a secret":   "Named-output-secret-4k",
		"root module resource":    "Root-marked-value-2w",
		"child module resource":   "Child-marked-value-9z",
		"prior sensitive output":  "Prior-sens-output-3x",
		"prior resource (marked)": "Prior-marked-value-5v",
	}
	s := func(k string) string { b, _ := json.Marshal(secrets[k]); return string(b) }
	res := func(addr, secret string) string {
		return `{"address":"` + addr + `","mode":"managed","type":"aws_ssm_parameter","name":"p","values":{"value":` + secret + `,"tier":"Standard"},"sensitive_values":{"value":true}}`
	}
	plan := `{"format_version":"1.2","resource_changes":[],
"planned_values":{"outputs":{"conn":{"sensitive":true,"value":` + s("sensitive output") + `},"db_password":{"sensitive":false,"value":` + s("output named a secret") + `},"region":{"sensitive":false,"value":"eastus"}},
 "root_module":{"resources":[` + res("aws_ssm_parameter.a", s("root module resource")) + `],
  "child_modules":[{"address":"module.m","resources":[` + res("module.m.aws_ssm_parameter.b", s("child module resource")) + `]}]}},
"prior_state":{"format_version":"1.0","values":{"outputs":{"conn":{"sensitive":true,"value":` + s("prior sensitive output") + `}},
 "root_module":{"resources":[` + res("aws_ssm_parameter.a", s("prior resource (marked)")) + `]}}}}`
	if _, err := Parse("plan.json", []byte(plan)); err != nil {
		t.Fatal(err)
	}
	red, err := Redact("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	for where, secret := range secrets {
		if strings.Contains(string(red), secret) {
			t.Errorf("%s: the redacted plan still holds %q", where, secret)
		}
	}
	var doc struct {
		PlannedValues struct {
			Outputs map[string]struct {
				Value any `json:"value"`
			} `json:"outputs"`
			RootModule struct {
				Resources []struct {
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal(red, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.PlannedValues.Outputs["region"].Value; got != "eastus" {
		t.Errorf("a plain output changed: region = %v", got)
	}
	if got, _ := doc.PlannedValues.Outputs["conn"].Value.(string); !secret.IsRedacted(got) {
		t.Errorf("sensitive output conn = %v, want a placeholder", doc.PlannedValues.Outputs["conn"].Value)
	}
	if rs := doc.PlannedValues.RootModule.Resources; len(rs) != 1 || rs[0].Values["tier"] != "Standard" {
		t.Errorf("an unmarked resource value changed: %+v", rs)
	}
}
