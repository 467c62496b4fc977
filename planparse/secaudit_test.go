package planparse

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// auditSecret is marked sensitive in auditPlan's first resource; each case
// echoes it in one more place of the plan.
const auditSecret = "Zq8vLm3Np0Rt7Xy2"

// auditPlan is a plan whose first change marks auditSecret sensitive,
// followed by the given resource changes and top-level members (JSON).
func auditPlan(changes, members string) []byte {
	s := `{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[` +
		`{"address":"aws_ssm_parameter.a","mode":"managed","type":"aws_ssm_parameter","name":"a","provider_name":"aws",` +
		`"change":{"actions":["create"],"before":null,"after":{"name":"x","value":"SECRET"},"after_sensitive":{"value":true}}}`
	if changes != "" {
		s += "," + changes
	}
	s += "]"
	if members != "" {
		s += "," + members
	}
	return []byte(strings.ReplaceAll(s+"}", "SECRET", auditSecret))
}

// auditChange is a resource change of aws_instance.b with extra members.
func auditChange(actions, extra string) string {
	return `{"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b","provider_name":"aws"` + extra +
		`,"change":{"actions":` + actions + `,"before":null,"after":{"ami":"ami-1"}}}`
}

// shownAndRedacted returns what a review of data shows (the values, and the
// names, keys, reasons and paths around them; Parse's error when it
// refuses data) and Redact's file (or its error).
func shownAndRedacted(t *testing.T, name string, data []byte) (shown, redacted string) {
	t.Helper()
	if p, err := Parse(name, data); err != nil {
		shown = err.Error()
	} else {
		shown = displayed(p)
		for _, o := range p.Outputs {
			shown += " " + o.Name
		}
		for _, d := range p.Deferred {
			shown += " " + d.Reason + d.Change.Address + d.Change.Index
		}
		for _, c := range p.Changes {
			shown += " " + c.Deposed + c.Reason
		}
	}
	out, err := Redact(name, data)
	if err != nil {
		return shown, err.Error()
	}
	return shown, string(out)
}

// A marked secret echoed where a plan's names, keys and reasons stand is
// hidden in what the review shows, in Parse's errors and in Redact's file.
func TestMarkedSecretEchoedInNamesAndReasons(t *testing.T) {
	t.Parallel()
	output := `"output_changes":{"SECRET":{"actions":["create"],"before":null,"after":"x","after_unknown":false,"before_sensitive":false,"after_sensitive":false}}`
	tests := map[string][]byte{
		"output name": auditPlan("", output),
		"output name in planned_values, prior_state and configuration": auditPlan("", output+
			`,"planned_values":{"outputs":{"SECRET":{"sensitive":false,"value":"x"}},"root_module":{}}`+
			`,"prior_state":{"format_version":"1.0","values":{"outputs":{"SECRET":{"sensitive":false,"value":"x"}},"root_module":{}}}`+
			`,"configuration":{"root_module":{"outputs":{"SECRET":{"expression":{"constant_value":"x"}}}}}`),
		"deposed key":                   auditPlan(auditChange(`["delete"]`, `,"deposed":"SECRET"`), ""),
		"action_reason":                 auditPlan(auditChange(`["create"]`, `,"action_reason":"SECRET"`), ""),
		"object index":                  auditPlan(auditChange(`["create"]`, `,"index":{"k":"SECRET"}`), ""),
		"check instance_key":            auditPlan("", `"checks":[{"address":{"kind":"resource","mode":"managed","type":"aws_instance","name":"b","to_display":"aws_instance.b"},"status":"fail","instances":[{"address":{"to_display":"aws_instance.b[\"SECRET\"]","instance_key":"SECRET"},"status":"fail","problems":[{"message":"bad"}]}]}]`),
		"deferred reason":               auditPlan("", `"deferred_changes":[{"reason":"SECRET","resource_change":`+auditChange(`["create"]`, "")+`}]`),
		"deferred reason in text":       auditPlan("", `"deferred_changes":[{"reason":"r-SECRET","resource_change":`+auditChange(`["create"]`, "")+`}]`),
		"unknown action (error)":        auditPlan(auditChange(`["SECRET"]`, ""), ""),
		"variable name":                 auditPlan("", `"variables":{"SECRET":{"value":"x"}},"configuration":{"root_module":{"variables":{"SECRET":{"default":"x"}}}}`),
		"unknown output action (error)": auditPlan("", strings.Replace(output, `["create"]`, `["SECRET"]`, 1)),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(string(data), auditSecret) {
				t.Fatal("the plan lacks the secret: the test would prove nothing")
			}
			shown, redacted := shownAndRedacted(t, "plan.json", data)
			if strings.Contains(shown, auditSecret) {
				t.Errorf("the review shows the secret: %s", shown)
			}
			if strings.Contains(redacted, auditSecret) {
				t.Errorf("the redacted plan holds the secret:\n%s", redacted)
			}
		})
	}
}

