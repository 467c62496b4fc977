package review

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/planwarden/planwarden/rules"
)

// enums are the closed sets of values of the report's named string types.
var enums = map[reflect.Type][]string{
	reflect.TypeOf(rules.Verdict("")):  {string(rules.VerdictPass), string(rules.VerdictWarn), string(rules.VerdictFail)},
	reflect.TypeOf(rules.Severity("")): {string(rules.SeverityBlock), string(rules.SeverityWarn), string(rules.SeverityInfo)},
}

// generateSchema builds the schema of Report from its json tags: a field
// without omitempty is required; a pointer or slice may be null (Go writes
// nil as null); time.Time is an RFC 3339 string; an interface is any value.
func generateSchema() []byte {
	s := schemaFor(reflect.TypeOf(Report{}))
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = ReportSchemaID
	s["title"] = "planwarden JSON report (planwarden review --format json)"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("review: report schema: " + err.Error())
	}
	return append(b, '\n')
}

type jsonSchema = map[string]any

func schemaFor(t reflect.Type) jsonSchema {
	if vals, ok := enums[t]; ok {
		return jsonSchema{"type": "string", "enum": vals}
	}
	if t == reflect.TypeOf(time.Time{}) {
		return jsonSchema{"type": "string", "format": "date-time"}
	}
	if t == reflect.TypeFor[Change]() {
		t = reflect.TypeFor[ChangeRow]() // what Change.MarshalJSON writes
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(schemaFor(t.Elem()))
	case reflect.Slice:
		return nullable(jsonSchema{"type": "array", "items": schemaFor(t.Elem())})
	case reflect.Map:
		return nullable(jsonSchema{"type": "object", "additionalProperties": schemaFor(t.Elem())})
	case reflect.Interface:
		return jsonSchema{}
	case reflect.Struct:
		props := jsonSchema{}
		var required []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, omitEmpty, ok := jsonName(f)
			if !ok {
				continue
			}
			props[name] = schemaFor(f.Type)
			if !omitEmpty {
				required = append(required, name)
			}
		}
		sort.Strings(required)
		return jsonSchema{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	case reflect.String:
		return jsonSchema{"type": "string"}
	case reflect.Bool:
		return jsonSchema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return jsonSchema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return jsonSchema{"type": "number"}
	}
	panic("review: report schema: no JSON Schema for " + t.String())
}

// nullable lets s also be null.
func nullable(s jsonSchema) jsonSchema {
	if typ, ok := s["type"].(string); ok {
		s["type"] = []string{typ, "null"}
		return s
	}
	return jsonSchema{"anyOf": []any{s, jsonSchema{"type": "null"}}}
}

// jsonName reads a field's json tag: its name, omitempty, and whether it
// is encoded at all.
func jsonName(f reflect.StructField) (string, bool, bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(opts, "omitempty"), true
}
