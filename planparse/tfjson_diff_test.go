package planparse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// wireModel is what the one-pass reader takes from a plan, in a shape both
// readers can fill: the fields, plus every kept value decoded as
// encoding/json decodes it.
type wireModel struct {
	FormatVersion, TerraformVersion, Timestamp string
	Errored                                    bool
	Complete, Applyable                        *bool
	Changes, Drift                             []wireModelChange
	Outputs                                    map[string]wireModelValues
	Deferred                                   []string // reason, then the change's address
	Checks                                     int
	Prior, Planned                             []string // address, type and values
}

type wireModelChange struct {
	Address, PreviousAddress, ModuleAddress, Mode, Type, Name, Index string
	Provider, Deposed, ActionReason, ImportID                        string
	Actions, ReplacePaths                                            []string
	Values                                                           wireModelValues
}

type wireModelValues struct{ Before, After, AfterUnknown, BeforeSensitive, AfterSensitive any }

// fromWire decodes the reader's slices with this package's decoder.
func fromWire(t *testing.T, w *wirePlan, p *Plan) wireModel {
	t.Helper()
	dec := func(raw []byte) any {
		if raw == nil {
			return nil
		}
		v, err := jsonscan.Decode(raw)
		if err != nil {
			t.Fatalf("kept value does not decode: %v", err)
		}
		return v
	}
	vals := func(c *wireChange) wireModelValues {
		return wireModelValues{dec(c.Before), dec(c.After), dec(c.AfterUnknown), dec(c.BeforeSensitive), dec(c.AfterSensitive)}
	}
	// r and c are a resource change as read (c's strings as the plan has
	// them, see newChange).
	change := func(r *wireResource, c *Change) wireModelChange {
		m := wireModelChange{Address: c.Address, PreviousAddress: c.PreviousAddress, ModuleAddress: c.ModuleAddress,
			Mode: string(c.Mode), Type: c.Type, Name: c.Name, Provider: c.Provider, Deposed: c.Deposed,
			ActionReason: c.ReasonCode, Values: vals(&r.Change)}
		if len(c.Index) > 0 {
			m.Index = fmt.Sprint(dec([]byte(c.Index)))
		}
		for _, a := range r.Change.Actions {
			m.Actions = append(m.Actions, string(a))
		}
		for _, rp := range c.ReplacePaths {
			m.ReplacePaths = append(m.ReplacePaths, formatPath([]byte(rp), sanitizer{}))
		}
		if c.Importing != nil {
			m.ImportID = "import:" + c.Importing.ID
		}
		return m
	}
	m := wireModel{FormatVersion: *w.FormatVersion, TerraformVersion: w.TerraformVersion, Timestamp: w.Timestamp,
		Errored: w.Errored, Complete: w.Complete, Applyable: w.Applyable, Checks: len(w.Checks)}
	for rec, c := range w.ResourceChanges.All() {
		m.Changes = append(m.Changes, change(rec, c))
	}
	for rec, c := range w.ResourceDrift.All() {
		m.Drift = append(m.Drift, change(rec, c))
	}
	for n, oc := range w.OutputChanges {
		if m.Outputs == nil {
			m.Outputs = map[string]wireModelValues{}
		}
		m.Outputs[n] = vals(&oc)
	}
	for _, d := range w.DeferredChanges {
		address := ""
		if d.Change != nil {
			address = d.Change.Address
		}
		m.Deferred = append(m.Deferred, d.Reason, address)
	}
	state := func(x *stateIndex) []string {
		var out []string
		for i, e := range x.ents {
			address, _, typ, _, values, _ := x.fields(x.object(uint32(i)))
			if typ != x.types[e.typ] {
				panic("stateIndex: entry type " + x.types[e.typ] + ", resource type " + typ)
			}
			out = append(out, address, typ, fmt.Sprint(dec(values)))
		}
		sort.Strings(out)
		return out
	}
	m.Prior, m.Planned = state(&p.lazy.prior), state(&p.lazy.planned)
	return m
}

