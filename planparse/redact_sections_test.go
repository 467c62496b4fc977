package planparse

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// canaryText is a text the comment does not show (a sentence with a word
// that is neither a plain word nor a token) and the detector does not
// find: only the allow-list hides it. id names where it is planted.
func canaryText(id string) string { return "log in as ops with Zq7!k#" + id + " then run the job" }

// canaryWord is what must not survive of canaryText(id).
func canaryWord(id string) string { return "Zq7!k#" + id + " then" }

// canaryPlan is a Terraform plan with a canary in every section.
func canaryPlan() map[string]any {
	c := canaryText
	res := func(id string) map[string]any {
		return map[string]any{"address": "aws_instance.a", "mode": "managed", "type": "aws_instance", "name": "a",
			"provider_name": "registry.terraform.io/hashicorp/aws",
			"change": map[string]any{"actions": []any{"update"}, "before": map[string]any{"description": "old", "instance_type": "p4d.24xlarge"},
				"after": map[string]any{"description": c(id), "instance_type": "p4d.24xlarge"}, "after_unknown": map[string]any{},
				"before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}
	}
	state := func(id string) map[string]any {
		return map[string]any{"root_module": map[string]any{"resources": []any{map[string]any{"address": "aws_instance.a", "mode": "managed",
			"type": "aws_instance", "name": "a", "provider_name": "registry.terraform.io/hashicorp/aws",
			"values": map[string]any{"description": c(id)}, "sensitive_values": map[string]any{}}}}}
	}
	imported := res("generated")
	imported["address"], imported["name"] = "aws_instance.b", "b"
	change := imported["change"].(map[string]any)
	change["actions"] = []any{"no-op"}
	change["after"] = change["before"]
	change["importing"] = map[string]any{"id": "i-0abc"}
	change["generated_config"] = "resource \"aws_instance\" \"b\" {\n  description = \"" + c("generated") + "\"\n}\n"
	planned := state("planned")
	planned["outputs"] = map[string]any{"note": map[string]any{"sensitive": false, "value": c("plannedoutput")}}
	return map[string]any{
		"format_version": "1.2", "terraform_version": "1.14.0",
		"variables":        map[string]any{"note": map[string]any{"value": c("variable")}},
		"resource_changes": []any{res("change"), imported},
		"resource_drift":   []any{res("drift")},
		"output_changes": map[string]any{"note": map[string]any{"actions": []any{"update"}, "before": "old", "after": c("output"),
			"after_unknown": false, "before_sensitive": false, "after_sensitive": false}},
		"prior_state":    map[string]any{"format_version": "1.0", "terraform_version": "1.14.0", "values": state("prior")},
		"planned_values": planned,
		"configuration": map[string]any{"root_module": map[string]any{
			"variables": map[string]any{"note": map[string]any{"default": c("default")}},
			"outputs":   map[string]any{"note": map[string]any{"expression": map[string]any{"constant_value": c("outputconstant")}}},
			"resources": []any{map[string]any{"address": "aws_instance.a", "mode": "managed", "type": "aws_instance", "name": "a",
				"provider_config_key": "aws", "expressions": map[string]any{"description": map[string]any{"constant_value": c("constant")}}}}}},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "resource", "mode": "managed", "type": "aws_instance", "name": "a", "to_display": "aws_instance.a"},
			"status": "fail", "instances": []any{map[string]any{"address": map[string]any{"to_display": "aws_instance.a"}, "status": "fail",
				"problems": []any{map[string]any{"message": c("check")}}}}}},
	}
}

// plantIn reads a fixture and plants canaries in it.
func plantIn(t *testing.T, path string, plant func(doc map[string]any)) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	plant(doc)
	return doc
}

