package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
)

// fake makes test credentials of the shape real ones have. They are
// generated, not real, and differ per case so one case cannot hide another.
type fake struct{ r *rand.Rand }

func newFake(seed uint64) *fake { return &fake{rand.New(rand.NewPCG(seed, 42))} }

func (f *fake) from(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[f.r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper2 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

func (f *fake) alnum(n int) string { return f.from(alnum, n) }

// password has the shape people choose: words, digits and punctuation,
// so only its name or its place gives it away.
func (f *fake) password() string { return "Tr0ub4dor-" + f.alnum(10) + "!" }
func (f *fake) awsKeyID() string { return "AKIA" + f.from(upper2, 16) }
func (f *fake) github() string   { return "ghp_" + f.alnum(36) }
func (f *fake) gitlab() string   { return "glpat-" + f.alnum(20) }
func (f *fake) stripe() string   { return "sk_live_" + f.alnum(24) }
func (f *fake) slackBot() string {
	return "xoxb-" + f.from("0123456789", 12) + "-" + f.from("0123456789", 12) + "-" + f.alnum(24)
}
func (f *fake) jwt() string {
	return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjaS1ib3QiLCJyb2xlIjoiZGVwbG95In0." + f.alnum(43)
}
func (f *fake) slackWebhook() string {
	return "https://hooks.slack.com/services/T" + f.from(upper2, 8) + "/B" + f.from(upper2, 10) + "/" + f.alnum(24)
}
func (f *fake) pem() string {
	var b strings.Builder
	b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for i := 0; i < 6; i++ {
		b.WriteString(f.alnum(64) + "\n")
	}
	b.WriteString("-----END RSA PRIVATE KEY-----\n")
	return b.String()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func gzip64(t *testing.T, s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// planted is one plan with one secret in one place.
type planted struct {
	plan map[string]any
	// leaks are strings that must appear nowhere in planwarden's output:
	// the secret, and for encoded places the encoded form.
	leaks []string
	// shows is what must still be there (the change is reviewed, not dropped).
	shows string
}

func update(addr, typ string, before, after map[string]any) map[string]any {
	return map[string]any{"address": addr, "mode": "managed", "type": typ, "name": "x",
		"provider_name": "registry.terraform.io/hashicorp/x",
		"change": map[string]any{"actions": []string{"update"}, "before": before, "after": after,
			"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}
}

func planOf(changes ...map[string]any) map[string]any {
	return map[string]any{"format_version": "1.2", "terraform_version": "1.9.8", "resource_changes": changes}
}

// attr plants value at attribute name of an updated resource (it was
// something else before, so the diff shows it).
func attr(typ, name string, value any) map[string]any {
	return planOf(update(typ+".x", typ, map[string]any{name: "old"}, map[string]any{name: value}))
}

// plantedCases are the 25 places issue 13 found secrets reaching the
// comment or the report, one case per place.
func plantedCases(t *testing.T) map[string]planted {
	f := newFake(13)
	env := func(name, value string) planted {
		return planted{plan: planOf(update("aws_lambda_function.x", "aws_lambda_function",
			map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"LOG_LEVEL": "info"}}}},
			map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"LOG_LEVEL": "info", name: value}}}})),
			leaks: []string{value}, shows: "aws_lambda_function.x"}
	}
	cases := map[string]planted{}
	cases["DB_PASS environment variable"] = env("DB_PASS", f.password())
	dbURL := f.password()
	cases["DATABASE_URL with a password"] = planted{plan: env("DATABASE_URL", "postgres://app:"+dbURL+"@db.internal:5432/app").plan, leaks: []string{dbURL}, shows: "aws_lambda_function.x"}
	cases["*_KEY holding a random key"] = env("SIGNING_KEY", f.alnum(40))
	cases["Stripe key in an environment variable"] = env("PAYMENTS", f.stripe())

	pw := f.password()
	cases["password in plain user_data"] = planted{plan: attr("aws_instance", "user_data", "#!/bin/bash\nexport DB_PASSWORD='"+pw+"'\n/opt/app/start\n"), leaks: []string{pw}, shows: "aws_instance.x"}
	pw = f.password()
	script := "#!/bin/bash\nmysql -u admin --password=" + pw + " -e 'select 1'\n"
	cases["password in base64 user_data"] = planted{plan: attr("aws_launch_template", "user_data", b64(script)), leaks: []string{pw, b64(script)[:40]}, shows: "aws_launch_template.x"}
	pw = f.password()
	cloud := "#cloud-config\nchpasswd:\n  list: |\n    admin:" + pw + "\nwrite_files:\n  - path: /etc/app.env\n    content: |\n      API_TOKEN=" + f.alnum(32) + "\n"
	gz := gzip64(t, cloud)
	cases["password in gzip+base64 launch template data"] = planted{plan: attr("aws_launch_template", "user_data", gz), leaks: []string{gz[:40]}, shows: "aws_launch_template.x"}
	pw = f.password()
	cases["Helm values"] = planted{plan: attr("helm_release", "values", []any{"replicaCount: 2\nauth:\n  rootPassword: " + pw + "\n"}), leaks: []string{pw}, shows: "helm_release.x"}
	pw = f.password()
	cases["App Service app_settings connection string"] = planted{plan: attr("azurerm_linux_web_app", "app_settings", map[string]any{
		"DB": "Server=tcp:app.database.windows.net,1433;Database=app;User ID=app;Password=" + pw + ";Encrypt=true"}), leaks: []string{pw}, shows: "azurerm_linux_web_app.x"}
	key := f.pem()
	cases["unmarked PEM private key"] = planted{plan: attr("local_file", "content", key), leaks: []string{key[40:80]}, shows: "local_file.x"}
	cases["GitHub token"] = func() planted {
		s := f.github()
		return planted{plan: attr("kubernetes_config_map", "data", map[string]any{"GH": s}), leaks: []string{s}, shows: "kubernetes_config_map.x"}
	}()
	cases["JWT"] = func() planted {
		s := f.jwt()
		return planted{plan: attr("aws_ssm_parameter", "insecure_value", s), leaks: []string{s[len(s)-30:]}, shows: "aws_ssm_parameter.x"}
	}()
	cases["Slack webhook URL"] = func() planted {
		s := f.slackWebhook()
		return planted{plan: attr("aws_sns_topic_subscription", "endpoint", s), leaks: []string{s[len(s)-24:]}, shows: "aws_sns_topic_subscription.x"}
	}()
	pw = f.password()
	cases["URL with a password"] = planted{plan: attr("aws_codebuild_project", "source_location", "https://deploy:"+pw+"@git.example.com/app.git"), leaks: []string{pw}, shows: "aws_codebuild_project.x"}
	cases["AWS key id in a description"] = func() planted {
		s := f.awsKeyID()
		return planted{plan: attr("aws_iam_user", "description", "CI user; rotate key "+s+" by March"), leaks: []string{s}, shows: "aws_iam_user.x"}
	}()
	cases["GitLab token in a tag value"] = func() planted {
		s := f.gitlab()
		return planted{plan: attr("aws_instance", "tags", map[string]any{"team": "ml", "note": "runner " + s}), leaks: []string{s}, shows: "aws_instance.x"}
	}()
	cases["Slack token as a map key"] = func() planted {
		s := f.slackBot()
		return planted{plan: attr("aws_lambda_function", "environment_map", map[string]any{s: "1"}), leaks: []string{s}, shows: "aws_lambda_function.x"}
	}()
	cases["JSON container definitions"] = func() planted {
		pw := f.password()
		defs := `[{"name":"app","image":"app:1.2","environment":[{"name":"DB_PASS","value":"` + pw + `"},{"name":"MODE","value":"prod"}]}]`
		return planted{plan: attr("aws_ecs_task_definition", "container_definitions", defs), leaks: []string{pw}, shows: "aws_ecs_task_definition.x"}
	}()
	cases["SAS signature in a URL"] = func() planted {
		sig := f.alnum(43) + "%3D"
		return planted{plan: attr("azurerm_storage_blob", "source_uri", "https://acct.blob.core.windows.net/c/model.bin?sv=2022-11-02&sp=r&se=2027-01-01&sig="+sig), leaks: []string{sig[:30]}, shows: "azurerm_storage_blob.x"}
	}()

	// Places outside attribute values.
	tok := f.github()
	forEach := update(`aws_ssm_parameter.p["`+tok+`"]`, "aws_ssm_parameter", map[string]any{"type": "String"}, map[string]any{"type": "SecureString"})
	forEach["index"] = tok
	cases["secret as a for_each key"] = planted{plan: planOf(forEach), leaks: []string{tok}, shows: `aws_ssm_parameter.p["(sensitive) `}
	tok = f.github()
	moved := update(`aws_ssm_parameter.q["new"]`, "aws_ssm_parameter", map[string]any{"type": "String"}, map[string]any{"type": "String"})
	moved["previous_address"] = `aws_ssm_parameter.q["` + tok + `"]`
	cases["secret key in a previous address"] = planted{plan: planOf(moved), leaks: []string{tok}, shows: `aws_ssm_parameter.q["new"]`}
	tok = f.github()
	rp := update("terraform_data.r", "terraform_data", map[string]any{"triggers_replace": map[string]any{tok: "1"}}, map[string]any{"triggers_replace": map[string]any{tok: "2"}})
	rp["change"].(map[string]any)["actions"] = []string{"delete", "create"}
	rp["change"].(map[string]any)["replace_paths"] = []any{[]any{"triggers_replace", tok}}
	cases["secret map key in replace paths"] = planted{plan: planOf(rp), leaks: []string{tok}, shows: "terraform_data.r"}
	pw = f.password()
	check := planOf(update("aws_db_instance.db", "aws_db_instance", map[string]any{"engine_version": "15"}, map[string]any{"engine_version": "16"}))
	check["checks"] = []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.db", "name": "db"}, "status": "fail",
		"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.db"}, "status": "fail",
			"problems": []any{map[string]any{"message": "cannot log in with postgres://app:" + pw + "@db.internal:5432/app"}}}}}}
	cases["check error message"] = planted{plan: check, leaks: []string{pw}, shows: "check.db"}
	pw = f.password()
	out := planOf(update("aws_db_instance.db", "aws_db_instance", map[string]any{"engine_version": "15"}, map[string]any{"engine_version": "16"}))
	out["output_changes"] = map[string]any{"db_url": map[string]any{"actions": []string{"update"}, "before": "mysql://root:old@db", "after": "mysql://root:" + pw + "@db",
		"after_unknown": false, "before_sensitive": false, "after_sensitive": false}}
	cases["unmarked output holding a URL with a password"] = planted{plan: out, leaks: []string{pw}, shows: "db_url"}
	tok = f.alnum(40)
	kc := "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-key-data: " + b64(f.pem()) + "\n    token: " + tok + "\n"
	kout := planOf(update("aws_eks_cluster.c", "aws_eks_cluster", map[string]any{"version": "1.29"}, map[string]any{"version": "1.30"}))
	kout["output_changes"] = map[string]any{"kubeconfig": map[string]any{"actions": []string{"create"}, "before": nil, "after": kc,
		"after_unknown": false, "before_sensitive": false, "after_sensitive": false}}
	cases["unmarked kubeconfig output"] = planted{plan: kout, leaks: []string{tok, b64(f.pem())[:8]}, shows: "kubeconfig"}
	return cases
}