// A marked secret base64-encoded in another value (alone, inside a script,
// gzipped) is hidden like the secret, in the review and in Redact's file.
func TestMarkedSecretEchoedInBase64(t *testing.T) {
	t.Parallel()
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("#!/bin/sh\nexport X=" + auditSecret + "\n"))
	w.Close()
	blobs := map[string]string{
		"the secret":         base64.StdEncoding.EncodeToString([]byte(auditSecret)),
		"a script":           base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\necho " + auditSecret + " > /etc/app\n")),
		"a gzipped script":   base64.StdEncoding.EncodeToString(gz.Bytes()),
		"unpadded, url-safe": base64.RawURLEncoding.EncodeToString([]byte("run " + auditSecret)),
	}
	for name, blob := range blobs {
		t.Run(name, func(t *testing.T) {
			data := auditPlan(`{"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b","provider_name":"aws",`+
				`"change":{"actions":["create"],"before":null,"after":{"description":"`+blob+`"}}}`, "")
			shown, redacted := shownAndRedacted(t, "plan.json", data)
			notShown(t, shown, redacted, blob)
		})
	}
}

// A marked secret lowered, upper-cased or URL-encoded in another value (a
// bucket name from lower(var.x), a query string) is hidden like the
// secret; a short one or one of words only is not looked for that way.
func TestMarkedSecretEchoedTransformed(t *testing.T) {
	t.Parallel()
	const special = "Ab1/Cd2+Ef3=Gh 4%"
	tests := []struct {
		name, secret, echo string
		hidden             bool
	}{
		{"lower", auditSecret, "bucket-" + strings.ToLower(auditSecret), true},
		{"upper", auditSecret, strings.ToUpper(auditSecret), true},
		{"query escaped", special, "https://x.example/?p=" + url.QueryEscape(special), true},
		{"path escaped", special, "https://x.example/" + url.PathEscape(special) + "/v", true},
		{"hex", auditSecret, "id-" + hex.EncodeToString([]byte(auditSecret)), true},
		{"json escapes in a document", "a/" + auditSecret, `{"k":"a\/\u005a` + auditSecret[1:] + `"}`, true},
		{"words only", "Production-Main", "production-main", false},
		{"short", "Ab1c9Z", "ab1c9z", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := json.Marshal(tc.secret)
			e, _ := json.Marshal(tc.echo)
			data := []byte(`{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[` +
				`{"address":"aws_ssm_parameter.a","mode":"managed","type":"aws_ssm_parameter","name":"a","provider_name":"aws",` +
				`"change":{"actions":["create"],"before":null,"after":{"name":"x","value":` + string(q) + `},"after_sensitive":{"value":true}}},` +
				`{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","name":"b","provider_name":"aws",` +
				`"change":{"actions":["create"],"before":null,"after":{"bucket":` + string(e) + `}}}]}`)
			shown, redacted := shownAndRedacted(t, "plan.json", data)
			if strings.Contains(shown, tc.echo) == tc.hidden {
				t.Errorf("hidden = %v, want %v: %s", !tc.hidden, tc.hidden, shown)
			}
			if strings.Contains(redacted, string(e[1:len(e)-1])) == tc.hidden {
				t.Errorf("redacted: hidden = %v, want %v:\n%s", !tc.hidden, tc.hidden, redacted)
			}
		})
	}
}

