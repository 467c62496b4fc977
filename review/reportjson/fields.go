package reportjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// field is one encoded struct field: its index, its key written as
// `"name": ` and whether it has omitempty.
type field struct {
	index     int
	key       string
	omitEmpty bool
	// str is set for a field of a string kind whose type (or pointer to
	// it) has no marshalling of its own: value would write it with str.
	str bool
}

type fields struct {
	list []field
	ok   bool
}

var fieldCache sync.Map // reflect.Type -> fields

// fieldsOf reads a struct type's json tags once. It is not ok for a
// struct with an embedded field or a ",string" option, which encoding/json
// treats specially (such a struct is marshalled whole).
func fieldsOf(t reflect.Type) ([]field, bool) {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(fields).list, fs.(fields).ok
	}
	var fs []field
	ok := true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			ok = false
		}
		name, omitEmpty, encoded := jsonName(f)
		if !encoded {
			continue
		}
		if _, opts, _ := strings.Cut(f.Tag.Get("json"), ","); strings.Contains(opts, "string") {
			ok = false
		}
		key, _ := json.Marshal(name)
		// (A pointer's methods include its type's.)
		pt := reflect.PointerTo(f.Type)
		str := f.Type.Kind() == reflect.String && !pt.Implements(marshalerType) && !pt.Implements(textMarshalerType)
		fs = append(fs, field{index: i, key: string(key) + ": ", omitEmpty: omitEmpty, str: str})
	}
	fieldCache.Store(t, fields{fs, ok})
	return fs, ok
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