// fromTFJSON builds the same model from terraform-json's decode.
func fromTFJSON(tp *tfjson.Plan) wireModel {
	jsonIndex := func(x any) string {
		if x == nil {
			return ""
		}
		return fmt.Sprint(x)
	}
	vals := func(c *tfjson.Change) wireModelValues {
		return wireModelValues{c.Before, c.After, c.AfterUnknown, c.BeforeSensitive, c.AfterSensitive}
	}
	change := func(r *tfjson.ResourceChange) wireModelChange {
		m := wireModelChange{Address: r.Address, PreviousAddress: r.PreviousAddress, ModuleAddress: r.ModuleAddress,
			Mode: string(r.Mode), Type: r.Type, Name: r.Name, Provider: r.ProviderName, Deposed: r.DeposedKey,
			ActionReason: string(r.ActionReason), Index: jsonIndex(r.Index)}
		if r.Change == nil {
			return m
		}
		m.Values = vals(r.Change)
		for _, a := range r.Change.Actions {
			m.Actions = append(m.Actions, string(a))
		}
		for _, rp := range r.Change.ReplacePaths {
			b, _ := json.Marshal(rp)
			m.ReplacePaths = append(m.ReplacePaths, formatPath(b, sanitizer{}))
		}
		if r.Change.Importing != nil {
			m.ImportID = "import:" + r.Change.Importing.ID
		}
		return m
	}
	m := wireModel{FormatVersion: tp.FormatVersion, TerraformVersion: tp.TerraformVersion, Timestamp: tp.Timestamp,
		Complete: tp.Complete, Checks: len(tp.Checks)}
	for _, r := range tp.ResourceChanges {
		m.Changes = append(m.Changes, change(r))
	}
	for _, r := range tp.ResourceDrift {
		m.Drift = append(m.Drift, change(r))
	}
	for n, oc := range tp.OutputChanges {
		if m.Outputs == nil {
			m.Outputs = map[string]wireModelValues{}
		}
		m.Outputs[n] = vals(oc)
	}
	for _, d := range tp.DeferredChanges {
		addr := ""
		if d.ResourceChange != nil {
			addr = d.ResourceChange.Address
		}
		m.Deferred = append(m.Deferred, string(d.Reason), addr)
	}
	state := func(mod *tfjson.StateModule) []string {
		var out []string
		queue := []*tfjson.StateModule{mod}
		for len(queue) > 0 {
			mod, queue = queue[0], queue[1:]
			if mod == nil {
				continue
			}
			for _, r := range mod.Resources {
				var v any
				if r.AttributeValues != nil {
					v = map[string]any(r.AttributeValues)
				}
				out = append(out, r.Address, r.Type, fmt.Sprint(v))
			}
			queue = append(queue, mod.ChildModules...)
		}
		sort.Strings(out)
		return out
	}
	if tp.PriorState != nil && tp.PriorState.Values != nil {
		m.Prior = state(tp.PriorState.Values.RootModule)
	}
	if tp.PlannedValues != nil {
		m.Planned = state(tp.PlannedValues.RootModule)
	}
	return m
}

// diffFiles are the plans the differential test reads: the shared corpus
// (when present), this package's fixtures, the repo's examples and two
// generated plans.
func diffFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	globs := []string{filepath.Join(corpusDir, "*", "*.json"), "testdata/*.json", "../examples/plans/*.json", "../comment/testdata/*.json"}
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = data
		}
	}
	out["generated fleet mix"] = plantest.Large(300)
	out["generated cluster mix"] = plantest.Clusters(300)
	return out
}

// TestReaderMatchesTerraformJSON decodes every plan with the one-pass
// reader and with terraform-json (the reference) and compares every field
// planparse reads and every value it keeps. A plan terraform-json refuses
// must be refused here too, unless the reader has a documented reason to
// read it (the plan wrapper and encoding cases Parse handles first).
func TestReaderMatchesTerraformJSON(t *testing.T) {
	t.Parallel()
	files := diffFiles(t)
	// With the corpus nearly all of its 454 plans are compared; without it
	// (a user's clone) the repo's own fixtures, examples and generated mixes.
	least := 400
	if _, err := os.Stat(corpusDir); err != nil {
		t.Logf("plan corpus not found at %s (it lives beside the repo in ../shared); comparing the fixtures only", corpusDir)
		least = 5
	}
	compared := 0
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			data, err := normalize(name, data)
			if err != nil {
				return // refused before either reader runs
			}
			var tp tfjson.Plan
			tfErr := json.Unmarshal(data, &tp)
			w, err := readPlan(data)
			if err != nil {
				if tfErr == nil {
					t.Fatalf("reader refuses a plan terraform-json reads: %v", err)
				}
				return
			}
			if tfErr != nil {
				if strings.Contains(tfErr.Error(), "format version") || strings.Contains(tfErr.Error(), "unsupported plan format") {
					return // terraform-json checks the version while decoding; Parse checks it after
				}
				t.Fatalf("reader accepts a plan terraform-json refuses: %v", tfErr)
			}
			if w.FormatVersion == nil {
				return // not a plan; Parse refuses it
			}
			p, err := Parse(name, data)
			if err != nil {
				return
			}
			got, want := fromWire(t, w, p), fromTFJSON(&tp)
			// terraform-json's Plan has no errored or applyable field.
			got.Errored, got.Applyable = false, nil
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("reader and terraform-json differ (-terraform-json +reader):\n%s", diff)
			}
			compared++
		})
	}
	if compared < least {
		t.Errorf("only %d plans compared, expected at least %d", compared, least)
	}
}
