package review_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/rules"
)

// The JSON report holds plan text only through the allow-list: an action's
// configuration, outputs, check messages and ARM's reasons; what is safe by
// its form stays as it is. With comment.show_text the place opted in
// shows its text.
func TestReportShowsByAllowList(t *testing.T) {
	t.Parallel()
	const pw = "Qx8rT2vW9z"
	plan := `{"format_version":"1.2","resource_changes":[{"address":"aws_eks_node_group.gpu","mode":"managed","type":"aws_eks_node_group","name":"gpu",
"change":{"actions":["update"],"before":{"scaling_config":[{"desired_size":1}]},"after":{"scaling_config":[{"desired_size":2}]}}}],
"output_changes":{"cache":{"actions":["update"],"before":"rediss://cache.internal:6380","after":"rediss://:` + pw + `@cache.internal:6380","after_unknown":false},
"region":{"actions":["update"],"before":"us-east-1","after":"us-west-2","after_unknown":false}},
"checks":[{"address":{"kind":"check","to_display":"check.cache","name":"cache"},"status":"fail","instances":[{"address":{"to_display":"check.cache"},"status":"fail",
"problems":[{"message":"AUTH ` + pw + `! refused by cache.internal"}]}]}],
"action_invocations":[{"address":"action.aws_lambda_invoke.drain","type":"aws_lambda_invoke","name":"drain","provider_name":"registry.terraform.io/hashicorp/aws",
"config_values":{"function_name":"gpu-drain","payload":"{\"cmd\":\"kubectl drain --token ` + pw + `\",\"grace\":\"300s\"}"},
"lifecycle_action_trigger":{"triggering_resource_address":"aws_eks_node_group.gpu","action_trigger_event":"BeforeUpdate","action_trigger_block_index":0,"actions_list_index":0}}]}`
	p, err := planparse.Parse("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("k")
	var out bytes.Buffer
	if err := reportjson.Write(&out, review.Build([]review.Input{{Name: "ml", Plan: p}}, review.Options{DigestKey: key})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), pw) {
		t.Errorf("the JSON report holds the password:\n%s", out.String())
	}
	var doc struct {
		Projects []struct {
			Outputs []review.Output `json:"outputs"`
			Checks  []review.Check  `json:"checks"`
			Actions []struct {
				Config map[string]any `json:"config"`
			} `json:"actions"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	pr := doc.Projects[0]
	summary := regexp.MustCompile(`^\(text, 1 line, [0-9a-f]{8}\)$`)
	for _, o := range pr.Outputs {
		switch o.Name {
		case "cache":
			if !summary.MatchString(o.Before) || !summary.MatchString(o.After) || o.Before == o.After {
				t.Errorf("output cache reads %q -> %q, want two summaries that differ", o.Before, o.After)
			}
		case "region":
			if o.Before != "us-east-1" || o.After != "us-west-2" {
				t.Errorf("output region reads %q -> %q, want the regions", o.Before, o.After)
			}
		}
	}
	if got := pr.Checks[0].Problems; len(got) != 1 || got[0] != "AUTH (…) refused by cache.internal" {
		t.Errorf("the check's message reads %q", got)
	}
	cfg := pr.Actions[0].Config
	if cfg["function_name"] != "gpu-drain" {
		t.Errorf("function_name reads %v, want gpu-drain", cfg["function_name"])
	}
	payload, _ := cfg["payload"].(string)
	if !strings.Contains(payload, `"grace":"300s"`) || !strings.Contains(payload, `"cmd":"(text, 1 line, `) {
		t.Errorf("payload reads %q, want its structure with the command summarized", payload)
	}

	// comment.show_text opts the action in: its payload reads whole (the
	// password is no format detection knows).
	cfg2, err := rules.ParseConfig("planwarden.yml", []byte("version: 1\ncomment:\n  show_text: [aws_lambda_invoke]\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "ml", Plan: p}}, review.Options{DigestKey: key, Config: cfg2})
	if got, _ := r.Projects[0].Actions[0].Config.(map[string]any)["payload"].(string); !strings.Contains(got, "kubectl drain --token") {
		t.Errorf("with show_text the payload reads %q, want it whole", got)
	}
}

// One pull request's reviews share a digest key; another pull request,
// another repository or another secret gives another key.
func TestPRDigestKey(t *testing.T) {
	t.Parallel()
	k := review.PRDigestKey([]byte("webhook secret"), "acme/ml-infra", 42)
	if !bytes.Equal(k, review.PRDigestKey([]byte("webhook secret"), "acme/ml-infra", 42)) {
		t.Error("one pull request gets two keys")
	}
	for name, other := range map[string][]byte{
		"another pull request": review.PRDigestKey([]byte("webhook secret"), "acme/ml-infra", 43),
		"another repository":   review.PRDigestKey([]byte("webhook secret"), "acme/ml-infra2", 42),
		"another secret":       review.PRDigestKey([]byte("other secret"), "acme/ml-infra", 42),
		"a number moved":       review.PRDigestKey([]byte("webhook secret"), "acme/ml-infra4", 2),
	} {
		if bytes.Equal(k, other) {
			t.Errorf("%s gets the same key", name)
		}
	}
}
