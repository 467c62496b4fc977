package planparse

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// foundSecret has no credential shape: only its name or its context gives
// it away, so where it shows again it is found only as a known secret.
const foundSecret = "Hunter2-prod-9x"

// echoChange shows secret unmarked under plain names: a description
// holding it and a tag equal to it.
func echoChange(secret string) string {
	return `{"address":"terraform_data.echo","mode":"managed","type":"terraform_data","name":"echo",
"change":{"actions":["update"],"before":{"description":"old","tags":{"note":"old"}},
"after":{"description":"connect with ` + secret + ` today","tags":{"note":"` + secret + `"}},
"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`
}

// echo stands for echoChange in the rows below.
const echo = "ECHO"

// randomKey has the shape of a generated key and nothing else.
const randomKey = "q8Zt2LmV0xR4nW7cB1pK9sD3"

func gzipBase64(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestFoundValuesHiddenWhereEchoed: a value found secret by its name or
// its context, never marked, is hidden where another resource shows it
// under a plain name, as a marked value is. One row per place the detector
// finds one; each row fails when its value does not join the plan's
// secret set.
func TestFoundValuesHiddenWhereEchoed(t *testing.T) {
	t.Parallel()
	const s = foundSecret
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	attrs := func(after map[string]any) string {
		return `"resource_changes":[` + echo + `,{"address":"terraform_data.src","mode":"managed","type":"terraform_data","name":"src",
"change":{"actions":["create"],"before":null,"after":` + js(after) + `,"after_unknown":{},"after_sensitive":{}}}]`
	}
	script := "#!/bin/bash\nexport DB_PASS=" + s + "\n/opt/app/start\n"
	cases := map[string]struct {
		body   string
		secret string // what is echoed (foundSecret unless said)
	}{
		"unmarked password attribute":      {body: attrs(map[string]any{"password": s})},
		"environment variable DB_PASS":     {body: attrs(map[string]any{"environment": map[string]any{"variables": map[string]any{"DB_PASS": s}}})},
		"camelCase adminPassword":          {body: attrs(map[string]any{"osProfile": map[string]any{"adminPassword": s}})},
		"list under a secret name":         {body: attrs(map[string]any{"ssh_keys": []any{s}})},
		"*_KEY holding a random key":       {body: attrs(map[string]any{"env": map[string]any{"SIGNING_KEY": randomKey}}), secret: randomKey},
		"{name, value} pair":               {body: attrs(map[string]any{"env": []any{map[string]any{"name": "DB_PASS", "value": s}}})},
		"DB_PASS= in plain user_data":      {body: attrs(map[string]any{"user_data": script})},
		"DB_PASS= in base64 user_data":     {body: attrs(map[string]any{"user_data": base64.StdEncoding.EncodeToString([]byte(script))})},
		"password in gzip+base64 data":     {body: attrs(map[string]any{"user_data": gzipBase64(t, "#cloud-config\nchpasswd:\n  list: |\n    admin:x\npassword: "+s+"\n")})},
		"Helm values (YAML in a string)":   {body: attrs(map[string]any{"values": []any{"replicaCount: 2\nauth:\n  rootPassword: " + s + "\n"}})},
		"password: in one line of text":    {body: attrs(map[string]any{"notes": "db_password: " + s})},
		"JSON container definitions":       {body: attrs(map[string]any{"container_definitions": `[{"name":"app","environment":[{"name":"DB_PASS","value":"` + s + `"}]}]`})},
		"URL with a password":              {body: attrs(map[string]any{"source_location": "https://deploy:" + s + "@git.example.com/app.git"})},
		"connection string":                {body: attrs(map[string]any{"app_settings": map[string]any{"DB": "Server=tcp:db,1433;Password=" + s + ";Encrypt=true"}})},
		"for_each key with a URL password": {body: `"resource_changes":[` + echo + `,{"address":"terraform_data.k[\"postgres://app:` + s + `@db\"]","mode":"managed","type":"terraform_data","name":"k","index":"postgres://app:` + s + `@db","change":{"actions":["create"],"before":null,"after":{}}}]`},
		"check message with a URL password": {body: `"resource_changes":[` + echo + `],"checks":[{"address":{"kind":"check","to_display":"check.db","name":"db"},"status":"fail",
"instances":[{"address":{"to_display":"check.db"},"status":"fail","problems":[{"message":"cannot log in with postgres://app:` + s + `@db:5432/app"}]}]}]`},
		"configuration constant": {body: `"resource_changes":[` + echo + `],"configuration":{"root_module":{"resources":[{"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db",
"expressions":{"password":{"constant_value":"` + s + `"}}}]}}`},
		"variable under a secret name": {body: `"resource_changes":[` + echo + `],"variables":{"db_password":{"value":"` + s + `"}}`},
		"output under a secret name": {body: `"resource_changes":[` + echo + `],"output_changes":{"db_password":{"actions":["create"],"before":null,"after":"` + s + `",
"after_unknown":false,"before_sensitive":false,"after_sensitive":false}}`},
		"action config": {body: `"resource_changes":[` + echo + `],"action_invocations":[{"address":"action.webhook_send.x","type":"webhook_send","name":"x",
"config_values":{"token":"` + s + `"},"lifecycle_action_trigger":{"triggering_resource_address":"terraform_data.echo","action_trigger_event":"after_update"}}]`},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			secret := c.secret
			if secret == "" {
				secret = s
			}
			p := mustParse(t, "plan.json", `{"format_version":"1.2",`+strings.Replace(c.body, echo, echoChange(secret), 1)+`}`)
			var after Value
			for _, ch := range p.Changes {
				if ch.Address == "terraform_data.echo" {
					after = ch.After()
				}
			}
			if got := after.Get("tags", "note").Display(); got != SensitiveText {
				t.Errorf("tags.note = %q, want %s", got, SensitiveText)
			}
			if got := after.Get("description").Display(); got != SensitiveText {
				t.Errorf("description = %q, want %s", got, SensitiveText)
			}
			if got := RedactText("log: retry with " + secret); strings.Contains(got, secret) {
				t.Errorf("a log line quoting the value keeps it: %q", got)
			}
			runtime.KeepAlive(p)
		})
	}
}

