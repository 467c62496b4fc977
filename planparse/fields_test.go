package planparse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// Fields reads every key as Get does: present, absent, null, repeated,
// escaped, secret (renamed), sensitive, unknown and shown-as-redacted
// keys, on every object of generated and corpus plans, at every depth.
func TestFieldsReadsAsGet(t *testing.T) {
	t.Parallel()
	plans := map[string][]byte{
		"fleet":      plantest.Large(300),
		"brownfield": plantest.Clusters(300),
		"edge": []byte(`{"format_version":"1.2","resource_changes":[
		{"address":"x.a","mode":"managed","type":"x","name":"a","change":{"actions":["update"],
		 "before":{"a":1,"a":2,"e\u0066":"escaped","ef":"plain","password":"hunter22-very-long","n":null,"env":[{"name":"DB_PASSWORD","value":"s3cr3t-value-long"}],"o":{"k":"v"}},
		 "after":{"a":3,"o":{"k":"w","token":"abc"},"list":[1,2]},
		 "after_unknown":{"id":true,"o":{"later":true}},
		 "before_sensitive":{"o":{"k":true}},"after_sensitive":{"list":[false,true]}}}]}`),
	}
	files, _ := filepath.Glob("../../shared/corpus/plans/*/*.json")
	for i, f := range files {
		if i%4 != 0 {
			continue
		}
		if data, err := os.ReadFile(f); err == nil {
			plans[f] = data
		}
	}
	extra := []string{"missing", "a", "ef", "n", "id", "later", "name", "value", "password", "token", "k", SensitiveText}
	for name, data := range plans {
		p, err := Parse(name, data)
		if err != nil {
			continue
		}
		for _, c := range p.Changes {
			for _, v := range []Value{c.Before(), c.After()} {
				checkFields(t, name+" "+c.Address, v, extra, 0)
			}
		}
	}
}

func checkFields(t *testing.T, where string, v Value, extra []string, depth int) {
	t.Helper()
	if depth > 4 {
		return
	}
	if v.IsList() {
		for _, e := range v.List() {
			checkFields(t, where+"[]", e, extra, depth+1)
		}
		return
	}
	if !v.IsMap() {
		return
	}
	seen := map[string]bool{}
	var keys []string
	for _, k := range append(v.Keys(), extra...) {
		if !seen[k] && len(keys) < maxFields {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	out := make([]Value, len(keys))
	v.Fields(keys, out)
	for i, k := range keys {
		want := v.Get(k)
		if out[i].Display() != want.Display() || out[i].IsUnknown() != want.IsUnknown() ||
			out[i].IsSensitive() != want.IsSensitive() || out[i].IsNull() != want.IsNull() ||
			out[i].IsMap() != want.IsMap() {
			t.Errorf("%s: Fields reads %q as %s, Get as %s", where, k, out[i].Display(), want.Display())
		}
		checkFields(t, where+"."+k, want, extra, depth+1)
	}
}
