package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
)

// foundPW has no credential shape: only its name gives it away (an
// environment variable DB_PASS, an ARM adminPassword). Where it shows again
// it is found only because it joined the plan's secret set.
const foundPW = "Hunter2-prod-9x"

// sourceOfFoundPW is the change that gives foundPW away by its name.
func sourceOfFoundPW() map[string]any {
	return update("aws_lambda_function.api", "aws_lambda_function",
		map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"LOG_LEVEL": "info"}}}},
		map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"LOG_LEVEL": "info", "DB_PASS": foundPW}}}})
}

// foundCases are the places a value found secret by its name can show
// again, unmarked and unremarkable, one case per place. shows is what of
// the place must still be there.
func foundCases() map[string]planted {
	pw := foundPW
	cases := map[string]planted{}
	cases["another resource's description"] = planted{plan: planOf(sourceOfFoundPW(),
		update("aws_iam_user.ci", "aws_iam_user", map[string]any{"description": "CI user"}, map[string]any{"description": "CI user; database login " + pw})),
		shows: "aws_iam_user.ci"}
	cases["a tag value"] = planted{plan: planOf(sourceOfFoundPW(),
		update("aws_instance.x", "aws_instance", map[string]any{"tags": map[string]any{"team": "ml"}}, map[string]any{"tags": map[string]any{"team": "ml", "note": pw}})),
		shows: "aws_instance.x"}
	out := planOf(sourceOfFoundPW())
	out["output_changes"] = map[string]any{"db_login": map[string]any{"actions": []string{"update"}, "before": "old", "after": pw,
		"after_unknown": false, "before_sensitive": false, "after_sensitive": false}}
	cases["an output"] = planted{plan: out, shows: "db_login"}
	check := planOf(sourceOfFoundPW())
	check["checks"] = []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.db", "name": "db"}, "status": "fail",
		"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.db"}, "status": "fail",
			"problems": []any{map[string]any{"message": "login with " + pw + " was refused"}}}}}}
	cases["a check message"] = planted{plan: check, shows: "was refused"}
	keyed := update(`aws_ssm_parameter.p["`+pw+`"]`, "aws_ssm_parameter", map[string]any{"type": "String"}, map[string]any{"type": "SecureString"})
	keyed["index"] = pw
	cases["an address key"] = planted{plan: planOf(sourceOfFoundPW(), keyed), shows: `aws_ssm_parameter.p["(sensitive) `}
	rp := update("terraform_data.r", "terraform_data", map[string]any{"triggers_replace": map[string]any{pw: "1"}}, map[string]any{"triggers_replace": map[string]any{pw: "2"}})
	rp["change"].(map[string]any)["actions"] = []string{"delete", "create"}
	rp["change"].(map[string]any)["replace_paths"] = []any{[]any{"triggers_replace", pw}}
	cases["a replace path"] = planted{plan: planOf(sourceOfFoundPW(), rp), shows: "terraform_data.r"}
	act := planOf(sourceOfFoundPW())
	act["action_invocations"] = []any{map[string]any{"address": "action.webhook_send.notify", "type": "webhook_send", "name": "notify",
		"config_values":            map[string]any{"message": "deployed with " + pw, "channel": "ops-alerts"},
		"lifecycle_action_trigger": map[string]any{"triggering_resource_address": "aws_lambda_function.api", "action_trigger_event": "after_update"}}}
	cases["an action config"] = planted{plan: act, shows: "ops-alerts"}
	id := func(n string) string {
		return "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/" + n
	}
	cases["a what-if property"] = planted{plan: map[string]any{"status": "Succeeded", "properties": map[string]any{"changes": []any{
		map[string]any{"resourceId": id("trainer"), "changeType": "Create", "after": map[string]any{"name": "trainer", "type": "Microsoft.Compute/virtualMachines",
			"properties": map[string]any{"osProfile": map[string]any{"adminUsername": "azureuser", "adminPassword": pw}}}},
		map[string]any{"resourceId": id("infer"), "changeType": "Modify",
			"before": map[string]any{"name": "infer", "type": "Microsoft.Compute/virtualMachines", "tags": map[string]any{"note": "old"}},
			"after":  map[string]any{"name": "infer", "type": "Microsoft.Compute/virtualMachines", "tags": map[string]any{"note": pw}},
			"delta":  []any{map[string]any{"path": "tags.note", "propertyChangeType": "Modify", "before": "old", "after": pw}}},
	}}}, shows: "virtualMachines/infer"}
	for k, c := range cases {
		c.leaks = []string{pw}
		cases[k] = c
	}
	return cases
}

// TestFoundSecretsHiddenWhereEchoed: a value found secret only by its name
// (never marked) is hidden where another place shows it, in the comment,
// the check run, the JSON report and the output of `planwarden redact`,
// whose review is still the review of the plan.
func TestFoundSecretsHiddenWhereEchoed(t *testing.T) {
	t.Parallel()
	for name, tc := range foundCases() {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.plan)
			if err != nil {
				t.Fatal(err)
			}
			parts := reviewParts(t, "plan.json", data)
			for _, part := range parts {
				if strings.Contains(part.text, foundPW) {
					t.Errorf("%s holds the password:\n%s", part.what, excerpt(part.text, foundPW))
				}
			}
			out := parts[0].text + parts[1].text + parts[2].text
			if !strings.Contains(out, tc.shows) {
				t.Errorf("the output lost %q, which is no secret", tc.shows)
			}
			red, err := planparse.Redact("plan.json", data)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(red), foundPW) {
				t.Errorf("the redacted plan holds the password:\n%s", excerpt(string(red), foundPW))
			}
			if d := cmp.Diff(sameDigests(out), sameDigests(reviewAll(t, "plan.json", red))); d != "" {
				t.Errorf("the review of the redacted plan differs (-original +redacted):\n%s", d)
			}
		})
	}
}

// excerpt is the text around the first occurrence of s.
func excerpt(text, s string) string {
	i := strings.Index(text, s)
	return text[max(0, i-200):min(len(text), i+len(s)+100)]
}