// TestWhatIfFoundValueHiddenWhereEchoed: the same in an ARM what-if: a
// VM's adminPassword (camelCase, unmarked) shown again in another
// resource's tag.
func TestWhatIfFoundValueHiddenWhereEchoed(t *testing.T) {
	t.Parallel()
	const s = foundSecret
	id := func(n string) string {
		return "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/" + n
	}
	doc := fmt.Sprintf(`{"status":"Succeeded","properties":{"changes":[
{"resourceId":%q,"changeType":"Create","after":{"name":"a","type":"Microsoft.Compute/virtualMachines","properties":{"osProfile":{"adminUsername":"azureuser","adminPassword":%q}}}},
{"resourceId":%q,"changeType":"Modify","before":{"name":"b","tags":{"note":"old"}},"after":{"name":"b","tags":{"note":%q}},
 "delta":[{"path":"tags.note","propertyChangeType":"Modify","before":"old","after":%q}]}]}}`, id("a"), s, id("b"), s, s)
	p := mustParse(t, "whatif.json", doc)
	var seen strings.Builder
	for _, c := range p.Changes {
		for _, d := range c.Diff() {
			seen.WriteString(d.Path + "=" + d.Before.Display() + ">" + d.After.Display() + "\n")
		}
		seen.WriteString(c.After().Display())
	}
	if strings.Contains(seen.String(), s) {
		t.Errorf("the what-if shows the password:\n%s", seen.String())
	}
	if !strings.Contains(seen.String(), "azureuser") {
		t.Errorf("the what-if lost what is no secret:\n%s", seen.String())
	}
}
