package planparse

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the parser mutated plans: it must never panic, every
// refusal must be a *planparse.Error, and everything an accepted plan
// offers (values, diffs, state, configuration) must be safe to walk.
// Seeds: the shared corpus when present, this package's fixtures (what-if
// results among them) and the action invocations example.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.json"))
	fixtures, _ := filepath.Glob("testdata/*.json")
	whatifs, _ := filepath.Glob("testdata/whatif/*.json")
	others, _ := filepath.Glob("testdata/*/*.json") // Pulumi previews, stack what-ifs
	fixtures = append(append(append(fixtures, whatifs...), others...), actionsFixture)
	for _, path := range append(seeds, fixtures...) {
		if data, err := os.ReadFile(path); err == nil && len(data) < 256<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["update"],"before":{"k":[1,{"x":"y"}]},"after":{"k":[2]},"after_unknown":{"k":[false,true]},"before_sensitive":{"k":true}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.json", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("refusal is not a *planparse.Error: %T %v", err, err)
			}
			return
		}
		for _, list := range [][]*Change{p.Changes, p.Drift} {
			for _, c := range list {
				for _, d := range c.Diff() {
					_ = d.Before.Display() + d.After.Display()
				}
				_ = c.After().Get("a", 0, "b").Display()
				_ = p.ProviderConfigFor(c)
				_ = p.ConfigResource(c.Address)
			}
		}
		for _, r := range append(p.PriorResources(), p.PlannedResources()...) {
			_ = r.Values.Display()
		}
		for _, sec := range []struct {
			all  func() []*StateResource
			at   func(string) *StateResource
			with func(typ, field, value string) []*StateResource
		}{{p.PriorResources, p.PriorResource, p.PriorResourcesWith}, {p.PlannedResources, p.PlannedResource, p.PlannedResourcesWith}} {
			for _, r := range sec.all() {
				if sec.at(r.Address) == nil {
					t.Fatalf("resource %q is not found by its address", r.Address)
				}
				id, _ := r.Values.Get("id").Str()
				name, _ := r.Values.Get("name").Str()
				_, _ = sec.with(r.Type, "id", id), sec.with(r.Type, "name", name)
			}
		}
		end := 0
		for _, rg := range p.SparseRanges() {
			if rg.Start < end || rg.End < rg.Start || rg.End > len(data) {
				t.Fatalf("sparse range %v of %d bytes (after %d)", rg, len(data), end)
			}
			end = rg.End
		}
		for _, o := range p.Outputs {
			_ = o.Before.Display() + o.After.Display()
		}
		for _, a := range p.Actions {
			_ = a.Config.Display() + a.When(func(s string) string { return s })
		}
	})
}
