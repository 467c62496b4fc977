package trust

import (
	"testing"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// A change to a plan workflow file is no plan-workflow-changed finding
// only when every run the check concludes from was dispatched by
// planwarden on the default branch under plan_source: dispatch; one run
// that was not, no run at all, or the default mode keeps it. A changed
// file the workflow runs (plan_workflow_inputs) keeps it in every mode.
func TestAPlanWorkflowChangeCountsUnlessTheDefaultBranchsRan(t *testing.T) {
	t.Parallel()
	const wf = ".github/workflows/planwarden-plan.yml"
	dispatch := config(t, "version: 1\nplan_source: dispatch\nplan_workflow_inputs: [ci/**]\n")
	push := config(t, "version: 1\nplan_workflow_inputs: [ci/**]\n")
	dispatched := record.Run{ID: 1, Path: wf, Event: "workflow_dispatch", Dispatched: true}
	own := record.Run{ID: 2, Path: wf, Event: "pull_request"}
	tests := map[string]struct {
		cfg   *rules.Config
		runs  []record.Run
		files []string
		want  []string // the addresses of the plan-workflow-changed findings
	}{
		"dispatched runs only":                {dispatch, []record.Run{dispatched}, []string{wf}, nil},
		"dispatched runs, a changed input":    {dispatch, []record.Run{dispatched}, []string{wf, "ci/plan.sh"}, []string{"ci/plan.sh"}},
		"one run not dispatched":              {dispatch, []record.Run{dispatched, own}, []string{wf}, []string{wf}},
		"no run yet":                          {dispatch, nil, []string{wf}, []string{wf}},
		"the default mode, a dispatched mark": {push, []record.Run{dispatched}, []string{wf}, []string{wf}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := Provenances(tc.cfg, nil, Changes{Files: tc.files, Complete: true}, nil, tc.runs)
			var got []string
			for _, f := range p.Findings {
				if f.Rule == rules.RulePlanWorkflowChanged {
					got = append(got, f.Address)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("plan-workflow-changed on %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("plan-workflow-changed on %v, want %v", got, tc.want)
				}
			}
		})
	}
}
