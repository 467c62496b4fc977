package planparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestLazyValuesMatchFullDecode: a value read step by step from the plan's
// bytes is redacted, marked unknown and decoded exactly as the full decode
// and sanitize of the whole value, at every node of every change of every
// plan (corpus, fixtures, generated mixes).
func TestLazyValuesMatchFullDecode(t *testing.T) {
	t.Parallel()
	files := diffFiles(t)
	files["secrets"] = []byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["update"],
	  "before":{"password":"p4ssw0rd!","list":["x",{"token":"t0k3n-value"}],"plain":"p4ssw0rd!","nested":{"k":{"v":1}},"gone":null,"empty_secret":""},
	  "after":{"password":{"a":1},"list":["y"],"child":null,"custom_data":[1,2],"n":1.5e3},
	  "after_unknown":{"id":true,"child":{"x":true},"list":[false,true]},
	  "before_sensitive":{"nested":{"k":true}},"after_sensitive":{"list":[true]}}},
	  {"address":"b.c","type":"b","name":"c","change":{"actions":["update"],
	  "before":{"env":[{"name":"DB_PASSWORD","value":"hunter2hunter2"},{"name":"REGION","value":"eu-west-1"}],
	    "marked":"Tr0ub4dor-and-3xyz","keys":{"Tr0ub4dor-and-3xyz":"user","plain":"x"},"note":"token ghp_1234567890abcdefghijklmnopqrstuvwxyz12 here",
	    "already":"(sensitive) 0a1b2c3d"},
	  "after":{"env":[{"name":"API_TOKEN","value":{"nested":"v"}}],"keys":{"(sensitive) 00000000":"z"}},
	  "after_unknown":{"keys":{"new":true}},"before_sensitive":{"marked":true},"after_sensitive":{}}}]}`)
	nodes := 0
	for name, data := range files {
		data, err := normalize(name, data)
		if err != nil {
			continue
		}
		w, err := readPlan(data)
		if err != nil || w.FormatVersion == nil {
			continue
		}
		p, err := Parse(name, data)
		if err != nil {
			continue
		}
		secrets := p.lazy.secrets
		for i, c := range p.Changes {
			rec, _ := w.ResourceChanges.At(i)
			wc := &rec.Change
			for _, side := range []struct {
				name      string
				lazy      Value
				raw, s, u []byte
			}{{"before", c.Before(), wc.Before, wc.BeforeSensitive, nil}, {"after", c.After(), wc.After, wc.AfterSensitive, wc.AfterUnknown}} {
				full, err := decodeValue(side.raw, side.s, side.u, secrets)
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, c.Address, side.name, err)
				}
				walkTree(full.v, nil, func(path []any, want any) {
					nodes++
					got := side.lazy.Get(path...)
					w := Value{v: want}
					if !equal(got.tree(), want) || got.IsNull() != w.IsNull() || got.IsSensitive() != w.IsSensitive() ||
						got.IsUnknown() != w.IsUnknown() || got.IsMap() != w.IsMap() || got.IsList() != w.IsList() || got.Len() != w.Len() {
						t.Errorf("%s %s %s at %v: lazy %s, full %s", name, c.Address, side.name, path, got.Display(), Value{v: want}.Display())
					}
					if l := (Value{v: want}).List(); len(l) > 0 {
						for k, e := range got.List() {
							if !equal(e.tree(), l[k].v) {
								t.Errorf("%s %s %s at %v: List()[%d] differs", name, c.Address, side.name, path, k)
							}
						}
					}
				})
			}
		}
	}
	// A secret map key is shown renamed: it cannot be read by its name.
	p := mustParse(t, "secrets.json", string(files["secrets"]))
	keys := p.Changes[1].Before().Get("keys")
	if !keys.Get("Tr0ub4dor-and-3xyz").IsNull() || !strings.Contains(strings.Join(keys.Keys(), ","), SensitiveText) {
		t.Errorf("secret map key readable by name: keys %v", keys.Keys())
	}
	if nodes < 1000 {
		t.Errorf("only %d value nodes compared", nodes)
	}
}

// walkTree calls visit for every node of a decoded tree with its path.
func walkTree(x any, path []any, visit func([]any, any)) {
	visit(path, x)
	switch t := x.(type) {
	case map[string]any:
		for k, e := range t {
			walkTree(e, append(path[:len(path):len(path)], k), visit)
		}
	case []any:
		for i, e := range t {
			walkTree(e, append(path[:len(path):len(path)], i), visit)
		}
	}
}

// BenchmarkValueGet reads a few fields of every change, as infra does.
func BenchmarkValueGet(b *testing.B) {
	p, err := Parse("large.json", plantest.Large(2000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range p.Changes {
			v := c.After()
			_ = fmt.Sprint(v.Get("vm_size").Str())
			_, _ = v.Get("tags", "cost-center").Str()
			_, _ = v.Get("production_variants", 0, "instance_type").Str()
		}
	}
}

// BenchmarkValueGetRepeated reads several attributes of each change's
// objects one Get at a time, as infra and the rules do (a node pool's
// vm_size, node_count, zones, tags, ...): the member cache's case.
func BenchmarkValueGetRepeated(b *testing.B) {
	p, err := Parse("clusters.json", plantest.Clusters(2000))
	if err != nil {
		b.Fatal(err)
	}
	keys := []string{"name", "vm_size", "node_count", "instance_type", "kubernetes_cluster_id", "zones", "enable_auto_scaling", "min_count", "max_count", "id"}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range p.Changes {
			for _, v := range []Value{c.Before(), c.After()} {
				for _, k := range keys {
					_, _ = v.Get(k).Str()
				}
				_, _ = v.Get("tags", "team").Str()
			}
		}
	}
}
