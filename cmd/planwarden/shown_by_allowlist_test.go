package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// Canaries of issue 34: secrets in the shapes real plans hold that value
// detection does not know. None is found by a credential rule or a secret
// name; each is hidden because its place or its form is not on the
// allow-list (planparse/shown.go): the line named in guard.
type canary struct {
	guard string
	// plan is a Terraform plan, or with whatIf an ARM what-if result.
	plan   map[string]any
	whatIf bool
	// leaks must appear in no output; shows must (the change is reviewed).
	leaks []string
	shows string
}

// pw is a password of letters and digits (no punctuation, below the
// generated-key run), the shape only its place gives away.
func (f *fake) pw() string { return "Qx" + f.alnum(10) }

func resource(addr, typ string, actions []string, before, after any) map[string]any {
	return map[string]any{"address": addr, "mode": "managed", "type": typ, "name": "x",
		"provider_name": "registry.terraform.io/hashicorp/x",
		"change": map[string]any{"actions": actions, "before": before, "after": after,
			"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}
}

func created(addr, typ string, after map[string]any) map[string]any {
	return resource(addr, typ, []string{"create"}, nil, after)
}

func utf16b64(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func canaries() map[string]canary {
	f := newFake(34)
	c := map[string]canary{}
	var pw string

	// Password and token flags in scripts and argument lists.
	pw = f.pw()
	c["mysql -p in a user_data script"] = canary{guard: "shownString: newlines", plan: planOf(created("aws_instance.etl", "aws_instance", map[string]any{
		"instance_type": "g5.xlarge",
		"user_data":     "#!/bin/bash\nset -e\nmysql -h db.internal -uetl -p" + pw + " etl < /opt/etl/schema.sql\nsystemctl start etl\n"})),
		leaks: []string{pw}, shows: "aws_instance.etl"}
	pw = f.pw()
	c["docker login -p in a job's command"] = canary{guard: "textPlace: commandNames", plan: planOf(created("kubernetes_job_v1.pull", "kubernetes_job_v1", map[string]any{
		"spec": []any{map[string]any{"template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{map[string]any{
			"name": "pull", "image": "docker:27",
			"command": []any{"sh", "-c", "docker login -u ci -p " + pw + " registry.example.com && docker pull registry.example.com/ml/trainer:2.1"}}}}}}}}}})),
		leaks: []string{pw}, shows: "kubernetes_job_v1.pull"}
	pw = f.pw()
	c["sshpass -p in an extension's commandToExecute"] = canary{guard: "document: commandToExecute leaf", plan: planOf(created("azurerm_virtual_machine_extension.sync", "azurerm_virtual_machine_extension", map[string]any{
		"name": "sync", "publisher": "Microsoft.Azure.Extensions", "type": "CustomScript",
		"settings": `{"commandToExecute":"sshpass -p ` + pw + ` rsync -a deploy@bastion.internal:/models/ /mnt/models/"}`})),
		leaks: []string{pw}, shows: "azurerm_virtual_machine_extension.sync"}
	pw = f.pw()
	c["net user in a run command's script"] = canary{guard: "textPlace: script", plan: planOf(created("azurerm_virtual_machine_run_command.admin", "azurerm_virtual_machine_run_command", map[string]any{
		"name": "admin", "location": "westeurope",
		"source": []any{map[string]any{"script": "net user svc-backup " + pw + " /add"}}})),
		leaks: []string{pw}, shows: "azurerm_virtual_machine_run_command.admin"}
	pw = f.pw()
	c["--api-token in a container's args"] = canary{guard: "textPlace: args", plan: planOf(resource("kubernetes_deployment_v1.api", "kubernetes_deployment_v1", []string{"update"},
		map[string]any{"spec": []any{map[string]any{"replicas": 2, "template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{map[string]any{"name": "api", "image": "ml/api:1.4", "args": []any{"--port", "8080"}}}}}}}}}},
		map[string]any{"spec": []any{map[string]any{"replicas": 2, "template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{map[string]any{"name": "api", "image": "ml/api:1.5", "args": []any{"--api-token", pw}}}}}}}}}})),
		leaks: []string{pw}, shows: "ml/api:1.5"}
	pw = f.pw()
	c["a token after & in a URL's query"] = canary{guard: "tokenRune: ? & =", plan: planOf(created("aws_cloudwatch_event_api_destination.ingest", "aws_cloudwatch_event_api_destination", map[string]any{
		"name": "ingest", "http_method": "POST", "invocation_endpoint": "https://hooks.example.com/v1/ingest?source=terraform&token=" + pw})),
		leaks: []string{pw}, shows: "aws_cloudwatch_event_api_destination.ingest"}

	// Connection strings.
	pw = f.pw()
	c["rediss://:PW@host"] = canary{guard: "shownToken: @ of no e-mail", plan: planOf(created("kubernetes_config_map_v1.cache", "kubernetes_config_map_v1", map[string]any{
		"data": map[string]any{"REDIS_URL": "rediss://:" + pw + "@cache.internal:6380/0", "REDIS_DB": "0"}})),
		leaks: []string{pw}, shows: "REDIS_DB"}
	pw = f.pw()
	c["Oracle user/PW@//host:1521/svc"] = canary{guard: "shownToken: @ of no e-mail", plan: planOf(created("kubernetes_config_map_v1.ora", "kubernetes_config_map_v1", map[string]any{
		"data": map[string]any{"ORACLE_CONNECT": "reporting/" + pw + "@//db.internal:1521/ORCLPDB1"}})),
		leaks: []string{pw}, shows: "ORACLE_CONNECT"}
	pw = f.pw()
	c["JDBC thin URL"] = canary{guard: "shownToken: @ of no e-mail", plan: planOf(created("aws_glue_connection.ora", "aws_glue_connection", map[string]any{
		"name": "ora", "connection_type": "JDBC",
		"connection_properties": map[string]any{"JDBC_CONNECTION_URL": "jdbc:oracle:thin:etl/" + pw + "@db.internal:1521:ORCL", "JDBC_ENFORCE_SSL": "true"}})),
		leaks: []string{pw}, shows: "JDBC_ENFORCE_SSL"}

	// Encodings.
	basic := base64.StdEncoding.EncodeToString([]byte("metrics:" + f.pw()))
	c["Basic auth in an nginx config"] = canary{guard: "shownString: newlines", plan: planOf(created("kubernetes_config_map_v1.proxy", "kubernetes_config_map_v1", map[string]any{
		"data": map[string]any{"nginx.conf": "server {\n  listen 8080;\n  location /metrics {\n    proxy_pass http://prometheus:9090;\n    proxy_set_header Authorization \"Basic " + basic + "\";\n  }\n}\n"}})),
		leaks: []string{basic}, shows: "kubernetes_config_map_v1.proxy"}
	pw = f.pw()
	enc := utf16b64("net user svc-sql " + pw + " /add; net localgroup administrators svc-sql /add")
	c["PowerShell -EncodedCommand"] = canary{guard: "document: runCommand leaf", plan: planOf(created("aws_ssm_document.bootstrap", "aws_ssm_document", map[string]any{
		"name": "bootstrap", "document_type": "Command",
		"content": `{"schemaVersion":"2.2","mainSteps":[{"action":"aws:runPowerShellScript","name":"users","inputs":{"runCommand":["powershell.exe -NoProfile -EncodedCommand ` + enc + `"]}}]}`})),
		leaks: []string{pw, enc[:24]}, shows: "aws:runPowerShellScript"}
	blob := base64.StdEncoding.EncodeToString([]byte("REPLICATION_USER=repl\nREPLICATION_SECRET_VALUE=" + f.pw() + "\n"))
	c["base64 piped into base64 -d"] = canary{guard: "shownString: spaces", plan: planOf(created("google_compute_instance.trainer", "google_compute_instance", map[string]any{
		"machine_type": "a2-highgpu-1g", "zone": "us-central1-a",
		"metadata": map[string]any{"enable-oslogin": "TRUE", "startup-script": "echo " + blob + " | base64 -d > /etc/replication.env"}})),
		leaks: []string{blob[:24]}, shows: "a2-highgpu-1g"}
	tok := f.pw()
	mime := "Content-Type: multipart/mixed; boundary=\"MIMEBOUNDARY\"\nMIME-Version: 1.0\n\n--MIMEBOUNDARY\nContent-Type: text/cloud-config\n\nwrite_files:\n  - path: /etc/trainer/hub.conf\n    content: |\n      hub_token " + tok + "\n--MIMEBOUNDARY--\n"
	c["MIME multipart cloud-init"] = canary{guard: "shownString: newlines", plan: planOf(created("aws_instance.trainer", "aws_instance", map[string]any{
		"instance_type": "p4d.24xlarge", "user_data": mime})),
		leaks: []string{tok}, shows: "p4d.24xlarge"}
	pw = f.pw()
	c["cloud-init chpasswd list"] = canary{guard: "shownString: newlines", plan: planOf(created("hcloud_server.gpu", "hcloud_server", map[string]any{
		"server_type": "gex44", "user_data": "#cloud-config\nssh_pwauth: true\nchpasswd:\n  expire: false\n  list: |\n    ubuntu:" + pw + "\n"})),
		leaks: []string{pw}, shows: "gex44"}

	// Places.
	pw = f.pw()
	out := planOf(created("aws_elasticache_replication_group.cache", "aws_elasticache_replication_group", map[string]any{"node_type": "cache.r7g.large"}))
	out["output_changes"] = map[string]any{"cache_url": map[string]any{"actions": []string{"create"}, "before": nil,
		"after": "rediss://:" + pw + "@cache.internal:6380", "after_unknown": false, "before_sensitive": false, "after_sensitive": false}}
	c["an output holding a cache URL"] = canary{guard: "shownToken: @ of no e-mail", plan: out, leaks: []string{pw}, shows: "cache_url"}
	pw = f.pw()
	chk := planOf(created("aws_sagemaker_endpoint.llm", "aws_sagemaker_endpoint", map[string]any{"name": "llm"}))
	chk["checks"] = []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.llm_health", "name": "llm_health"}, "status": "fail",
		"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.llm_health"}, "status": "fail",
			"problems": []any{map[string]any{"message": "probe of https://llm.internal/healthz?key=" + pw + " answered 503"}}}}}}
	c["a check's error message"] = canary{guard: "ShownProse: a word of no token", plan: chk, leaks: []string{pw}, shows: "check.llm_health"}
	pw = f.pw()
	drift := planOf(created("aws_s3_bucket.logs", "aws_s3_bucket", map[string]any{"bucket": "ml-logs"}))
	drift["resource_drift"] = []any{resource(`aws_ssm_parameter.cmd["mysqldump -uadmin -p`+pw+` etl"]`, "aws_ssm_parameter", []string{"update"},
		map[string]any{"value": "a"}, map[string]any{"value": "b"})}
	c["a drifted resource's for_each key"] = canary{guard: "redactAddress: keyShown", plan: drift, leaks: []string{pw}, shows: "aws_ssm_parameter.cmd"}
	pw = f.pw()
	gpu := created("google_compute_instance.gpu", "google_compute_instance", map[string]any{"machine_type": "a2-highgpu-1g"})
	gpu["provider_name"] = "registry.terraform.io/hashicorp/google"
	vars := planOf(gpu)
	vars["variables"] = map[string]any{"region": map[string]any{"value": "us-central1 " + pw}}
	vars["configuration"] = map[string]any{"provider_config": map[string]any{"google": map[string]any{"name": "google", "full_name": "registry.terraform.io/hashicorp/google",
		"expressions": map[string]any{"region": map[string]any{"references": []any{"var.region"}}}}}}
	c["a root variable read as a region"] = canary{guard: "ShownName: region", plan: vars, leaks: []string{pw, strings.ToLower(pw)}, shows: "a2-highgpu-1g"}
	pw = f.pw()
	act := planOf(created("aws_eks_node_group.gpu", "aws_eks_node_group", map[string]any{"instance_types": []any{"g5.12xlarge"}}))
	act["action_invocations"] = []any{map[string]any{"address": `action.aws_lambda_invoke.warm["rediss://:` + pw + `@cache.internal:6380"]`,
		"type": "aws_lambda_invoke", "name": "warm", "provider_name": "registry.terraform.io/hashicorp/aws",
		"config_values": map[string]any{"function_name": "warm-cache"},
		"lifecycle_action_trigger": map[string]any{"triggering_resource_address": "aws_eks_node_group.gpu", "action_trigger_event": "AfterCreate",
			"action_trigger_block_index": 0, "actions_list_index": 0}}}
	c["an action's for_each key"] = canary{guard: "redactAddress: keyShown", plan: act, leaks: []string{pw}, shows: "action.aws_lambda_invoke.warm"}

	// The what-if path.
	pw = f.pw()
	c["what-if commandToExecute"] = canary{guard: "textPlace: commandNames", whatIf: true, plan: whatIfOf(armCreate("Microsoft.Compute/virtualMachines/trainer/extensions/users",
		"Microsoft.Compute/virtualMachines/extensions", map[string]any{"publisher": "Microsoft.Compute", "type": "CustomScriptExtension",
			"settings": map[string]any{"commandToExecute": "powershell -Command \"net user svc " + pw + " /add\""}})),
		leaks: []string{pw}, shows: "CustomScriptExtension"}
	pw = f.pw()
	c["what-if app settings"] = canary{guard: "textPlace: envCompounds", whatIf: true, plan: whatIfOf(armCreate("Microsoft.Web/sites/ml-api",
		"Microsoft.Web/sites", map[string]any{"serverFarmId": "plan-1", "siteConfig": map[string]any{"appSettings": []any{
			map[string]any{"name": "UPSTREAM_REF", "value": pw}, map[string]any{"name": "WEBSITES_PORT", "value": "8080"}}}})),
		leaks: []string{pw}, shows: "UPSTREAM_REF"}
	return c
}

func whatIfOf(changes ...map[string]any) map[string]any {
	return map[string]any{"status": "Succeeded", "error": nil, "changes": changes}
}

func armCreate(path, typ string, properties map[string]any) map[string]any {
	id := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/" + path
	return map[string]any{"resourceId": id, "changeType": "Create", "before": nil,
		"after": map[string]any{"id": id, "type": typ, "name": path[strings.LastIndex(path, "/")+1:], "location": "westeurope", "apiVersion": "2023-01-01", "properties": properties}}
}

// everyOutput runs `planwarden review` on the plan files in every format,
// and the review through the check run, and returns each output.
func everyOutput(t *testing.T, files ...string) map[string]string {
	t.Helper()
	outs := map[string]string{}
	for _, format := range []string{"markdown", "json", "text"} {
		code, out, stderr := runCLI(t, "", append([]string{"review", "--format", format}, files...)...)
		if code == exitUsage {
			t.Fatalf("review --format %s: exit %d: %s", format, code, stderr)
		}
		outs["review --format "+format] = out
		outs["stderr of --format "+format] = stderr
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range reviewParts(t, filepath.Base(f), data) {
			outs[part.what+" of "+filepath.Base(f)] = part.text
		}
	}
	return outs
}

func writePlan(t *testing.T, dir, name string, plan map[string]any) string {
	t.Helper()
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// leaked lists the canary strings an output holds, as they are or
// JSON-escaped.
func leaked(out string, leaks []string) []string {
	var found []string
	for _, l := range leaks {
		q, _ := json.Marshal(l)
		if strings.Contains(out, l) || strings.Contains(out, strings.Trim(string(q), `"`)) {
			found = append(found, l)
		}
	}
	return found
}

// Each canary alone: hidden in the comment, the check run, the JSON report
// and the text output, while its change is still reviewed.
func TestCanariesHiddenByAllowList(t *testing.T) {
	t.Parallel()
	for name, tc := range canaries() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := writePlan(t, t.TempDir(), "plan.json", tc.plan)
			outs := everyOutput(t, file)
			for what, out := range outs {
				if l := leaked(out, tc.leaks); len(l) > 0 {
					t.Errorf("%s shows %q (guard: %s)", what, l, tc.guard)
				}
			}
			if !strings.Contains(outs["review --format markdown"], tc.shows) {
				t.Errorf("the comment lost %q, which is no secret", tc.shows)
			}
		})
	}
}

