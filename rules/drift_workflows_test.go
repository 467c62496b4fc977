package rules

import "testing"

func TestIsDriftWorkflowIsOnlyTheListedFiles(t *testing.T) {
	t.Parallel()
	cfg, err := ParseConfig("planwarden.yml", []byte("version: 1\ndrift_workflows: [.github/workflows/planwarden-drift.yml]\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{
		".github/workflows/planwarden-drift.yml": true,
		".github/workflows/planwarden-plan.yml":  false, // the plan workflow is no drift workflow
		".github/workflows/Planwarden-drift.yml": false, // GitHub's paths are case-sensitive
	}
	for path, want := range tests {
		if got := cfg.IsDriftWorkflow(path); got != want {
			t.Errorf("IsDriftWorkflow(%s) = %v, want %v", path, got, want)
		}
	}
	if DefaultConfig().IsDriftWorkflow(".github/workflows/planwarden-drift.yml") {
		t.Errorf("the default config has a drift workflow; drift review is opt-in")
	}
}