// reviewAll renders everything a reviewer or a reader of the check run
// sees for one plan: the comment, the check run's output and the JSON report.
func reviewAll(t *testing.T, name string, data []byte) string {
	t.Helper()
	parts := reviewParts(t, name, data)
	return parts[0].text + parts[1].text + parts[2].text
}

// reviewPart is one thing planwarden shows for a plan.
type reviewPart struct{ what, text string }

// reviewParts renders the comment, the check run's output and the JSON
// report of one plan, in that order.
func reviewParts(t *testing.T, name string, data []byte) []reviewPart {
	t.Helper()
	p, err := planparse.Parse(name, data)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r := review.Build([]review.Input{{Name: "app", Environment: "dev", Plan: p}}, review.Options{})
	var js bytes.Buffer
	if err := reportjson.Write(&js, r); err != nil {
		t.Fatal(err)
	}
	chk := comment.CheckOutput(r, comment.Options{})
	var b strings.Builder
	b.WriteString(chk.Title + chk.Summary + chk.Text)
	for _, a := range chk.Annotations {
		b.WriteString(a.Title + a.Message)
	}
	return []reviewPart{{"the comment", comment.Render(r, comment.Options{})}, {"the check run", b.String()}, {"the JSON report", js.String()}}
}

func TestPlantedSecretsNeverReachOutput(t *testing.T) {
	t.Parallel()
	cases := plantedCases(t)
	if len(cases) != 25 {
		t.Fatalf("%d cases; the issue lists 25 places", len(cases))
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.plan)
			if err != nil {
				t.Fatal(err)
			}
			out := reviewAll(t, "plan.json", data)
			for _, leak := range tc.leaks {
				if strings.Contains(out, leak) {
					t.Errorf("the output holds %q", leak)
				}
				// Markdown escaping must not be what hides it: try the JSON form too.
				if q, _ := json.Marshal(leak); strings.Contains(out, strings.Trim(string(q), `"`)) {
					t.Errorf("the output holds %q (JSON-escaped)", leak)
				}
			}
			if !strings.Contains(out, tc.shows) {
				t.Errorf("the output lost %q, which is no secret", tc.shows)
			}
		})
	}
}
