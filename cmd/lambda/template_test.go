package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	pwaws "github.com/planwarden/planwarden/app/aws"
)

const templatePath = "../../template.yaml"

// needTool returns the path of a preinstalled checker, or skips: absent is
// fine on a laptop, not in CI (CI=true).
func needTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil && len(args) > 0 {
		if out, err2 := exec.Command(path, args...).CombinedOutput(); err2 != nil {
			err = fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err2, out)
		}
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required in CI (CI=true): %v", name, err)
		}
		t.Skipf("%s is not available (%v): skipping; CI requires it", name, err)
	}
	return path
}

func cfnLint(t *testing.T, files ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(needTool(t, "cfn-lint"), files...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// cfn-lint runs once (it takes seconds to start), on template.yaml and on
// a copy broken on purpose: the check is only worth something if cfn-lint
// fails on a bad template (a queue attribute of the wrong type, a dangling
// Ref) and passes the real one.
func TestTemplatePassesCfnLint(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "VisibilityTimeout: 1800", "VisibilityTimeout: half an hour", 1)
	bad = strings.Replace(bad, "Resource: !GetAtt JobsQueue.Arn", "Resource: !GetAtt JobQueue.Arn", 1)
	if bad == string(src) {
		t.Fatal("the template changed: update the lines this test breaks")
	}
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(broken, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := cfnLint(t, templatePath, broken)
	if err == nil {
		t.Errorf("cfn-lint passed a broken template:\n%s", out)
	}
	var real, caught []string
	for _, finding := range strings.Split(strings.TrimSpace(out), "\n\n") {
		switch {
		case strings.Contains(finding, broken):
			caught = append(caught, finding)
		case strings.TrimSpace(finding) != "":
			real = append(real, finding)
		}
	}
	if len(real) > 0 {
		t.Errorf("cfn-lint template.yaml:\n%s", strings.Join(real, "\n\n"))
	}
	if c := strings.Join(caught, "\n"); !strings.Contains(c, "JobQueue") || !strings.Contains(c, "half an hour") {
		t.Errorf("cfn-lint on a broken template: output:\n%s\nwant failures naming JobQueue and the bad timeout", out)
	}
}

// translate runs the SAM transform offline (testdata/sam-translate.py)
// and returns the CloudFormation it produces.
func translate(t *testing.T) cfn {
	t.Helper()
	py := needTool(t, "python3", "-c", "import samtranslator")
	cmd := exec.Command(py, "testdata/sam-translate.py", templatePath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sam translation failed: %v\n%s", err, stderr.String())
	}
	var tpl cfn
	if err := json.Unmarshal(out, &tpl); err != nil {
		t.Fatalf("translation output: %v", err)
	}
	return tpl
}

type cfn struct {
	Parameters map[string]map[string]any `json:"Parameters"`
	Resources  map[string]struct {
		Type       string         `json:"Type"`
		Properties map[string]any `json:"Properties"`
	} `json:"Resources"`
	Outputs map[string]any `json:"Outputs"`
}

func (c cfn) props(t *testing.T, id, typ string) map[string]any {
	t.Helper()
	r, ok := c.Resources[id]
	if !ok || r.Type != typ {
		t.Fatalf("resource %s: got type %q, want %s", id, r.Type, typ)
	}
	return r.Properties
}

// js renders a template fragment compactly, for substring assertions.
func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestTemplateTranslates(t *testing.T) {
	t.Parallel()
	tpl := translate(t)

	t.Run("functions: one binary, arm64, provided.al2023", func(t *testing.T) {
		for _, id := range []string{"ReceiverFunction", "WorkerFunction"} {
			p := tpl.props(t, id, "AWS::Lambda::Function")
			if p["Runtime"] != "provided.al2023" || js(p["Architectures"]) != `["arm64"]` || p["Handler"] != "bootstrap" {
				t.Errorf("%s: runtime %v, architectures %v, handler %v", id, p["Runtime"], p["Architectures"], p["Handler"])
			}
		}
	})

	t.Run("public function url with both permissions", func(t *testing.T) {
		u := tpl.props(t, "ReceiverFunctionUrl", "AWS::Lambda::Url")
		if u["AuthType"] != "NONE" || js(u["TargetFunctionArn"]) != `{"Ref":"ReceiverFunction"}` {
			t.Errorf("function url = %s", js(u))
		}
		actions := map[string]bool{}
		for _, r := range tpl.Resources {
			if r.Type == "AWS::Lambda::Permission" && js(r.Properties["FunctionName"]) == `{"Ref":"ReceiverFunction"}` {
				actions[fmt.Sprint(r.Properties["Action"])] = true
			}
		}
		if !actions["lambda:InvokeFunctionUrl"] || !actions["lambda:InvokeFunction"] {
			t.Errorf("receiver permissions %v: a public function url needs InvokeFunctionUrl and InvokeFunction", actions)
		}
		if !strings.Contains(js(tpl.Outputs["WebhookUrl"]), "ReceiverFunctionUrl.FunctionUrl") {
			t.Errorf("WebhookUrl output = %s", js(tpl.Outputs["WebhookUrl"]))
		}
	})

	t.Run("worker: sqs trigger with partial batch responses", func(t *testing.T) {
		m := tpl.props(t, "WorkerFunctionJobs", "AWS::Lambda::EventSourceMapping")
		if js(m["FunctionResponseTypes"]) != `["ReportBatchItemFailures"]` || js(m["EventSourceArn"]) != `{"Fn::GetAtt":["JobsQueue","Arn"]}` {
			t.Errorf("event source mapping = %s", js(m))
		}
	})

	t.Run("fifo queue with a dead-letter queue", func(t *testing.T) {
		q := tpl.props(t, "JobsQueue", "AWS::SQS::Queue")
		dlq := tpl.props(t, "JobsDeadLetterQueue", "AWS::SQS::Queue")
		if q["FifoQueue"] != true || dlq["FifoQueue"] != true || q["ContentBasedDeduplication"] != false {
			t.Errorf("queue fifo %v (content dedupe %v), dlq fifo %v: want fifo queues deduped by delivery id", q["FifoQueue"], q["ContentBasedDeduplication"], dlq["FifoQueue"])
		}
		rp := js(q["RedrivePolicy"])
		if !strings.Contains(rp, `"deadLetterTargetArn":{"Fn::GetAtt":["JobsDeadLetterQueue","Arn"]}`) || !strings.Contains(rp, `"maxReceiveCount":{"Ref":"MaxReceiveCount"}`) {
			t.Errorf("redrive policy = %s", rp)
		}
		timeout := tpl.props(t, "WorkerFunction", "AWS::Lambda::Function")["Timeout"].(float64)
		if vis := q["VisibilityTimeout"].(float64); vis < 6*timeout {
			t.Errorf("visibility timeout %vs < 6 x worker timeout %vs", vis, timeout)
		}
	})

	t.Run("table layout matches the store", func(t *testing.T) {
		tb := tpl.props(t, "StateTable", "AWS::DynamoDB::Table")
		if got := js(tb["KeySchema"]); got != `[{"AttributeName":"`+pwaws.KeyAttribute+`","KeyType":"HASH"}]` {
			t.Errorf("key schema = %s, want %s as the hash key", got, pwaws.KeyAttribute)
		}
		if got := js(tb["TimeToLiveSpecification"]); got != `{"AttributeName":"`+pwaws.TTLAttribute+`","Enabled":true}` {
			t.Errorf("ttl = %s, want %s enabled", got, pwaws.TTLAttribute)
		}
	})

	t.Run("least privilege", func(t *testing.T) {
		receiver := js(tpl.props(t, "ReceiverRole", "AWS::IAM::Role")["Policies"])
		worker := js(tpl.props(t, "WorkerRole", "AWS::IAM::Role")["Policies"])
		for name, pol := range map[string]string{"receiver": receiver, "worker": worker} {
			if strings.Contains(pol, `"Resource":"*"`) || strings.Contains(pol, `"Action":"*"`) || wildcardAction.MatchString(pol) {
				t.Errorf("%s policy has a wildcard: %s", name, pol)
			}
		}
		if strings.Contains(receiver, "PrivateKeySecret") {
			t.Errorf("the receiver can read the App's private key: %s", receiver)
		}
		if strings.Contains(worker, "sqs:SendMessage") {
			t.Errorf("the worker can enqueue: %s", worker)
		}
		if !strings.Contains(receiver, `"delivery#*"`) || !strings.Contains(worker, `"pr#*"`) {
			t.Errorf("dynamodb access is not limited to each function's keys:\nreceiver %s\nworker %s", receiver, worker)
		}
		for _, id := range []string{"ReceiverFunction", "WorkerFunction"} {
			role := js(tpl.props(t, id, "AWS::Lambda::Function")["Role"])
			if want := strings.TrimSuffix(id, "Function") + "Role"; !strings.Contains(role, want) {
				t.Errorf("%s runs as %s, want its own %s", id, role, want)
			}
		}
	})

	t.Run("dynamodb: each role its own keys and actions", func(t *testing.T) {
		for role, want := range map[string]struct {
			actions []string
			keys    string
		}{
			// The receiver looks delivery ids up and marks one only after
			// its job was sent (GitHub's Redeliver of one never queued works).
			"ReceiverRole": {[]string{"dynamodb:GetItem", "dynamodb:PutItem"}, `["delivery#*"]`},
			"WorkerRole":   {[]string{"dynamodb:GetItem", "dynamodb:PutItem"}, `["pr#*"]`},
		} {
			var got []string
			for _, st := range dynamoStatements(t, tpl.props(t, role, "AWS::IAM::Role")["Policies"]) {
				keys := js(st.Condition["ForAllValues:StringLike"]["dynamodb:LeadingKeys"])
				if keys != want.keys {
					t.Errorf("%s: dynamodb statement %s is limited to keys %s, want %s", role, st.Sid, keys, want.keys)
				}
				got = append(got, st.Actions...)
			}
			slices.Sort(got)
			if !slices.Equal(got, want.actions) {
				t.Errorf("%s: dynamodb actions %v, want %v", role, got, want.actions)
			}
		}
	})

	t.Run("alarms on dlq depth, errors and throttles; log retention", func(t *testing.T) {
		want := map[string]bool{
			"ApproximateNumberOfMessagesVisible JobsDeadLetterQueue": false,
			"Errors ReceiverFunction":                                false, "Errors WorkerFunction": false,
			"Throttles ReceiverFunction": false, "Throttles WorkerFunction": false,
		}
		for _, r := range tpl.Resources {
			if r.Type != "AWS::CloudWatch::Alarm" {
				continue
			}
			if !strings.Contains(js(r.Properties["AlarmActions"]), "AlarmTopic") {
				t.Errorf("alarm %v notifies nobody", r.Properties["AlarmName"])
			}
			dims := js(r.Properties["Dimensions"])
			for k := range want {
				metric, target, _ := strings.Cut(k, " ")
				if r.Properties["MetricName"] == metric && strings.Contains(dims, `"`+target+`"`) {
					want[k] = true
				}
			}
		}
		for k, ok := range want {
			if !ok {
				t.Errorf("no alarm on %s", k)
			}
		}
		for _, id := range []string{"ReceiverLogGroup", "WorkerLogGroup"} {
			if lg := tpl.props(t, id, "AWS::Logs::LogGroup"); js(lg["RetentionInDays"]) != `{"Ref":"LogRetentionDays"}` {
				t.Errorf("%s retention = %s", id, js(lg["RetentionInDays"]))
			}
		}
	})

	t.Run("each function's environment starts its role", func(t *testing.T) {
		for id, role := range map[string]string{"ReceiverFunction": roleReceiver, "WorkerFunction": roleWorker} {
			env := tpl.props(t, id, "AWS::Lambda::Function")["Environment"].(map[string]any)["Variables"].(map[string]any)
			getenv := func(k string) string { return tpl.resolve(env[k]) }
			s, err := readSettings(getenv)
			if err != nil {
				t.Errorf("%s: the template's environment does not configure the binary: %v", id, err)
				continue
			}
			if s.role != role {
				t.Errorf("%s: role %q, want %q", id, s.role, role)
			}
			if role == roleWorker && s.maxReceives != 5 {
				t.Errorf("worker max receives = %d, want the MaxReceiveCount default 5", s.maxReceives)
			}
		}
	})
}

// statement is one IAM policy statement; Action may be a string or a list.
type statement struct {
	Sid       string
	Action    any
	Condition map[string]map[string]any
	Actions   []string `json:"-"`
}

// dynamoStatements returns the statements of a role's inline policies that
// allow a dynamodb action.
func dynamoStatements(t *testing.T, policies any) []statement {
	t.Helper()
	var pols []struct {
		PolicyDocument struct{ Statement []statement }
	}
	if err := json.Unmarshal([]byte(js(policies)), &pols); err != nil {
		t.Fatalf("policies %s: %v", js(policies), err)
	}
	var out []statement
	for _, p := range pols {
		for _, st := range p.PolicyDocument.Statement {
			switch a := st.Action.(type) {
			case string:
				st.Actions = []string{a}
			case []any:
				for _, x := range a {
					st.Actions = append(st.Actions, fmt.Sprint(x))
				}
			}
			if slices.ContainsFunc(st.Actions, func(a string) bool { return strings.HasPrefix(a, "dynamodb:") }) {
				out = append(out, st)
			}
		}
	}
	return out
}

var wildcardAction = regexp.MustCompile(`"[a-z0-9-]+:[A-Za-z]*\*"`)

// resolve turns an environment value into what the function would see:
// parameter defaults (and a sample App id), resource ids as placeholders.
func (c cfn) resolve(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]any:
		if ref, ok := v["Ref"].(string); ok {
			if ref == "GitHubAppId" {
				return "123456"
			}
			if p, ok := c.Parameters[ref]; ok {
				return fmt.Sprint(p["Default"])
			}
			return "resource:" + ref
		}
	}
	return js(v)
}
