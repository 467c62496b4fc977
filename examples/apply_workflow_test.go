package examples

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestApplyWorkflowAppliesOnlyTheVerifiedPlan holds the apply-on-merge
// example to its promise: the plan job verifies the plan against the
// review before anything is applied; the apply job waits for an
// environment's reviewers, runs one at a time per environment, applies the
// saved plan of the same run (checked by its SHA-256) and never plans
// again; the token scopes are the least each job needs.
func TestApplyWorkflowAppliesOnlyTheVerifiedPlan(t *testing.T) {
	data, err := os.ReadFile("workflows/planwarden-apply.yml")
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		Uses string `yaml:"uses"`
		Run  string `yaml:"run"`
	}
	var wf struct {
		On   map[string]map[string][]string `yaml:"on"`
		Jobs map[string]struct {
			Needs       any               `yaml:"needs"`
			Environment any               `yaml:"environment"`
			Concurrency map[string]any    `yaml:"concurrency"`
			Permissions map[string]string `yaml:"permissions"`
			Steps       []step            `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if b := wf.On["push"]["branches"]; len(b) != 1 || b[0] != "main" || len(wf.On) != 1 {
		t.Errorf("on = %v, want push to the default branch only", wf.On)
	}
	plan, apply := wf.Jobs["plan"], wf.Jobs["apply"]
	runs := func(steps []step) string {
		var b strings.Builder
		for _, s := range steps {
			b.WriteString(s.Run + "\n")
		}
		return b.String()
	}
	planRuns, applyRuns := runs(plan.Steps), runs(apply.Steps)
	verify := strings.Index(planRuns, "planwarden verify")
	upload := -1
	for i, s := range plan.Steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			upload = i
		}
	}
	if verify < 0 || upload < 0 || !strings.Contains(runs(plan.Steps[:upload]), "planwarden verify") {
		t.Errorf("the plan job does not run planwarden verify before it uploads the plan")
	}
	if want := map[string]string{"contents": "read", "id-token": "write", "checks": "read", "pull-requests": "read"}; !equalMaps(plan.Permissions, want) {
		t.Errorf("plan permissions %v, want %v", plan.Permissions, want)
	}
	if want := map[string]string{"contents": "read", "id-token": "write"}; !equalMaps(apply.Permissions, want) {
		t.Errorf("apply permissions %v, want %v", apply.Permissions, want)
	}
	if apply.Needs != "plan" || apply.Environment == nil {
		t.Errorf("apply: needs %v, environment %v; want it after plan, behind an environment", apply.Needs, apply.Environment)
	}
	if g, _ := apply.Concurrency["group"].(string); g == "" || apply.Concurrency["cancel-in-progress"] != false {
		t.Errorf("apply concurrency %v: want a group per environment, never cancelled", apply.Concurrency)
	}
	if !strings.Contains(applyRuns, "terraform apply -input=false tfplan") || strings.Contains(applyRuns, "terraform plan") {
		t.Errorf("the apply job does not apply the saved plan alone:\n%s", applyRuns)
	}
	if !strings.Contains(applyRuns, "sha256sum -c") {
		t.Errorf("the apply job does not check the plan's SHA-256 against the verified one")
	}
	if !strings.Contains(string(data), "actions/download-artifact@") {
		t.Errorf("the apply job does not take the plan from the same run's artifact")
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