// Every canary in one review of two files (a plan and a what-if): none of
// them in any output.
func TestAllCanariesInOneReview(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := planOf()
	var changes, drift, actions, checks []any
	outputs, variables := map[string]any{}, map[string]any{}
	var whatIf []map[string]any
	var leaks []string
	for _, tc := range canaries() {
		leaks = append(leaks, tc.leaks...)
		if tc.whatIf {
			whatIf = append(whatIf, tc.plan["changes"].([]map[string]any)...)
			continue
		}
		for _, ch := range tc.plan["resource_changes"].([]map[string]any) {
			changes = append(changes, ch)
		}
		for k, v := range map[string]*[]any{"resource_drift": &drift, "action_invocations": &actions, "checks": &checks} {
			if x, ok := tc.plan[k]; ok {
				*v = append(*v, x.([]any)...)
			}
		}
		for k, v := range map[string]map[string]any{"output_changes": outputs, "variables": variables} {
			if x, ok := tc.plan[k]; ok {
				for name, o := range x.(map[string]any) {
					v[name] = o
				}
			}
		}
		if cfg, ok := tc.plan["configuration"]; ok {
			plan["configuration"] = cfg
		}
	}
	plan["resource_changes"], plan["resource_drift"], plan["action_invocations"], plan["checks"] = changes, drift, actions, checks
	plan["output_changes"], plan["variables"] = outputs, variables
	files := []string{writePlan(t, dir, "all.json", plan), writePlan(t, dir, "whatif.json", whatIfOf(whatIf...))}
	visible := 0
	for what, out := range everyOutput(t, files...) {
		if l := leaked(out, leaks); len(l) > 0 {
			visible += len(l)
			t.Errorf("%s shows %d canaries: %q", what, len(l), l)
		}
	}
	if n := len(canaries()); n < 20 {
		t.Errorf("%d canaries; the issue's categories need at least 20", n)
	}
	t.Logf("%d canaries, %d visible in any output", len(canaries()), visible)
}
