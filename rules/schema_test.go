package rules

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateSchema = flag.Bool("update", false, "rewrite planwarden.schema.json from the Go types")

// TestSchemaIsUpToDate fails when the committed schema is out of step with
// the config types; `go test ./rules -run TestSchemaIsUpToDate -update`
// (or `go generate ./rules`) rewrites it.
func TestSchemaIsUpToDate(t *testing.T) {
	t.Parallel()
	got := generateSchema()
	if *updateSchema {
		if err := os.WriteFile("planwarden.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(schemaFile), string(got)); diff != "" {
		t.Errorf("planwarden.schema.json is out of step with the config types; run go generate ./rules (-committed +generated):\n%s", diff)
	}
}

// The schema describes every key ParseConfig accepts, with the same
// enumerations, so an editor flags what planwarden would refuse.
func TestSchemaHasEveryKey(t *testing.T) {
	t.Parallel()
	var s map[string]any
	if err := json.Unmarshal(JSONSchema(), &s); err != nil {
		t.Fatal(err)
	}
	var paths []string
	var walk func(prefix string, n map[string]any)
	walk = func(prefix string, n map[string]any) {
		if props, ok := n["properties"].(map[string]any); ok {
			for k, v := range props {
				p := joinPath(prefix, k)
				paths = append(paths, p)
				walk(p, v.(map[string]any))
			}
		}
		if ap, ok := n["additionalProperties"].(map[string]any); ok {
			walk(prefix+".*", ap)
		}
		if it, ok := n["items"].(map[string]any); ok {
			walk(prefix+"[]", it)
		}
	}
	walk("", s)
	sort.Strings(paths)
	want := keyPaths(typeOfConfig, "")
	sort.Strings(want)
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("schema key paths (-config types +schema):\n%s", diff)
	}
	sev := s["properties"].(map[string]any)["rules"].(map[string]any)["properties"].(map[string]any)["iam-admin"].(map[string]any)["properties"].(map[string]any)["severity"].(map[string]any)
	if got := sev["enum"]; !cmp.Equal(got, []any{"block", "warn", "info", "off"}) {
		t.Errorf("rules.iam-admin.severity enum = %v", got)
	}
	if req := s["required"]; !cmp.Equal(req, []any{"version"}) {
		t.Errorf("required = %v, want [version]", req)
	}
	if !strings.Contains(string(JSONSchema()), `"additionalProperties": false`) {
		t.Error("schema allows unknown keys")
	}
}

var typeOfConfig = reflect.TypeOf(Config{})
