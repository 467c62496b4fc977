package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An action invocation whose plan names no provider is described by its
// type alone.
func TestActionInvocationWithoutProvider(t *testing.T) {
	p := mustPlan(t, `{"format_version":"1.2","action_invocations":[{"address":"action.local_exec.notify","type":"local_exec","name":"notify",`+
		`"lifecycle_action_trigger":{"triggering_resource_address":"aws_instance.a","action_trigger_event":"AfterCreate","action_trigger_block_index":0,"actions_list_index":0,"on_failure":"ActionOnFailureContinue"}}]}`)
	got := lines(only(RuleActionInvocation, mustConfig(t, "").Evaluate([]Project{{Name: "ml", Environment: "prod", Plan: p}}, nil).Findings))
	want := []string{"warn action-invocation action.local_exec.notify: applying this runs action `action.local_exec.notify` (`local_exec`) after `aws_instance.a` is created; on failure: continue"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
