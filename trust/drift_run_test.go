package trust

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Only a drift workflow's run on the default branch of the repository
// itself reviews drift; each other run says why not.
func TestDriftRunIsTheDefaultBranchsDriftWorkflow(t *testing.T) {
	t.Parallel()
	cfg := rules.DefaultConfig()
	cfg.DriftWorkflows = []string{".github/workflows/planwarden-drift.yml"}
	drift := record.Run{ID: 9, Path: ".github/workflows/planwarden-drift.yml", Event: "schedule", HeadRepo: "acme/infra"}
	tests := map[string]struct {
		run    record.Run
		branch string
		why    string
	}{
		"the scheduled run on main": {drift, "main", ""},
		"a run started by hand":     {record.Run{ID: 9, Path: drift.Path, Event: "workflow_dispatch", HeadRepo: "acme/infra"}, "main", ""},
		"another branch":            {drift, "feature", "not on the default branch main"},
		"another workflow":          {record.Run{ID: 9, Path: ".github/workflows/planwarden-plan.yml", Event: "schedule", HeadRepo: "acme/infra"}, "main", "not a drift workflow"},
		"a pull request's run":      {record.Run{ID: 9, Path: drift.Path, Event: "pull_request", HeadRepo: "acme/infra"}, "main", "triggered by pull_request"},
		"a fork's commit":           {record.Run{ID: 9, Path: drift.Path, Event: "schedule", HeadRepo: "mallory/infra"}, "main", "of mallory/infra"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ok, why := DriftRun(cfg, "acme/infra", "main", tc.branch, tc.run)
			if ok != (tc.why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("DriftRun = %v %q, want %q", ok, why, tc.why)
			}
		})
	}
}
