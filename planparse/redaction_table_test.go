package planparse

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// These tests defend the redaction rules one by one through Parse's public
// values (what the comment prints): each case fails when the word, hint,
// mark shape or guard it names is removed from the code (docs/secrets.md,
// issue 18's mutation testing).

// plainValue is no known secret format and does not look random, so only a
// secret-looking name or a sensitivity mark can hide it.
const plainValue = "Plain-Value-42"

// otherValue is another such value.
const otherValue = "Other-Value-43"

// oneChange is a plan with the resource changes given as after/after_sensitive pairs.
func planOf(t *testing.T, changes ...[2]string) *Plan {
	t.Helper()
	var rc []string
	for i, c := range changes {
		rc = append(rc, fmt.Sprintf(`{"address":"terraform_data.r%d","mode":"managed","type":"terraform_data","name":"r%d",
"change":{"actions":["create"],"before":null,"after":%s,"after_unknown":{},"before_sensitive":false,"after_sensitive":%s}}`, i, i, c[0], c[1]))
	}
	p, err := Parse("plan.json", []byte(`{"format_version":"1.2","resource_changes":[`+strings.Join(rc, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSecretNamesHideUnmarkedValues: an attribute whose name holds a
// secret word is hidden even when the provider did not mark it. One row per
// entry of secretWords (and so per entry of secretHints: each hint is the
// only one some row's name contains); another value under a plain name in
// the same change stays visible, and the value alone is no secret.
func TestSecretNamesHideUnmarkedValues(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"password":               "admin_password",
		"passwd":                 "db_passwd",
		"secret":                 "client_secret",
		"token":                  "bot_token",
		"private_key":            "tls_private_key",
		"privatekey":             "gpgprivatekey",
		"connection_string":      "db_connection_string",
		"connectionstring":       "storageconnectionstring",
		"access_key":             "s3_access_key",
		"accesskey":              "storageaccesskey",
		"api_key":                "datadog_api_key",
		"apikey":                 "sendgridapikey",
		"client_key":             "tls_client_key",
		"sas_url":                "blob_sas_url",
		"sas_token":              "blob_sas_token", // also "token": removing sas_token alone changes nothing
		"credential":             "registry_credential",
		"primary_key":            "cosmos_primary_key",
		"secondary_key":          "cosmos_secondary_key",
		"auth_key":               "tailscale_auth_key",
		"shared_key":             "vpn_shared_key",
		"kube_config":            "kube_config_raw",
		"kube_admin_config":      "kube_admin_config_raw",
		"certificate_data":       "root_certificate_data",
		"client_certificate":     "tls_client_certificate",
		"cluster_ca_certificate": "eks_cluster_ca_certificate",
		"private_ip_key":         "vm_private_ip_key",
		"ssh_key":                "admin_ssh_key",
		"key_material":           "kms_key_material",
		"user_data_base64":       "instance_user_data_base64",
		"custom_data":            "vm_custom_data",
		"master_key":             "redis_master_key",
		"encryption_key":         "disk_encryption_key",
		// Names with capitals (ARM, Bicep, Kubernetes) are lower-cased first.
		"capitals (ARM style)": "AdminPassword",
		"all capitals":         "ADMINPASSWORD",
		"only an upper A":      "Accesskey",
	}
	for _, w := range secret.Words() {
		if _, ok := cases[w]; !ok {
			t.Errorf("secret word %q has no row here: add one", w)
		}
	}
	if got := planOf(t, [2]string{fmt.Sprintf(`{"label":%q}`, plainValue), `{}`}).Changes[0].After().Get("label").Display(); got != plainValue {
		t.Fatalf("label = %q, want %q (the value itself is no secret)", got, plainValue)
	}
	for word, name := range cases {
		t.Run(word, func(t *testing.T) {
			p := planOf(t, [2]string{fmt.Sprintf(`{%q:%q,"label":%q}`, name, plainValue, otherValue), `{}`})
			after := p.Changes[0].After()
			if got := after.Get(name).Display(); got != SensitiveText {
				t.Errorf("%s = %q, want %s", name, got, SensitiveText)
			}
			if got := after.Get("label").Display(); got != otherValue {
				t.Errorf("label = %q, want %q", got, otherValue)
			}
			if !IsSecretName(name) {
				t.Errorf("IsSecretName(%q) = false", name)
			}
		})
	}
}

// TestPublicNamesStayVisible: names that hold a secret word but are public
// by design, or switch a feature, show their values.
func TestPublicNamesStayVisible(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"a secret's name":          "db_secret_name",
		"a secret's ARN":           "rds_secret_arn",
		"a token's expiry":         "token_expiry",
		"a secret reference (k8s)": "existingSecret",
		"an OAuth endpoint":        "oauth_token_url",
		"a disable_ switch":        "disable_password_reset",
		"an _enabled switch":       "api_key_enabled",
		"a _version":               "client_secret_version",
		"a name without any hint":  "region",
		"an enable_ switch":        "enable_password_reset",
		"an _authentication mode":  "token_authentication",
		"a _profile":               "password_profile",
		"a _policy":                "secret_policy",
		"_settings":                "token_settings",
		"_options":                 "credential_options",
		"_properties":              "secret_properties",
		"a _mode":                  "client_certificate_mode",
		"a _type":                  "token_type",
		"a _length":                "password_length",
		"a _count":                 "api_key_count",
		// camelCase reads as words too.
		"camelCase switch":   "disablePasswordAuthentication",
		"camelCase setting":  "passwordProfile",
		"camelCase k8s ref":  "secretKeyRef",
		"PascalCase _policy": "PasswordPolicy",
	}
	for what, name := range cases {
		t.Run(what, func(t *testing.T) {
			p := planOf(t, [2]string{fmt.Sprintf(`{%q:%q}`, name, plainValue), `{}`})
			if got := p.Changes[0].After().Get(name).Display(); got != plainValue {
				t.Errorf("%s = %q, want %q", name, got, plainValue)
			}
			if IsSecretName(name) {
				t.Errorf("IsSecretName(%q) = true", name)
			}
		})
	}
}

// TestCamelCaseNames: ARM, Bicep and Kubernetes names are split into words
// where camelCase starts one, so a secret word hides its value and a switch
// or a setting about a secret shows what a reviewer needs.
func TestCamelCaseNames(t *testing.T) {
	t.Parallel()
	after := planOf(t, [2]string{`{"adminPassword":"Plain-Value-42","clientSecret":"Plain-Value-42","APIKey":"Plain-Value-42",
"sasURL":"Plain-Value-42","kubeConfig":"Plain-Value-42","connectionString":"Plain-Value-42","customData":"Plain-Value-42",
"osProfile":{"adminUsername":"azureuser","adminPassword":"Plain-Value-42",
 "linuxConfiguration":{"disablePasswordAuthentication":true,"provisionVMAgent":true}},
"passwordProfile":{"password":"Plain-Value-42","forceChangePasswordNextSignIn":true}}`, `{}`}).Changes[0].After()
	for _, name := range []string{"adminPassword", "clientSecret", "APIKey", "sasURL", "kubeConfig", "connectionString", "customData"} {
		if got := after.Get(name).Display(); got != SensitiveText {
			t.Errorf("%s = %q, want %s", name, got, SensitiveText)
		}
	}
	shown := map[string][]any{
		"the admin user name":           {"osProfile", "adminUsername"},
		"disablePasswordAuthentication": {"osProfile", "linuxConfiguration", "disablePasswordAuthentication"},
		"forceChangePasswordNextSignIn": {"passwordProfile", "forceChangePasswordNextSignIn"},
		"provisionVMAgent (an acronym)": {"osProfile", "linuxConfiguration", "provisionVMAgent"},
	}
	for what, path := range shown {
		if got := after.Get(path...).Display(); got == SensitiveText || got == "" {
			t.Errorf("%s = %q, want it shown", what, got)
		}
	}
	for _, path := range [][]any{{"osProfile", "adminPassword"}, {"passwordProfile", "password"}} {
		if got := after.Get(path...).Display(); got != SensitiveText {
			t.Errorf("%v = %q, want %s", path, got, SensitiveText)
		}
	}
	words := map[string]string{"adminPassword": "admin_password", "AdminPassword": "admin_password", "APIKey": "api_key",
		"DB_PASS": "db_pass", "ADMINPASSWORD": "adminpassword", "provisionVMAgent": "provision_vm_agent", "tls12Key": "tls12_key"}
	for name, want := range words {
		if got := secret.SnakeName(name); got != want {
			t.Errorf("secret.SnakeName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSecretNameShapes: what a secret name hides besides a plain string.
func TestSecretNameShapes(t *testing.T) {
	t.Parallel()
	p := planOf(t, [2]string{`{"admin_password":12345678,"password_reset":true,"ssh_key":["Plain-Value-42","Other-Value-43"],
"db_password":"","env":[{"name":"DB_PASS","value":"Plain-Value-42"},{"name":"REGION","value":"Plain-Value-43"}]}`, `{}`})
	after := p.Changes[0].After()
	// A number under a secret name is hidden (a numeric PIN is still a
	// secret); a boolean is no secret by its name alone (a switch; marked,
	// it is hidden: TestMarkedValuesHiddenWhereEchoed).
	if got := after.Get("admin_password").Display(); got != SensitiveText {
		t.Errorf("a number under a secret name = %q, want %s", got, SensitiveText)
	}
	if got := after.Get("password_reset").Display(); got != "true" {
		t.Errorf("a boolean under a secret name = %q, want it shown", got)
	}
	if got := after.Get("ssh_key").Display(); got != SensitiveText {
		t.Errorf("a list under a secret name = %q, want hidden", got)
	}
	if got := after.Get("db_password").Display(); got != "" {
		t.Errorf("an empty password = %q, want it shown empty (nothing to hide)", got)
	}
	if got := after.Get("env", 0, "value").Display(); got != SensitiveText {
		t.Errorf("the value of env DB_PASS = %q, want hidden", got)
	}
	if got := after.Get("env", 1, "value").Display(); got != "Plain-Value-43" {
		t.Errorf("the value of env REGION = %q, want shown", got)
	}
	if got := after.Get("env", 0, "name").Display(); got != "DB_PASS" {
		t.Errorf("the name of env DB_PASS = %q, want shown", got)
	}
}

// TestMarkedValuesHiddenWhereEchoed: a value marked sensitive in one place
// (each mark shape) is hidden where another resource echoes it unmarked,
// under a plain name. Short values are not: "true" marked somewhere must
// not vanish from the whole plan.
func TestMarkedValuesHiddenWhereEchoed(t *testing.T) {
	t.Parallel()
	type echo struct {
		after, sens string // the marking resource
		echoed      string // the JSON value the other resource shows unmarked
		hidden      bool
	}
	cases := map[string]echo{
		"map attribute":          {`{"pw":"Marked-Secret-1"}`, `{"pw":true}`, `"Marked-Secret-1"`, true},
		"list element":           {`{"l":["public-elem-0","Marked-Secret-2"]}`, `{"l":[false,true]}`, `"Marked-Secret-2"`, true},
		"list with a short mark": {`{"l":["public-elem-0"],"pw":"Marked-Secret-3"}`, `{"l":[],"pw":true}`, `"Marked-Secret-3"`, true},
		"list element unmarked":  {`{"l":["public-elem-0","Marked-Secret-2"]}`, `{"l":[false,true]}`, `"public-elem-0"`, false},
		"nested object":          {`{"o":{"p":{"q":"Marked-Secret-4"}}}`, `{"o":{"p":{"q":true}}}`, `"Marked-Secret-4"`, true},
		"set of objects":         {`{"rule":[{"n":"a","v":"Marked-Secret-5"}]}`, `{"rule":[{"v":true}]}`, `"Marked-Secret-5"`, true},
		"whole object marked":    {`{"o":{"p":"Marked-Secret-6"}}`, `{"o":true}`, `"Marked-Secret-6"`, true},
		"whole list marked":      {`{"l":["Marked-Secret-7"]}`, `{"l":true}`, `"Marked-Secret-7"`, true},
		"number":                 {`{"pin":987654}`, `{"pin":true}`, `987654`, true},
		"four-digit number":      {`{"pin":9876}`, `{"pin":true}`, `9876`, true},
		"three-digit number":     {`{"pin":987}`, `{"pin":true}`, `987`, false},
		"four characters":        {`{"pin":"wxyz"}`, `{"pin":true}`, `"wxyz"`, true},
		"three characters":       {`{"pin":"xyz"}`, `{"pin":true}`, `"xyz"`, false},
		"unmarked sibling":       {`{"pw":"Marked-Secret-8","n":"plain-sibling"}`, `{"pw":true}`, `"plain-sibling"`, false},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			p := planOf(t, [2]string{c.after, c.sens}, [2]string{`{"output":` + c.echoed + `}`, `{}`})
			got := p.Changes[1].After().Get("output").Display()
			if c.hidden && got != SensitiveText {
				t.Errorf("echo of a marked value = %q, want %s", got, SensitiveText)
			}
			if !c.hidden && got == SensitiveText {
				t.Errorf("echo of %s is hidden; only marked values of 4+ characters are", c.echoed)
			}
		})
	}
}

// TestMarkedElsewhereSources: the other places a plan marks a value
// sensitive: before_sensitive, drift, deferred changes, output changes,
// planned_values outputs (older plans) and root variables declared sensitive.
func TestMarkedElsewhereSources(t *testing.T) {
	t.Parallel()
	echo := `{"address":"terraform_data.echo","mode":"managed","type":"terraform_data","name":"echo",
"change":{"actions":["create"],"before":null,"after":{"output":"Marked-Secret-9"},"after_unknown":{},"after_sensitive":{}}}`
	marked := `{"address":"terraform_data.m","mode":"managed","type":"terraform_data","name":"m",
"change":{"actions":["%s"],"before":%s,"after":%s,"after_unknown":{},"before_sensitive":%s,"after_sensitive":%s}}`
	cases := map[string]string{
		"before_sensitive": `"resource_changes":[` + echo + `,` + fmt.Sprintf(marked, "delete", `{"pw":"Marked-Secret-9"}`, `null`, `{"pw":true}`, `false`) + `]`,
		"resource_drift":   `"resource_changes":[` + echo + `],"resource_drift":[` + fmt.Sprintf(marked, "update", `{}`, `{"pw":"Marked-Secret-9"}`, `{}`, `{"pw":true}`) + `]`,
		"deferred_changes": `"resource_changes":[` + echo + `],"deferred_changes":[{"reason":"resource_config_unknown","resource_change":` +
			fmt.Sprintf(marked, "create", `null`, `{"pw":"Marked-Secret-9"}`, `false`, `{"pw":true}`) + `}]`,
		"output_changes": `"resource_changes":[` + echo + `],"output_changes":{"o":{"actions":["create"],"before":null,"after":"Marked-Secret-9","after_unknown":false,"before_sensitive":false,"after_sensitive":true}}`,
		"planned_values outputs": `"resource_changes":[` + echo + `],"planned_values":{"outputs":{"o":{"sensitive":true,"value":"Marked-Secret-9"}}},
"output_changes":{"o":{"actions":["create"],"before":null,"after":"Marked-Secret-9","after_unknown":false}}`,
		"sensitive variable": `"resource_changes":[` + echo + `],"variables":{"v":{"value":"Marked-Secret-9"}},
"configuration":{"root_module":{"variables":{"v":{"sensitive":true}}}}`,
	}
	for what, body := range cases {
		t.Run(what, func(t *testing.T) {
			p, err := Parse("plan.json", []byte(`{"format_version":"1.2",`+body+`}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Changes[0].After().Get("output").Display(); got != SensitiveText {
				t.Errorf("terraform_data.echo output = %q, want %s", got, SensitiveText)
			}
			for _, o := range p.Outputs {
				if got := o.After.Display(); got != SensitiveText {
					t.Errorf("output %s = %q, want %s", o.Name, got, SensitiveText)
				}
			}
		})
	}
}

// TestKnownSecretInsideLongerText: a string holding a known secret of 8+
// characters is hidden whole; a shorter one is too common to match inside text.
func TestKnownSecretInsideLongerText(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		secret, text string
		hidden       bool
	}{
		"eight characters inside": {"Mk8-s3cr", "jdbc://db?Mk8-s3cr&x=1", true},
		"seven characters inside": {"Mk8-s3c", "jdbc://db?Mk8-s3c&x=1", false},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			p := planOf(t, [2]string{fmt.Sprintf(`{"pw":%q}`, c.secret), `{"pw":true}`}, [2]string{fmt.Sprintf(`{"url":%q}`, c.text), `{}`})
			got := p.Changes[1].After().Get("url").Display()
			if c.hidden != (got == SensitiveText) {
				t.Errorf("url = %q, hidden want %v", got, c.hidden)
			}
		})
	}
}

// TestKnownSecretAsKey: a map key or an instance key equal to a marked
// value reads as a placeholder; other keys stay.
func TestKnownSecretAsKey(t *testing.T) {
	t.Parallel()
	body := `{"format_version":"1.2","resource_changes":[
{"address":"terraform_data.m","mode":"managed","type":"terraform_data","name":"m","change":{"actions":["create"],"before":null,
 "after":{"pw":"wxyz","pw2":"Marked-Secret-10"},"after_unknown":{},"after_sensitive":{"pw":true,"pw2":true}}},
{"address":"terraform_data.e","mode":"managed","type":"terraform_data","name":"e","change":{"actions":["create"],"before":null,
 "after":{"m":{"wxyz":"a","team":"b"}},"after_unknown":{},"after_sensitive":{}}},
{"address":"terraform_data.u[\"Marked-Secret-10\"]","mode":"managed","type":"terraform_data","name":"u","index":"Marked-Secret-10","change":{"actions":["create"],"before":null,
 "after":{},"after_unknown":{},"after_sensitive":{}}},
{"address":"terraform_data.u[\"public\"]","mode":"managed","type":"terraform_data","name":"u","index":"public","change":{"actions":["create"],"before":null,
 "after":{},"after_unknown":{},"after_sensitive":{}}}]}`
	p, err := Parse("plan.json", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	keys := p.Changes[1].After().Get("m").Keys()
	if strings.Join(keys, ",") == "team,wxyz" || len(keys) != 2 {
		t.Errorf("keys of m = %v, want the key wxyz (a marked value) as a placeholder", keys)
	}
	for _, k := range keys {
		if k != "team" && !strings.HasPrefix(k, SensitiveText+" ") {
			t.Errorf("key %q of m, want team or a placeholder", k)
		}
	}
	secret, public := p.Changes[2], p.Changes[3]
	if strings.Contains(secret.Address, "Marked-Secret-10") || strings.Contains(secret.Index, "Marked-Secret-10") {
		t.Errorf("a marked for_each key shows: %s index %s", secret.Address, secret.Index)
	}
	if !strings.HasPrefix(secret.Address, `terraform_data.u["(sensitive) `) || !strings.HasSuffix(secret.Address, `"]`) {
		t.Errorf("address = %s, want terraform_data.u[\"(sensitive) <digest>\"]", secret.Address)
	}
	if public.Address != `terraform_data.u["public"]` || public.Index != `"public"` {
		t.Errorf("a plain for_each key changed: %s index %s", public.Address, public.Index)
	}
}

// TestRedactTextFindsSecrets: what the detector finds in prose (check
// messages, import ids, log lines) through RedactText, by where the
// secret hides. The secret never shows; plain text around it stays.
func TestRedactTextFindsSecrets(t *testing.T) {
	t.Parallel()
	const pw = "Hunter2-Pass-99"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("#cloud-config\nDB_PASSWORD=" + pw + "\n"))
	zw.Close()
	cases := map[string]struct {
		text  string
		whole bool   // the whole text is the secret (a blob holding one)
		keep  string // plain text that must stay
	}{
		"URL with a password":    {text: "clone https://ci:" + pw + "@git.example.com/app.git failed", keep: "git.example.com/app.git failed"},
		"base64 blob":            {text: base64.StdEncoding.EncodeToString([]byte("db_password: " + pw + "\nregion: eastus\n")), whole: true},
		"gzip blob":              {text: base64.StdEncoding.EncodeToString(gz.Bytes()), whole: true},
		"YAML with a number key": {text: "1:\n  name: DB_PASS\n  value: " + pw + "\n2:\n  region: eastus\n", keep: "eastus"},
		"env list in JSON":       {text: `[{"name":"DB_PASS","value":"` + pw + `"},{"name":"REGION","value":"eastus"}]`, keep: "eastus"},
		"past the first 64KiB":   {text: strings.Repeat("log line ", 8000) + "postgres://app:" + pw + "@db:5432/x", keep: "log line"},
		"on the 64KiB window edge": {text: strings.Repeat(" ", 65520) + "postgres://app:" + pw + "@db:5432/x" + strings.Repeat(" ", 2000),
			keep: "@db:5432/x"},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			got := RedactText(c.text)
			if strings.Contains(got, pw) {
				t.Fatalf("RedactText leaves the password: %.200q", got)
			}
			if c.whole && got != SensitiveText {
				t.Errorf("RedactText(blob) = %.200q, want %s", got, SensitiveText)
			}
			if !c.whole && (!strings.Contains(got, SensitiveText) || !strings.Contains(got, c.keep)) {
				t.Errorf("RedactText = %.200q, want %s in place of the password and %q kept", got, SensitiveText, c.keep)
			}
		})
	}
	if got := RedactText("GPU pool for the nightly training jobs"); got != "GPU pool for the nightly training jobs" {
		t.Errorf("plain prose changed: %q", got)
	}
	// Binary (a control byte in ten) is not read as text: a zip or an
	// image in base64 is no document to search.
	bin := base64.StdEncoding.EncodeToString([]byte("\x01\x02\x03\x04\x05\x06\x07\x08password=" + pw))
	if got := RedactText(bin); got != bin {
		t.Errorf("RedactText(binary blob) = %q, want it unchanged", got)
	}
	// A YAML document with a number key, where the review looks (secret.Has).
	p := planOf(t, [2]string{fmt.Sprintf(`{"values":%q}`, "1:\n  name: DB_PASS\n  value: "+pw+"\n"), `{}`})
	if got := p.Changes[0].After().Get("values").Display(); got != SensitiveText {
		t.Errorf("values = %q, want %s", got, SensitiveText)
	}
}

// TestCheckMessagesHideKnownSecrets: a check message quoting marked values
// shows none of them, even when one contains another (the longest goes first).
func TestCheckMessagesHideKnownSecrets(t *testing.T) {
	t.Parallel()
	body := `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.m","mode":"managed","type":"terraform_data","name":"m",
"change":{"actions":["create"],"before":null,"after":{"a":"Marked-Secret","b":"Marked-Secret-AB","c":"Marked-Secret-ABC","d":"Marked-Secret-ABCD"},
"after_unknown":{},"after_sensitive":{"a":true,"b":true,"c":true,"d":true}}}],
"checks":[{"address":{"kind":"resource","to_display":"terraform_data.m"},"status":"fail","instances":[{"address":{"to_display":"terraform_data.m"},"status":"fail",
"problems":[{"message":"want Marked-Secret-ABCD, Marked-Secret-ABC, Marked-Secret-AB or Marked-Secret"}]}]}]}`
	p, err := Parse("plan.json", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Checks) != 1 || len(p.Checks[0].Problems) != 1 {
		t.Fatalf("checks = %+v", p.Checks)
	}
	want := "want (sensitive), (sensitive), (sensitive) or (sensitive)"
	if got := p.Checks[0].Problems[0]; got != want {
		t.Errorf("problem = %q, want %q", got, want)
	}
}

// TestKeyNamesHideRandomValues: a *_key name hides its value when the value
// has the shape of a generated key, and shows names, ids and paths.
func TestKeyNamesHideRandomValues(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		value  string
		hidden bool
	}{
		"random key": {"Zx8fK2pQ9mW4tR7vB1nC5", true},
		// a z A Z 0 9 + / = _ -: each edge of the key alphabet.
		"random key, edge characters": {"aZ0+9zA/x8fK2pQ9_mW4-tR7vB1nC5==", true},
		"a key name":                  {"deployer-key-name", false},
		"a UUID":                      {"550e8400-e29b-41d4-a716-446655440000", false},
		"a path":                      {"/keys/Zx8fK2pQ9mW4tR7vB1nC5", false},
		"fifteen chars":               {"Zx8fK2pQ9mW4tR7", false},
		"letters only":                {"ZxfKpQmWtRvBnCyqLo", false},
		"digits only":                 {"83920174650192837465", false},
		"a file name":                 {"Zx8fK2pQ9mW4tR7vB1nC5.pem", false},
		"low entropy":                 {"ab12ab12ab12ab12ab12", false},
		"an interpolation":            {"${var.signing_key}", false},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			alone := planOf(t, [2]string{fmt.Sprintf(`{"label":%q}`, c.value), `{}`}).Changes[0].After()
			if got := alone.Get("label").Display(); got != c.value {
				t.Fatalf("label = %q: the value alone is hidden, the case tests nothing", got)
			}
			p := planOf(t, [2]string{fmt.Sprintf(`{"signing_key":%q,"label":%q}`, c.value, c.value), `{}`})
			after := p.Changes[0].After()
			got := after.Get("signing_key").Display()
			if c.hidden != (got == SensitiveText) {
				t.Errorf("signing_key = %q, hidden want %v", got, c.hidden)
			}
			// A key found secret is hidden where it shows again.
			if got := after.Get("label").Display(); c.hidden != (got == SensitiveText) {
				t.Errorf("label (the same value) = %q, hidden want %v", got, c.hidden)
			}
		})
	}
}

// TestAddressOddKeys: an instance key with an escaped quote is redacted
// whole; an address whose key never closes (a hand-edited plan) is kept as
// written, not cut.
func TestAddressOddKeys(t *testing.T) {
	t.Parallel()
	cases := map[string]struct{ address, want string }{
		"escaped quote in a secret key": {`terraform_data.u["Marked-\"Secret-11"]`, ""},
		"unterminated key":              {`terraform_data.u["Marked-Secret-12`, `terraform_data.u["Marked-Secret-12`},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			body := fmt.Sprintf(`{"format_version":"1.2","resource_changes":[{"address":"terraform_data.m","mode":"managed","type":"terraform_data","name":"m",
"change":{"actions":["create"],"before":null,"after":{"a":"Marked-\"Secret-11"},"after_unknown":{},"after_sensitive":{"a":true}}},
{"address":%q,"mode":"managed","type":"terraform_data","name":"u","change":{"actions":["create"],"before":null,"after":{},"after_unknown":{},"after_sensitive":{}}}]}`, c.address)
			p, err := Parse("plan.json", []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			got := p.Changes[1].Address
			if c.want != "" && got != c.want {
				t.Errorf("address = %s, want %s", got, c.want)
			}
			if c.want == "" && (strings.Contains(got, "Secret-11") || !strings.HasPrefix(got, `terraform_data.u["(sensitive) `)) {
				t.Errorf("address = %s, want the key as a placeholder", got)
			}
		})
	}
}
