package rules

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// generateSchema builds the JSON Schema of Config from its fields and
// their yaml, doc, enum, required, pattern, min and keys tags.
func generateSchema() []byte {
	s := schemaOf(reflect.TypeOf(Config{}), "", "")
	s["$schema"] = "http://json-schema.org/draft-07/schema#"
	s["$id"] = SchemaID
	s["title"] = "planwarden repo config (.github/planwarden.yml)"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("rules: schema: " + err.Error())
	}
	return append(b, '\n')
}

type schema map[string]any

func schemaOf(t reflect.Type, enum, pattern string) schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		props := schema{}
		var required []string
		fields := structFields(t)
		for _, name := range fieldNames(t) {
			f := fields[name]
			p := schemaOf(f.Type, f.Tag.Get("enum"), f.Tag.Get("pattern"))
			if d := f.Tag.Get("doc"); d != "" {
				p["description"] = d
			}
			if m := f.Tag.Get("min"); m != "" {
				v, _ := strconv.ParseFloat(m, 64)
				p["minimum"] = v
			}
			switch f.Tag.Get("keys") {
			case "environment":
				p["propertyNames"] = schema{"pattern": envName().String()}
			case "rule":
				p["propertyNames"] = schema{"pattern": `^(\*|[a-z0-9]+(-[a-z0-9]+)*)$`}
			}
			if f.Tag.Get("required") == "true" {
				required = append(required, name)
			}
			props[name] = p
		}
		s := schema{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	case reflect.Map:
		return schema{"type": "object", "additionalProperties": schemaOf(t.Elem(), enum, pattern)}
	case reflect.Slice:
		return schema{"type": "array", "items": schemaOf(t.Elem(), enum, pattern)}
	case reflect.String:
		s := schema{"type": "string"}
		if enum != "" {
			s["enum"] = strings.Split(enum, ",")
		}
		if pattern != "" {
			s["pattern"] = pattern
		}
		return s
	case reflect.Int:
		s := schema{"type": "integer"}
		if enum != "" {
			var vals []int
			for _, e := range strings.Split(enum, ",") {
				n, _ := strconv.Atoi(e)
				vals = append(vals, n)
			}
			s["enum"] = vals
		}
		return s
	case reflect.Float64:
		return schema{"type": "number"}
	case reflect.Bool:
		return schema{"type": "boolean"}
	}
	return schema{}
}
