package planparse

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const actionsFixture = "../examples/plans/eks-gpu-drain-action.json"

func TestActionInvocations(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(actionsFixture)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("actions.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Actions) != 2 || len(p.DeferredActions) != 1 {
		t.Fatalf("got %d actions and %d deferred, want 2 and 1", len(p.Actions), len(p.DeferredActions))
	}
	drain := p.Actions[0]
	if drain.Address != "action.aws_lambda_invoke.drain" || drain.Type != "aws_lambda_invoke" || drain.Name != "drain" ||
		drain.Provider != "registry.terraform.io/hashicorp/aws" {
		t.Errorf("drain = %+v", drain)
	}
	if drain.Invoked || drain.TriggeringResource != "aws_eks_node_group.gpu" || drain.Event != "before_update" || drain.OnFailure != "halt" {
		t.Errorf("drain trigger = %+v", drain)
	}
	plainAddr := func(s string) string { return s }
	if got := drain.When(plainAddr); got != "before aws_eks_node_group.gpu is updated" {
		t.Errorf("When = %q", got)
	}
	if v := drain.Config.Get("drain_token"); !v.IsSensitive() {
		t.Errorf("drain_token (marked in config_sensitive) = %s, want redacted", v.Display())
	}
	if strings.Contains(drain.Config.Display(), "dr41n") {
		t.Errorf("the sensitive token leaked: %s", drain.Config.Display())
	}
	if v := drain.Config.Get("log_type"); !v.IsUnknown() {
		t.Errorf("log_type (marked in config_unknown) = %s, want unknown", v.Display())
	}
	if s, _ := drain.Config.Get("function_name").Str(); s != "gpu-node-drain" {
		t.Errorf("function_name = %q", s)
	}
	notify := p.Actions[1]
	if notify.Event != "after_update" || notify.OnFailure != "continue" || notify.ActionsListIndex != 1 {
		t.Errorf("notify = %+v", notify)
	}
	d := p.DeferredActions[0]
	if d.Reason != "its configuration is not known yet" || !d.Action.Invoked || d.Action.CallingResource != "aws_eks_node_group.gpu" {
		t.Errorf("deferred = %q %+v", d.Reason, d.Action)
	}
	if got := d.Action.When(plainAddr); got != "when invoked directly (terraform apply -invoke) for aws_eks_node_group.gpu" {
		t.Errorf("deferred When = %q", got)
	}
}

// A value marked sensitive only in an action's config is redacted where
// it appears unmarked elsewhere in the plan.
func TestActionSecretRedactedEverywhere(t *testing.T) {
	t.Parallel()
	plan := `{"format_version":"1.2",
	 "resource_changes":[{"address":"terraform_data.x","mode":"managed","type":"terraform_data","name":"x",
	   "change":{"actions":["create"],"before":null,"after":{"input":"s3cr3t-webhook-value"}}}],
	 "action_invocations":[{"address":"action.webhook_send.x","type":"webhook_send","name":"x",
	   "config_values":{"url":"s3cr3t-webhook-value"},"config_sensitive":{"url":true},
	   "lifecycle_action_trigger":{"triggering_resource_address":"terraform_data.x","action_trigger_event":"after_create"}}]}`
	p, err := Parse("p.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Changes[0].After().Get("input"); !v.IsSensitive() {
		t.Errorf("input = %s, want redacted (the action marks the same value sensitive)", v.Display())
	}
	if v := p.Actions[0].Config.Get("url"); !v.IsSensitive() {
		t.Errorf("url = %s, want redacted", v.Display())
	}
}

func TestActionInvocationsBadShape(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ plan, field string }{
		"not a list":      {`{"format_version":"1.2","action_invocations":{"address":"x"}}`, "action_invocations"},
		"no trigger":      {`{"format_version":"1.2","action_invocations":[{"address":"action.a.b","type":"a","name":"b"}]}`, "action_invocations[0] (action.a.b)"},
		"no address":      {`{"format_version":"1.2","action_invocations":[{"type":"a","invoke_action_trigger":{}}]}`, "action_invocations[0]"},
		"deferred string": {`{"format_version":"1.2","deferred_action_invocations":"none"}`, "deferred_action_invocations"},
		"deferred bad":    {`{"format_version":"1.2","deferred_action_invocations":[{"reason":"x","action_invocation":{"address":"action.a.b"}}]}`, "deferred_action_invocations[0] (action.a.b)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("bad.json", []byte(tc.plan))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("want a *planparse.Error, got %v", err)
			}
			if !strings.Contains(err.Error(), "bad.json") || !strings.Contains(err.Error(), tc.field) || pe.Hint == "" {
				t.Errorf("error does not name the file, the field %q and what to do: %v", tc.field, err)
			}
		})
	}
}

func TestTriggerWords(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, event, failure string }{
		"Go constant names":  {"AfterDestroy", "after_destroy", ""},
		"snake case":         {"before_create", "before_create", ""},
		"older on_failure":   {"", "", "ActionTriggerOnFailureContinue"},
		"newer on_failure":   {"", "", "ActionOnFailureTaint"},
		"plain on_failure":   {"", "", "fail"},
		"unknown event kept": {"ActionTriggerEvent(9)", "action_trigger_event(9)", ""},
	}
	want := map[string]string{"ActionTriggerOnFailureContinue": "continue", "ActionOnFailureTaint": "taint", "fail": "fail", "": ""}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := triggerEvent(tc.in); got != tc.event {
				t.Errorf("triggerEvent(%q) = %q, want %q", tc.in, got, tc.event)
			}
			if got := onFailure(tc.failure); got != want[tc.failure] {
				t.Errorf("onFailure(%q) = %q, want %q", tc.failure, got, want[tc.failure])
			}
		})
	}
	a := &ActionInvocation{TriggeringResource: "x.y", Event: "action_trigger_event(9)"}
	if got := a.When(func(s string) string { return "`" + s + "`" }); got != "on the `action_trigger_event(9)` event of `x.y`" {
		t.Errorf("When of an unknown event = %q", got)
	}
}

// The corpus holds terraform-json's own actions fixture (an invoked action).
func TestCorpusActions(t *testing.T) {
	t.Parallel()
	path := filepath.Join(corpusDir, "terraform-json", "actions.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("corpus plan %s not found (it lives beside the repo in ../shared): %v", path, err)
	}
	p, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Actions) != 1 {
		t.Fatalf("got %d actions, want 1", len(p.Actions))
	}
	a := p.Actions[0]
	if a.Address != "action.bufo_print.success" || !a.Invoked || a.Config.Get("name").Display() != "bufo-the-builder" {
		t.Errorf("action = %+v, config %s", a, a.Config.Display())
	}
}
