package planparse

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A stack what-if reads like a deployment's: one change per resource ARM
// evaluated, what the stack deletes as a delete and what it detaches as a
// forget, each with why; what it did not evaluate in Skipped.
func TestStackWhatIf(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/stackwhatif/stack-rg.json")
	want := []changeView{
		{"Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu", "Microsoft.ContainerService/managedClusters/agentPools", "gpu", "update", ""},
		{"Microsoft.Storage/storageAccounts/mlprodartifacts", "Microsoft.Storage/storageAccounts", "mlprodartifacts", "delete",
			"it is no longer in the stack's template, and the stack deletes it (actionOnUnmanage.resources: delete)"},
		{"resourceGroups/ml-scratch", "Microsoft.Resources/resourceGroups", "ml-scratch", "forget",
			"it is no longer in the stack's template, and the stack detaches it (actionOnUnmanage.resourceGroups: detach): it keeps running, and billing, outside the stack"},
		{"Microsoft.Compute/virtualMachines/trainer", "Microsoft.Compute/virtualMachines", "trainer", "create", "ARM marks this change potential, not certain"},
		{"Microsoft.KeyVault/vaults/ml-prod-kv", "Microsoft.KeyVault/vaults", "ml-prod-kv", "no-op", ""},
	}
	if diff := cmp.Diff(want, changeViews(p)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	var skipped []string
	for _, s := range p.Skipped {
		skipped = append(skipped, s.Address+" "+s.ChangeType)
	}
	if diff := cmp.Diff([]string{"Microsoft.Web/sites/scorer unsupported", "mlAdmins create"}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	pool := p.Changes[0]
	if got := diffLines(pool); len(got) != 1 || got[0] != "properties.vmSize: Standard_NC24ads_A100_v4 -> Standard_D16s_v5" {
		t.Errorf("the pool's diff is its delta: %v", got)
	}
	if pool.After().Get("properties", "vmSize").Display() != "Standard_D16s_v5" {
		t.Errorf("the pool's after payload: %s", pool.After().Display())
	}
	// The detached resource group's before is kept (it keeps running); its
	// diff is empty: nothing about it changes.
	if rg := p.Changes[2]; rg.Before().IsNull() || len(rg.Diff()) != 0 {
		t.Errorf("a detach: before %s, diff %v", rg.Before().Display(), diffLines(rg))
	}
	// The VM's admin password is an ARM secret: hidden in its value and diff.
	vm := p.Changes[3]
	for _, l := range diffLines(vm) {
		if strings.Contains(l, "Pa55") {
			t.Errorf("the admin password shows: %s", l)
		}
	}
	if v := vm.After().Get("properties", "osProfile", "adminPassword"); !v.IsSensitive() {
		t.Errorf("adminPassword reads %q", v.Display())
	}
}

// The REST API's own example: a create and a modify of policy assignments.
func TestStackWhatIfRESTExample(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/stackwhatif/rest-api-example.json")
	got := changeViews(p)
	if len(got) != 2 || got[0].Action != "create" || got[1].Action != "update" || got[1].Name != "updatedPolicyAssignment" {
		t.Fatalf("changes: %+v", got)
	}
	if d := diffLines(p.Changes[1]); len(d) != 1 || d[0] != "properties.enforcementMode: Default -> DoNotEnforce" {
		t.Errorf("the modify's delta: %v", d)
	}
}

// A failed stack what-if or an error diagnostic makes the result errored;
// a warning does not.
func TestStackWhatIfErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		props   map[string]any
		errored bool
	}{
		"an error":              {map[string]any{"provisioningState": "failed", "error": map[string]any{"code": "DeploymentStackWhatIfFailed", "message": "the template is invalid"}}, true},
		"an error diagnostic":   {map[string]any{"diagnostics": []any{map[string]any{"level": "error", "code": "Quota", "message": "no NC quota in westeurope"}}}, true},
		"a warning diagnostic":  {map[string]any{"diagnostics": []any{map[string]any{"level": "warning", "code": "Deprecated", "message": "old API version"}}}, false},
		"a clean empty what-if": {map[string]any{}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			props := map[string]any{"actionOnUnmanage": map[string]any{"resources": "detach"}, "changes": map[string]any{"resourceChanges": []any{}}}
			for k, v := range tc.props {
				props[k] = v
			}
			b, _ := json.Marshal(map[string]any{"type": "Microsoft.Resources/deploymentStacksWhatIfResults", "properties": props})
			p, err := Parse("stack.json", b)
			if err != nil {
				t.Fatal(err)
			}
			if p.Tool != ToolWhatIf || p.Errored != tc.errored || len(p.Checks) != map[bool]int{true: 1, false: 0}[tc.errored] {
				t.Errorf("tool %s errored %v checks %+v; want errored %v", p.Tool, p.Errored, p.Checks, tc.errored)
			}
		})
	}
}

func TestStackWhatIfDetection(t *testing.T) {
	t.Parallel()
	change := `{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/a","changeType":"%s"}`
	tests := map[string]struct {
		doc     string
		want    error
		mention string
	}{
		"an unknown changeType":       {`{"properties":{"changes":{"resourceChanges":[` + strings.Replace(change, "%s", "explode", 1) + `]}}}`, ErrNotPlan, `unknown changeType "explode"`},
		"a bad resource id":           {`{"properties":{"changes":{"resourceChanges":[{"id":"not-an-id","changeType":"create"}]}}}`, ErrNotPlan, "resourceChanges[0].id"},
		"changes that are no list":    {`{"properties":{"changes":{"resourceChanges":"x"}}}`, ErrNotPlan, "format_version"},
		"a stack, not its what-if":    {`{"type":"Microsoft.Resources/deploymentStacks","properties":{"resources":[]}}`, ErrNotPlan, "format_version"},
		"a plan with resourceChanges": {`{"format_version":"1.2","resource_changes":[],"resourceChanges":[]}`, nil, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := Parse("x.json", []byte(tc.doc))
			if tc.want == nil {
				if err != nil || p.Tool != "" {
					t.Fatalf("a Terraform plan: %v, tool %q", err, p.Tool)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("got %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
	// The honest twin: the same change with a known changeType, and the
	// result's properties alone, read.
	for _, doc := range []string{
		`{"properties":{"changes":{"resourceChanges":[` + strings.Replace(change, "%s", "delete", 1) + `]}}}`,
		`{"actionOnUnmanage":{"resources":"delete"},"changes":{"resourceChanges":[` + strings.Replace(change, "%s", "delete", 1) + `]}}`,
	} {
		p, err := Parse("x.json", []byte(doc))
		if err != nil || len(p.Changes) != 1 || p.Changes[0].Action != ActionDelete {
			t.Errorf("%s: %v %+v", doc, err, p)
		}
	}
}
