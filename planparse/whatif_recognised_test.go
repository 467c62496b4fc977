package planparse

import (
	"errors"
	"testing"
)

// TestWhatIfRecognised: which documents are ARM what-if results, without
// the corpus (TestWhatIfDetection needs ../shared for its plans): a changes
// list whose entries have resourceId and changeType, with or without a
// status; an empty list only with a status; a failed what-if (a status and
// its error). IsWhatIf and Parse agree.
func TestWhatIfRecognised(t *testing.T) {
	t.Parallel()
	const rid = `"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/a"`
	for doc, want := range map[string]bool{
		`{"status":"Succeeded","changes":[{"resourceId":` + rid + `,"changeType":"Create","after":{"name":"a"}}]}`: true,
		`{"changes":[{"resourceId":` + rid + `,"changeType":"Create","after":{"name":"a"}}]}`:                      true,
		`{"properties":{"changes":[{"resourceId":` + rid + `,"changeType":"Ignore"}]}}`:                            true,
		`{"status":"Succeeded","changes":[]}`:                                                                      true,
		`{"status":"Failed","error":{"code":"InvalidTemplate","message":"The template is not valid."}}`:            true,
		"\n  " + `{"changes":[{"resourceId":` + rid + `,"changeType":"Delete"}]}` + "\n":                           true,
		`{"changes":[]}`:                   false,
		`{"status":"Succeeded"}`:           false,
		`{"status":"Failed","error":null}`: false,
		`{"status":"Succeeded","changes":[{"changeType":"Create"}]}`:    false,
		`{"status":"Succeeded","changes":[{"resourceId":` + rid + `}]}`: false,
		`{"status":"Succeeded","changes":{"a":1}}`:                      false,
		``:                                      false,
		"PK\x03\x04 a zip":                      false,
		`{"format_version":"1.2","changes":[]}`: false,
	} {
		if got := IsWhatIf([]byte(doc)); got != want {
			t.Errorf("IsWhatIf(%.70q) = %v, want %v", doc, got, want)
		}
		p, err := Parse("wi.json", []byte(doc))
		if want && (err != nil || p.Tool != ToolWhatIf) {
			t.Errorf("Parse(%.70q): %v, want a what-if", doc, err)
		}
		if !want && err == nil && p.Tool == ToolWhatIf {
			t.Errorf("Parse(%.70q): taken for a what-if", doc)
		}
	}
	if _, err := Parse("x.json", []byte(`{"changes":[]}`)); !errors.Is(err, ErrNotPlan) {
		t.Errorf("neither plan nor what-if: want ErrNotPlan, got %v", err)
	}
}

// TestWhatIfResourceIDKinds: the type and name a change shows for a
// subscription, a resource group, a resource, a child resource and an
// extension resource (a diagnostic setting on a VM: the type is the last
// provider's).
func TestWhatIfResourceIDKinds(t *testing.T) {
	t.Parallel()
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000000"
	for id, want := range map[string][2]string{
		sub:                        {"Microsoft.Resources/subscriptions", "00000000-0000-0000-0000-000000000000"},
		sub + "/resourceGroups/ml": {"Microsoft.Resources/resourceGroups", "ml"},
		sub + "/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/vm1":                                                    {"Microsoft.Compute/virtualMachines", "vm1"},
		sub + "/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/aks/agentPools/gpu":                            {"Microsoft.ContainerService/managedClusters/agentPools", "gpu"},
		sub + "/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/vm1/providers/Microsoft.Insights/diagnosticSettings/ds": {"Microsoft.Insights/diagnosticSettings", "ds"},
		sub + "/providers/Microsoft.Authorization/roleAssignments/ra1":                                                                {"Microsoft.Authorization/roleAssignments", "ra1"},
	} {
		doc := `{"status":"Succeeded","changes":[{"resourceId":"` + id + `","changeType":"Create","after":{}}]}`
		p, err := Parse("wi.json", []byte(doc))
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if len(p.Changes) != 1 || p.Changes[0].Type != want[0] || p.Changes[0].Name != want[1] {
			t.Errorf("%s: changes %+v, want type %s name %s", id, changeViews(p), want[0], want[1])
		}
	}
}
