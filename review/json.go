package review

import (
	"bufio"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

// WriteJSON writes the report as indented JSON: the same bytes as
// json.MarshalIndent(r, "", "  ") and a newline, but written element by
// element, so a report of 20,000 changes is never held in memory whole.
func (r *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := stream(bw, reflect.ValueOf(r).Elem(), "", 0); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// maxDepth is how deep stream walks: report, projects, project, changes;
// each change (depth 4) is marshalled whole.
const maxDepth = 4

// stream writes v at the given indent prefix. Structs are written field by
// field and slices element by element down to maxDepth; anything deeper is
// marshalled whole.
func stream(w *bufio.Writer, v reflect.Value, prefix string, depth int) error {
	switch {
	case v.Kind() == reflect.Pointer && !v.IsNil() && depth < maxDepth:
		return stream(w, v.Elem(), prefix, depth)
	case v.Kind() == reflect.Struct && depth < maxDepth:
		w.WriteByte('{')
		first := true
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, omitEmpty, ok := jsonName(t.Field(i))
			if !ok || omitEmpty && v.Field(i).IsZero() {
				continue
			}
			if !first {
				w.WriteByte(',')
			}
			first = false
			w.WriteString("\n" + prefix + "  ")
			key, _ := json.Marshal(name)
			w.Write(key)
			w.WriteString(": ")
			if err := stream(w, v.Field(i), prefix+"  ", depth+1); err != nil {
				return err
			}
		}
		if !first {
			w.WriteString("\n" + prefix)
		}
		w.WriteByte('}')
		return nil
	case v.Kind() == reflect.Slice && !v.IsNil() && v.Len() > 0 && depth < maxDepth:
		w.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString("\n" + prefix + "  ")
			if err := stream(w, v.Index(i), prefix+"  ", depth+1); err != nil {
				return err
			}
		}
		w.WriteString("\n" + prefix + "]")
		return nil
	}
	b, err := json.MarshalIndent(v.Interface(), prefix, "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
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