// TestRedactHidesTextInEverySection: a text the comment would not show,
// planted in each section a plan, a what-if or a Pulumi preview has, is
// not in the output of `planwarden redact`, and the redacted file still
// reads (each section's redaction is defended by its canary).
func TestRedactHidesTextInEverySection(t *testing.T) {
	t.Parallel()
	c := canaryText
	docs := map[string]struct {
		doc map[string]any
		ids []string
	}{
		"terraform plan": {canaryPlan(), []string{"change", "drift", "output", "variable", "prior", "planned", "plannedoutput",
			"default", "constant", "outputconstant", "check", "generated"}},
		"Helm values (YAML in a string)": {map[string]any{"format_version": "1.2", "terraform_version": "1.14.0",
			"resource_changes": []any{map[string]any{"address": "helm_release.vllm", "mode": "managed", "type": "helm_release", "name": "vllm",
				"provider_name": "registry.terraform.io/hashicorp/helm",
				"change": map[string]any{"actions": []any{"create"}, "before": nil, "after": map[string]any{"name": "vllm",
					"values": []any{"# " + c("helmcomment") + "\nreplicaCount: 2\nresources:\n  limits:\n    nvidia.com/gpu: 8\nargs: \"" + c("helm") + "\"\n"}},
					"after_unknown": map[string]any{}, "before_sensitive": false, "after_sensitive": map[string]any{}}}}},
			[]string{"helm", "helmcomment"}},
		"action invocation": {plantIn(t, actionsFixture, func(doc map[string]any) {
			a := doc["action_invocations"].([]any)[0].(map[string]any)
			a["config_values"].(map[string]any)["qualifier"] = c("action")
		}), []string{"action"}},
		"ARM what-if": {plantIn(t, "testdata/whatif/sub-two-groups.json", func(doc map[string]any) {
			ch := doc["changes"].([]any)[3].(map[string]any)
			ch["after"].(map[string]any)["properties"].(map[string]any)["description"] = c("whatif")
			ch["delta"] = append(ch["delta"].([]any), map[string]any{"path": "properties.description", "propertyChangeType": "Modify",
				"before": "old", "after": c("whatifdelta")})
			doc["error"] = map[string]any{"code": "DeploymentFailed", "message": c("whatiferror")}
		}), []string{"whatif", "whatifdelta", "whatiferror"}},
		"Pulumi preview": {plantIn(t, "testdata/pulumi/ops.json", func(doc map[string]any) {
			for _, s := range doc["steps"].([]any) {
				if st := s.(map[string]any); st["op"] == "create" {
					st["newState"].(map[string]any)["inputs"].(map[string]any)["description"] = c("pulumi")
					break
				}
			}
			doc["config"].(map[string]any)["ml:note"] = c("pulumiconfig")
		}), []string{"pulumi", "pulumiconfig"}},
		"stack what-if": {plantIn(t, "testdata/stackwhatif/stack-rg.json", func(doc map[string]any) {
			rc := doc["properties"].(map[string]any)["changes"].(map[string]any)["resourceChanges"].([]any)[0].(map[string]any)["resourceConfigurationChanges"].(map[string]any)
			rc["after"].(map[string]any)["properties"].(map[string]any)["description"] = c("stack")
			rc["delta"] = append(rc["delta"].([]any), map[string]any{"path": "properties.description", "changeType": "modify", "before": "old", "after": c("stackdelta")})
		}), []string{"stack", "stackdelta"}},
	}
	for name, tc := range docs {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Redact("plan.json", data)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse("plan.json", out); err != nil {
				t.Errorf("the redacted file does not parse: %v", err)
			}
			for _, id := range tc.ids {
				word, _ := json.Marshal(canaryWord(id))
				word = word[1 : len(word)-1]
				if !strings.Contains(string(data), string(word)) {
					t.Fatalf("%s: the canary was not planted: the test would prove nothing", id)
				}
				secret.Find(c(id), "", func(x string) { t.Fatalf("%s: the detector finds %q: the canary does not test the allow-list", id, x) })
				if strings.Contains(string(out), string(word)) {
					t.Errorf("%s: the canary planted there is in the redacted file", id)
				}
			}
		})
	}
}
