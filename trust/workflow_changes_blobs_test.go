package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

// A plan-workflow-changed finding carries the changed file's blob SHA at
// the head: the grant given after reading a harmless change does not
// cover the workflow the author pushes next, and still covers a re-run
// of the same content.
func TestWorkflowChangesBindContent(t *testing.T) {
	t.Parallel()
	cfg := rules.DefaultConfig()
	used := []Used{{Path: "ci/plan.sh", Via: "run by a step of " + rules.DefaultPlanWorkflow}}
	at := func(wf, script string) []rules.Finding {
		return WorkflowChanges(cfg, Changes{Complete: true, Files: []string{rules.DefaultPlanWorkflow, "ci/plan.sh", "ci/gone.sh"},
			SHAs: map[string]string{rules.DefaultPlanWorkflow: wf, "ci/plan.sh": script}}, append(used, Used{Path: "ci/gone.sh"}), "gpu")
	}
	first := at("wf1", "sh1")
	var shas [][]string
	for _, f := range first {
		shas = append(shas, f.BlobSHAs)
	}
	if diff := cmp.Diff([][]string{{"wf1"}, {"sh1"}, {"(removed)"}}, shas); diff != "" {
		t.Errorf("blob SHAs of the findings (-want +got):\n%s", diff)
	}
	tests := map[string]struct {
		again []rules.Finding
		same  []bool
	}{
		"the same content again":      {at("wf1", "sh1"), []bool{true, true, true}},
		"a new workflow, same script": {at("wf2", "sh1"), []bool{false, true, true}},
		"a new script":                {at("wf1", "sh2"), []bool{true, false, true}},
	}
	for name, tc := range tests {
		for i := range first {
			if got := rules.FindingDigest(first[i]) == rules.FindingDigest(tc.again[i]); got != tc.same[i] {
				t.Errorf("%s: finding %d (%s) keeps its digest = %v, want %v", name, i, first[i].Address, got, tc.same[i])
			}
		}
	}
	if f := WorkflowChanges(cfg, Changes{Complete: false}, nil, ""); len(f) != 1 || f[0].BlobSHAs != nil {
		t.Errorf("an incomplete list: %+v, want one finding without blob SHAs", f)
	}
}