// A value prior_state or planned_values marks sensitive (a data source read
// at plan time appears only there) is hidden where a change echoes it.
func TestStateMarkedSecretEchoed(t *testing.T) {
	t.Parallel()
	state := `{"root_module":{"resources":[{"address":"data.aws_secretsmanager_secret_version.db","mode":"data","type":"aws_secretsmanager_secret_version","name":"db",` +
		`"values":{"arn":"arn:aws:secretsmanager:us-east-1:1:secret:db","body":"` + auditSecret + `"},"sensitive_values":{"body":true}}]}}`
	for name, member := range map[string]string{
		"prior_state":    `"prior_state":{"format_version":"1.0","values":` + state + `}`,
		"planned_values": `"planned_values":` + state,
	} {
		t.Run(name, func(t *testing.T) {
			data := []byte(`{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[` +
				`{"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b","provider_name":"aws",` +
				`"change":{"actions":["create"],"before":null,"after":{"description":"db ` + auditSecret + `"}}}],` + member + `}`)
			shown, redacted := shownAndRedacted(t, "plan.json", data)
			notShown(t, shown, redacted, auditSecret)
		})
	}
}

// In an ARM what-if, a secret found in one resource (an adminPassword) is
// hidden where it shows again outside values: in a resource's name, a
// delta's path, the operation's error and Parse's errors; so is Redact's.
func TestWhatIfSecretEchoedInNames(t *testing.T) {
	t.Parallel()
	const rid = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/"
	a := `{"resourceId":"` + rid + `a","changeType":"Create","after":{"name":"a","type":"Microsoft.Compute/virtualMachines","properties":{"osProfile":{"adminPassword":"SECRET"}}}}`
	tests := map[string]string{
		"resource name": `{"status":"Succeeded","properties":{"changes":[` + a + `,{"resourceId":"` + rid + `b-SECRET","changeType":"Create","after":{}}]}}`,
		"delta path": `{"status":"Succeeded","properties":{"changes":[` + a + `,{"resourceId":"` + rid + `b","changeType":"Modify","before":{},"after":{},` +
			`"delta":[{"path":"tags","propertyChangeType":"Modify","children":[{"path":"SECRET","propertyChangeType":"Create","after":"x"}]}]}]}}`,
		"error message":      `{"status":"Failed","error":{"code":"X","message":"bad SECRET","details":[{"code":"Y","message":"SECRET"}]},"properties":{"changes":[` + a + `]}}`,
		"changeType (error)": `{"status":"Succeeded","properties":{"changes":[` + a + `,{"resourceId":"` + rid + `b","changeType":"SECRET","after":{}}]}}`,
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			data := []byte(strings.ReplaceAll(doc, "SECRET", auditSecret))
			shown, redacted := shownAndRedacted(t, "whatif.json", data)
			if strings.Contains(shown, auditSecret) {
				t.Errorf("the review shows the secret: %s", shown)
			}
			if strings.Contains(redacted, auditSecret) {
				t.Errorf("the redacted file holds the secret:\n%s", redacted)
			}
		})
	}
}

// notShown fails the test when the review (shown) or the redacted plan
// holds secret.
func notShown(t *testing.T, shown, redacted, secret string) {
	t.Helper()
	if strings.Contains(shown, secret) {
		t.Errorf("the review shows it: %s", shown)
	}
	if strings.Contains(redacted, secret) {
		t.Errorf("the redacted plan holds it:\n%s", redacted)
	}
}
