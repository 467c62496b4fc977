package review_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
)

// The JSON report lists each action with what triggers it, its config
// sanitized, and the deferred ones apart with their reason.
func TestReportActions(t *testing.T) {
	t.Parallel()
	p := parseFile(t, "../examples/plans/eks-gpu-drain-action.json")
	var out bytes.Buffer
	if err := reportjson.Write(&out, review.Build([]review.Input{{Name: "eks", Plan: p}}, review.Options{})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "dr41n-t0ken") {
		t.Fatal("the sensitive action config value is in the JSON report")
	}
	var doc struct {
		Projects []struct {
			Changes []struct {
				TriggersActions []string `json:"triggers_actions"`
			} `json:"changes"`
			Actions         []map[string]any `json:"actions"`
			DeferredActions []map[string]any `json:"deferred_actions"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Projects[0]
	if d := cmp.Diff([]string{"action.aws_lambda_invoke.drain", "action.aws_sns_publish.notify"}, got.Changes[0].TriggersActions); d != "" {
		t.Errorf("the node group's triggers_actions (-want +got):\n%s", d)
	}
	want := []map[string]any{
		{"address": "action.aws_lambda_invoke.drain", "type": "aws_lambda_invoke", "name": "drain",
			"provider": "registry.terraform.io/hashicorp/aws", "trigger": "lifecycle",
			"triggering_resource": "aws_eks_node_group.gpu", "event": "before_update", "on_failure": "halt",
			"config": map[string]any{"client_context": nil, "drain_token": "(sensitive)", "function_name": "gpu-node-drain",
				"log_type": "(known after apply)", "payload": `{"grace":"300s","nodegroup":"gpu"}`, "qualifier": nil}}, // a document: its structure
		{"address": "action.aws_sns_publish.notify", "type": "aws_sns_publish", "name": "notify",
			"provider": "registry.terraform.io/hashicorp/aws", "trigger": "lifecycle",
			"triggering_resource": "aws_eks_node_group.gpu", "event": "after_update", "on_failure": "continue",
			"config": map[string]any{"message": "gpu node group updated", "topic_arn": "arn:aws:sns:us-east-1:123456789012:ml-deploys"}},
	}
	if d := cmp.Diff(want, got.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	wantDeferred := []map[string]any{
		{"address": "action.aws_lambda_invoke.warm_cache", "type": "aws_lambda_invoke", "name": "warm_cache",
			"provider": "registry.terraform.io/hashicorp/aws", "trigger": "invoke", "calling_resource": "aws_eks_node_group.gpu",
			"config":          map[string]any{"function_name": "model-cache-warm", "payload": "(known after apply)"},
			"deferred_reason": "its configuration is not known yet"},
	}
	if d := cmp.Diff(wantDeferred, got.DeferredActions); d != "" {
		t.Errorf("deferred_actions (-want +got):\n%s", d)
	}
}
