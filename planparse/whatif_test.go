package planparse

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func parseWhatIfFile(t *testing.T, path string) *Plan {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tool != ToolWhatIf {
		t.Fatalf("%s: Tool = %q, want %q", path, p.Tool, ToolWhatIf)
	}
	return p
}

// diffLines renders a change's diff as "path: before -> after" lines.
func diffLines(c *Change) []string {
	var out []string
	for _, d := range c.Diff() {
		out = append(out, d.Path+": "+d.Before.Display()+" -> "+d.After.Display())
	}
	return out
}

type changeView struct{ Address, Type, Name, Action, Reason string }

func changeViews(p *Plan) []changeView {
	var out []changeView
	for _, c := range p.Changes {
		out = append(out, changeView{c.Address, c.Type, c.Name, string(c.Action), c.Reason})
	}
	return out
}

// The REST API's own example (the 200 response body of
// PostDeploymentWhatIfOnResourceGroup): one Modify adding a tag, one Create.
func TestWhatIfRESTExample(t *testing.T) {
	t.Parallel()
	path := "../../shared/corpus/whatif/rest-api-example__PostDeploymentWhatIfOnResourceGroup.json"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("what-if corpus not found at %s (it lives beside the repo in ../shared): %v", path, err)
	}
	var example struct {
		Responses map[string]struct {
			Body json.RawMessage `json:"body"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(raw, &example); err != nil {
		t.Fatal(err)
	}
	body := example.Responses["200"].Body
	if !IsWhatIf(body) {
		t.Fatal("the REST response body is not recognised as a what-if")
	}
	p, err := Parse("rest.json", body)
	if err != nil {
		t.Fatal(err)
	}
	want := []changeView{
		{"Microsoft.ManagedIdentity/userAssignedIdentities/myExistingIdentity", "Microsoft.ManagedIdentity/userAssignedIdentities", "myExistingIdentity", "update", ""},
		{"Microsoft.ManagedIdentity/userAssignedIdentities/myNewIdentity", "Microsoft.ManagedIdentity/userAssignedIdentities", "myNewIdentity", "create", ""},
	}
	if d := cmp.Diff(want, changeViews(p)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"tags.myNewTag: null -> my tag value"}, diffLines(p.Changes[0])); d != "" {
		t.Errorf("modify diff (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"location: null -> eastus", "name: null -> myNewIdentity", "tags.myOtherNewTag: null -> another new tag value"}, diffLines(p.Changes[1])); d != "" {
		t.Errorf("create diff (-want +got):\n%s", d)
	}
	if loc, _ := p.Changes[1].After().Get("location").Str(); loc != "eastus" {
		t.Errorf("after.location = %q", loc)
	}
	if p.Errored || p.Complete == nil || !*p.Complete {
		t.Errorf("errored %v, complete %v", p.Errored, p.Complete)
	}
}

func TestWhatIfModifyOnlyTags(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/whatif/modify-tags.json")
	if d := cmp.Diff([]changeView{{"Microsoft.Compute/virtualMachines/trainer", "Microsoft.Compute/virtualMachines", "trainer", "update", ""}}, changeViews(p)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	// NoEffect (provisioningState) is no change; the payloads' other
	// differences are not ARM's delta and are not shown.
	if d := cmp.Diff([]string{"tags.cost-center: ml-research -> ml-inference", "tags.owner: null -> ana"}, diffLines(p.Changes[0])); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if len(p.Changes[0].ReplacePaths) != 0 {
		t.Errorf("replace inferred: %v", p.Changes[0].ReplacePaths)
	}
}

func TestWhatIfSkippedAndNoEffect(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/whatif/ignore-unsupported.json")
	want := []changeView{
		{"Microsoft.Web/sites/ml-api", "Microsoft.Web/sites", "ml-api", "update", "ARM redeploys it and cannot tell whether its properties change"},
		{"Microsoft.Storage/storageAccounts/mldata", "Microsoft.Storage/storageAccounts", "mldata", "no-op", "every property change ARM lists has no effect"},
		{"Microsoft.Storage/storageAccounts/mlcold", "Microsoft.Storage/storageAccounts", "mlcold", "no-op", ""},
	}
	if d := cmp.Diff(want, changeViews(p)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	var skipped []string
	for _, s := range p.Skipped {
		skipped = append(skipped, s.ChangeType+" "+s.Address+" ("+s.Type+"): "+s.Reason)
	}
	wantSkipped := []string{
		"Ignore Microsoft.OperationalInsights/workspaces/ml-logs (Microsoft.OperationalInsights/workspaces): the resource is not in the template (or ARM skipped it); the deployment leaves it as it is",
		"Unsupported Microsoft.Resources/deployments/nested-gpu (Microsoft.Resources/deployments): Changes to the resource declared in a nested template could not be predicted: the template link is not evaluated",
	}
	if d := cmp.Diff(wantSkipped, skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
}

func TestWhatIfSubscriptionTwoGroups(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/whatif/sub-two-groups.json")
	// The pool name is the same in both groups: the addresses say which.
	want := []changeView{
		{"resourceGroups/ml-westus", "Microsoft.Resources/resourceGroups", "ml-westus", "create", ""},
		{"resourceGroups/ml-prod/Microsoft.ContainerService/managedClusters/aks/agentPools/gpu", "Microsoft.ContainerService/managedClusters/agentPools", "gpu", "update", ""},
		{"resourceGroups/ml-westus/Microsoft.ContainerService/managedClusters/aks/agentPools/gpu", "Microsoft.ContainerService/managedClusters/agentPools", "gpu", "create", ""},
		{"resourceGroups/ml-westus/Microsoft.Compute/virtualMachineScaleSets/infer", "Microsoft.Compute/virtualMachineScaleSets", "infer", "update", ""},
	}
	if d := cmp.Diff(want, changeViews(p)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	vmss := p.Changes[3]
	wantDiff := []string{
		"properties.virtualMachineProfile.extensionProfile.extensions[0].properties.protectedSettings: (sensitive) -> (sensitive)",
		"properties.virtualMachineProfile.extensionProfile.extensions[0].properties.settings.mode: x -> y",
		`properties.virtualMachineProfile.extensionProfile.extensions[1]: null -> {"name":"monitor","properties":{"settings":{"workspace":"w"}}}`,
		"properties.virtualMachineProfile.networkProfile.healthProbe.id: null -> (known after apply)",
		"properties.virtualMachineProfile.osProfile.adminPassword: (sensitive) -> (sensitive)",
		"sku.capacity: 2 -> 4",
	}
	if d := cmp.Diff(wantDiff, diffLines(vmss)); d != "" {
		t.Errorf("scale set diff (-want +got):\n%s", d)
	}
	for _, d := range vmss.Diff() {
		if d.Path == "properties.virtualMachineProfile.networkProfile.healthProbe.id" && !d.Unknown {
			t.Errorf("the reference() is not marked unknown")
		}
	}
	// Secrets are redacted in the payloads too, not only in the delta.
	all := vmss.Before().Display() + vmss.After().Display()
	for _, secret := range []string{"Hunter2", "I2Nsb3Vk", "very-secret-ext"} {
		if strings.Contains(all, secret) {
			t.Errorf("%s leaked from the payloads: %s", secret, all)
		}
	}
	if !vmss.After().Get("properties", "virtualMachineProfile", "networkProfile", "healthProbe", "id").IsUnknown() {
		t.Errorf("the reference() in the after payload is not unknown")
	}
}

// Without --result-format FullResourcePayloads there is nothing to read
// but the id: the change says how to get the payloads.
func TestWhatIfWithoutPayloads(t *testing.T) {
	t.Parallel()
	p, err := Parse("ids.json", []byte(`{"status":"Succeeded","changes":[{"resourceId":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm","changeType":"Modify"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Changes[0].Reason; !strings.Contains(got, "--result-format FullResourcePayloads") {
		t.Errorf("reason = %q, want it to say how to get payloads", got)
	}
}

func TestWhatIfFailed(t *testing.T) {
	t.Parallel()
	p := parseWhatIfFile(t, "testdata/whatif/failed.json")
	if !p.Errored || len(p.Checks) != 1 {
		t.Fatalf("errored %v, checks %d: a failed what-if must never read as clean", p.Errored, len(p.Checks))
	}
	want := []string{"InvalidTemplateDeployment: The template deployment 'main' is not valid.",
		"SkuNotAvailable: The requested VM size Standard_NC24ads_A100_v4 is not available in location 'westeurope'."}
	if d := cmp.Diff(want, p.Checks[0].Problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

func TestWhatIfBadInput(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ doc, want string }{
		"not a resource id": {`{"status":"Succeeded","changes":[{"resourceId":"trainer","changeType":"Create"}]}`, "changes[0].resourceId"},
		"no type after providers": {`{"status":"Succeeded","changes":[{"resourceId":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute","changeType":"Create"}]}`,
			"changes[0].resourceId"},
		"unknown changeType": {`{"status":"Succeeded","changes":[{"resourceId":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm","changeType":"Explode"}]}`,
			`unknown changeType "Explode"`},
		"bad payload": {`{"status":"Succeeded","changes":[{"resourceId":"/subscriptions/s/resourceGroups/g/providers/A.B/c/d","changeType":"Create","delta":[{"path":"x","propertyChangeType":"Create","after":1}],"after":"x"}]}`,
			""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("wi.json", []byte(tc.doc))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("a scalar payload is odd but readable: %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrNotPlan) {
				t.Fatalf("want a *planparse.Error (ErrNotPlan), got %v", err)
			}
			if !strings.Contains(err.Error(), "wi.json") || !strings.Contains(err.Error(), tc.want) || !strings.Contains(pe.Hint, "az deployment") {
				t.Errorf("error does not name the file, %q and how to produce a what-if: %v", tc.want, err)
			}
		})
	}
}

// Detection never mistakes a plan for a what-if, over every plan of the
// corpus, nor a what-if for a plan; things that are neither stay errors.
func TestWhatIfDetection(t *testing.T) {
	t.Parallel()
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if IsWhatIf(data) {
			t.Errorf("%s: a corpus plan is taken for a what-if", f)
		}
		if p, err := Parse(f, data); err == nil && p.Tool != "" {
			t.Errorf("%s: parsed as %q", f, p.Tool)
		}
	}
	whatifs, _ := filepath.Glob("testdata/whatif/*.json")
	whatifs = append(whatifs, "../examples/bicep-gpu-vm/whatif-typo.json", "../examples/bicep-gpu-vm/whatif-vm-no-tags.json")
	for _, f := range whatifs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !IsWhatIf(data) {
			t.Errorf("%s: not recognised as a what-if", f)
		}
	}
	notWhatIf := map[string]string{
		"a plan with a changes key":  `{"format_version":"1.2","changes":[{"resourceId":"/x","changeType":"Create"}]}`,
		"changes without resourceId": `{"status":"Succeeded","changes":[{"address":"a","changeType":"Create"}]}`,
		"an empty list, no status":   `{"changes":[]}`,
		"a list":                     `[{"resourceId":"/x","changeType":"Create"}]`,
	}
	for name, doc := range notWhatIf {
		if IsWhatIf([]byte(doc)) {
			t.Errorf("%s: taken for a what-if", name)
		}
	}
	if _, err := Parse("x.json", []byte(`{"changes":[]}`)); !errors.Is(err, ErrNotPlan) {
		t.Errorf("neither plan nor what-if: want ErrNotPlan, got %v", err)
	}
	if p, err := Parse("empty.json", []byte(`{"status":"Succeeded","changes":[]}`)); err != nil || p.Tool != ToolWhatIf || len(p.Changes) != 0 {
		t.Errorf("an empty what-if: %v, %+v", err, p)
	}
}
