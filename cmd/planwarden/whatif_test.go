package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A what-if file is reviewed beside a Terraform plan in one run, and the
// Bicep typo blocks like the Terraform one.
func TestReviewWhatIfBesidePlan(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "", "review", "--format", "json", "--environment", "prod",
		"../../examples/bicep-gpu-vm/whatif-typo.json", "../../examples/plans/aks-gpu-typo.json")
	if code != exitFail {
		t.Fatalf("exit %d, want %d (blocking findings): %s", code, exitFail, stderr)
	}
	var r struct {
		Verdict  string `json:"verdict"`
		Projects []struct {
			Name     string `json:"name"`
			Tool     string `json:"tool"`
			Findings []struct {
				Rule    string `json:"rule"`
				Address string `json:"address"`
			} `json:"findings"`
			Skipped []struct {
				Address    string `json:"address"`
				ChangeType string `json:"change_type"`
			} `json:"skipped"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Projects) != 2 || r.Projects[0].Tool != "arm-what-if" || r.Projects[1].Tool != "terraform" {
		t.Fatalf("projects = %+v", r.Projects)
	}
	var rules []string
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			rules = append(rules, f.Rule+" "+f.Address)
		}
	}
	want := "gpu-pool-sku Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu," +
		"gpu-sku-loss Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu," +
		"gpu-pool-sku azurerm_kubernetes_cluster_node_pool.gpu,gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu"
	if got := strings.Join(rules, ","); got != want {
		t.Errorf("findings = %s\nwant       %s", got, want)
	}
	if s := r.Projects[0].Skipped; len(s) != 1 || s[0].ChangeType != "Ignore" {
		t.Errorf("skipped = %+v", s)
	}
}

// Input that is neither a plan nor a what-if is refused, naming the file.
func TestReviewNeitherPlanNorWhatIf(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, `{"changes":[{"address":"x"}]}`, "review", "-")
	if code != exitUsage || !strings.Contains(stderr, "<stdin>: not a plan") || !strings.Contains(stderr, "az deployment group what-if") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}
