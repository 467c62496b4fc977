package planparse

import (
	"strings"
	"testing"
)

// errCanary is a value no allow-list shows: a malformed plan's error must
// not quote it wherever it sits.
const errCanary = "Zq7!k#err"

// TestErrorsQuoteNoPlanText: a malformed plan's error names the file, the
// field (and the line and column where the reader knows them) and what to
// do, and quotes a value of the plan only as the allow-list shows it: a
// canary planted in each place an error used to quote is absent, the
// honest value beside it is quoted.
func TestErrorsQuoteNoPlanText(t *testing.T) {
	t.Parallel()
	const tfHead = `{"format_version":"1.2","terraform_version":"1.14.0",`
	rc := func(address, actions string) string {
		return `{"address":` + q(address) + `,"mode":"managed","type":"aws_instance","name":"a","provider_name":"aws",` +
			`"change":{"actions":` + actions + `,"before":null,"after":{}}}`
	}
	tests := map[string]struct {
		plan   string
		says   []string // the field and location named
		honest string   // a value shown beside the canary
	}{
		"an unknown action": {tfHead + `"resource_changes":[` + rc("aws_instance.a", `["create",`+q(errCanary)+`]`) + `]}`,
			[]string{"plan.json:1:", "resource_changes[0] (aws_instance.a)", "field actions", "(text, 1 line)"}, "create"},
		"a bad action's address": {tfHead + `"resource_changes":[` + rc(`aws_instance.a["`+errCanary+` key"]`, `["launch"]`) + `]}`,
			[]string{"plan.json:1:", `resource_changes[0] (aws_instance.a["(sensitive) `}, "launch"},
		"an address that is not one": {tfHead + "\n" + `"resource_changes":[` + "\n" + rc(errCanary+" then more", `["launch"]`) + `]}`,
			[]string{"plan.json:3:1", "resource_changes[0] ((text, 1 line))"}, "launch"},
		"a drifted resource": {tfHead + `"resource_drift":[` + rc("aws_instance.d", `[`+q(errCanary)+`]`) + `]}`,
			[]string{"plan.json:1:", "resource_drift[0] (aws_instance.d)", "field actions"}, "aws_instance.d"},
		"an output": {tfHead + `"output_changes":{` + q(errCanary) + `:{"actions":["launch"],"before":null,"after":1}}}`,
			[]string{"output_changes.(text, 1 line)", "field actions"}, "launch"},
		"an action's address": {tfHead + `"action_invocations":[{"address":` + q("action.x.y "+errCanary) + `,"type":"x","name":"y","config_values":{}}]}`,
			[]string{"action_invocations[0] ((text, 1 line))", "neither lifecycle_action_trigger"}, ""},
		"a format version": {`{"format_version":` + q(errCanary) + `,"resource_changes":[]}`,
			[]string{"format_version (text, 1 line)"}, ""},
		"a what-if resource id": {`{"status":"Succeeded","changes":[{"resourceId":` + q("/subscriptions/x/"+errCanary) + `,"changeType":"Create","after":{}}]}`,
			[]string{"changes[0].resourceId", "(text, 1 line) has no Namespace/type/name"}, ""},
		"a what-if change type": {`{"status":"Succeeded","changes":[{"resourceId":"/subscriptions/0/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm","changeType":` + q(errCanary) + `,"after":{}}]}`,
			[]string{"changes[0] (/subscriptions/0/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm)", `unknown changeType "(text, 1 line)"`}, "virtualMachines/vm"},
		"a Pulumi URN": {`{"steps":[{"op":"create","urn":` + q("urn:pulumi:"+errCanary) + `,"newState":{"urn":"x","type":"aws:s3/bucket:Bucket","inputs":{}}}]}`,
			[]string{"steps[0].urn", "is not a Pulumi URN"}, ""},
		"a Pulumi op": {`{"steps":[{"op":` + q(errCanary) + `,"urn":"urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b","newState":{"urn":"urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b","type":"aws:s3/bucket:Bucket","inputs":{}}}]}`,
			[]string{"steps[0] (urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b)", `unknown op "(text, 1 line)"`}, "Bucket::b"},
		"a stack what-if change": {`{"properties":{"changes":{"resourceChanges":[{"id":"/subscriptions/0/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm","changeType":` + q(errCanary) + `}]}}}`,
			[]string{"resourceChanges[0] (/subscriptions/0/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm)", `unknown changeType "(text, 1 line)"`}, "virtualMachines/vm"},
		"not JSON": {tfHead + `"resource_changes":[` + errCanary + `]}`,
			[]string{"plan.json:1:", "not JSON"}, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("plan.json", []byte(tc.plan))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, errCanary) || strings.Contains(msg, "Zq7") {
				t.Errorf("the error quotes the plan's text: %s", msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("the error does not say %q: %s", s, msg)
				}
			}
			if tc.honest != "" && !strings.Contains(msg, tc.honest) {
				t.Errorf("the error does not quote the value %q an allow-list shows: %s", tc.honest, msg)
			}
		})
	}
}

func q(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
