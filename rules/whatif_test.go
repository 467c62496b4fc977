package rules

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// whatIfProject reads a one-entry what-if through planparse and infra.
func whatIfProject(t *testing.T, env, id, changeType string, before, after map[string]any) Project {
	t.Helper()
	c := map[string]any{"resourceId": "/subscriptions/0/resourceGroups/ml/providers/" + id, "changeType": changeType}
	if before != nil {
		c["before"] = before
	}
	if after != nil {
		c["after"] = after
	}
	data, err := json.Marshal(map[string]any{"status": "Succeeded", "changes": []any{c}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("whatif.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return Project{Name: "bicep", Environment: env, Plan: p, Resources: infra.Analyze(p, infra.DefaultCatalog(), infra.Options{})}
}

// The built-in rules judge ARM resources from a what-if as they judge
// their Terraform counterparts.
func TestBuiltinRulesOnWhatIf(t *testing.T) {
	t.Parallel()
	const pool = "Microsoft.ContainerService/managedClusters/ml/agentPools/gpu"
	const vm = "Microsoft.Compute/virtualMachines/trainer"
	gpuPool := func(taints []any) map[string]any {
		return map[string]any{"name": "gpu", "properties": map[string]any{"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "nodeTaints": taints,
			"tags": map[string]any{"cost-center": "ml"}}}
	}
	vmOf := func(size string) map[string]any {
		return map[string]any{"name": "trainer", "location": "westeurope", "tags": map[string]any{"cost-center": "ml"},
			"properties": map[string]any{"hardwareProfile": map[string]any{"vmSize": size}}}
	}
	tests := map[string]struct {
		cfg  string
		p    func(t *testing.T) Project
		want []string
	}{
		// A lone agent pool (its cluster not in the what-if) has no
		// region, so it is not priced: unpriced-sku says so.
		"GPU agent pool without a NoSchedule taint warns": {
			p:    func(t *testing.T) Project { return whatIfProject(t, "prod", pool, "Create", nil, gpuPool(nil)) },
			want: []string{"warn gpu-pool-taint " + pool, "warn unpriced-sku " + pool},
		},
		"tainted GPU agent pool passes": {
			p: func(t *testing.T) Project {
				return whatIfProject(t, "prod", pool, "Create", nil, gpuPool([]any{"nvidia.com/gpu=present:NoSchedule"}))
			},
			want: []string{"warn unpriced-sku " + pool},
		},
		"inline GPU pool of a managed cluster gets a CPU size: blocks like a pool resource": {
			p: func(t *testing.T) Project {
				cl := func(size string) map[string]any {
					return map[string]any{"name": "ml", "location": "westeurope", "tags": map[string]any{"cost-center": "ml"},
						"properties": map[string]any{"agentPoolProfiles": []any{
							map[string]any{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3},
							map[string]any{"name": "gpu", "vmSize": size, "count": 2, "nodeTaints": []any{"sku=gpu:NoSchedule"}}}}}
				}
				return whatIfProject(t, "prod", "Microsoft.ContainerService/managedClusters/ml", "Modify", cl("Standard_NC24ads_A100_v4"), cl("Standard_D16s_v5"))
			},
			want: []string{"block gpu-pool-sku Microsoft.ContainerService/managedClusters/ml", "block gpu-sku-loss Microsoft.ContainerService/managedClusters/ml"},
		},
		"VM size outside the environment's allow-list blocks": {
			cfg: "version: 1\nenvironments:\n  prod: {protected: true, allowed_skus: [Standard_NC24ads_A100_v4]}\n",
			p: func(t *testing.T) Project {
				return whatIfProject(t, "prod", vm, "Create", nil, vmOf("Standard_NC40ads_H100_v5"))
			},
			want: []string{"block allowed-skus " + vm},
		},
		"a costly VM size change is flagged": {
			cfg: "version: 1\nrules:\n  cost-increase: {hourly_delta: {warn: 1}}\n",
			p: func(t *testing.T) Project {
				return whatIfProject(t, "prod", vm, "Modify", vmOf("Standard_NC24ads_A100_v4"), vmOf("Standard_NC48ads_A100_v4"))
			},
			want: []string{"warn cost-increase " + vm},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res := mustConfig(t, tc.cfg).Evaluate([]Project{tc.p(t)}, nil)
			got := []string{}
			for _, f := range res.Findings {
				got = append(got, string(f.Severity)+" "+f.Rule+" "+f.Address)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%v", d, lines(res.Findings))
			}
		})
	}
}

// A what-if in Complete mode deletes what the template no longer declares:
// stateful-delete blocks a storage account going that way.
func TestStatefulDeleteOnWhatIf(t *testing.T) {
	t.Parallel()
	const acct = "Microsoft.Storage/storageAccounts/mldata"
	st := map[string]any{"name": "mldata", "location": "westeurope"} // no type: the id names it
	for name, tc := range map[string]struct {
		id, changeType string
		want           []string
	}{
		"deleted storage account blocks":  {acct, "Delete", []string{"block stateful-delete " + acct + ": storage account `mldata` is deleted, and the data in it with it"}},
		"lower-case type from the id":     {"microsoft.storage/storageaccounts/mldata", "Delete", []string{"block stateful-delete microsoft.storage/storageaccounts/mldata: storage account `mldata` is deleted, and the data in it with it"}},
		"modified storage account passes": {acct, "Modify", []string{}},
	} {
		t.Run(name, func(t *testing.T) {
			var after map[string]any
			if tc.changeType != "Delete" {
				after = st
			}
			p := whatIfProject(t, "prod", tc.id, tc.changeType, st, after)
			got := lines(only(RuleStatefulDelete, mustConfig(t, "").Evaluate([]Project{p}, nil).Findings))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}
