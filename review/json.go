package review

import (
	"bufio"
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// WriteJSON writes the report as indented JSON: the same bytes as
// json.MarshalIndent(r, "", "  ") and a newline, but written field by
// field straight to w, so a report of 20,000 changes is never held in
// memory whole and costs no reflection-heavy marshalling per change.
func (r *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	e := &encoder{w: bw, marshals: map[reflect.Type]marshaling{}}
	if err := e.value(reflect.ValueOf(r), ""); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

type encoder struct {
	w   *bufio.Writer
	buf []byte
	// marshals remembers, per type, whether it marshals itself (asked
	// through reflect once per type, not once per value).
	marshals map[reflect.Type]marshaling
}

// marshaling says whether a type, or a pointer to it, implements
// json.Marshaler or encoding.TextMarshaler.
type marshaling struct{ self, viaPointer bool }

func (e *encoder) marshaling(t reflect.Type) marshaling {
	m, ok := e.marshals[t]
	if !ok {
		pt := reflect.PointerTo(t)
		m = marshaling{
			self:       t.Implements(marshalerType) || t.Implements(textMarshalerType),
			viaPointer: pt.Implements(marshalerType) || pt.Implements(textMarshalerType),
		}
		e.marshals[t] = m
	}
	return m
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// value writes v at the given indent prefix. Structs, slices, pointers,
// strings, booleans, integers and float64s are written here, as
// encoding/json writes them; anything else (maps, interfaces, types with
// their own marshalling) goes through json.MarshalIndent.
func (e *encoder) value(v reflect.Value, prefix string) error {
	t := v.Type()
	if m := e.marshaling(t); m.self || v.CanAddr() && m.viaPointer {
		return e.marshal(v, prefix)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			e.w.WriteString("null")
			return nil
		}
		return e.value(v.Elem(), prefix)
	case reflect.Struct:
		fields, ok := fieldsOf(t)
		if !ok {
			return e.marshal(v, prefix)
		}
		e.w.WriteByte('{')
		first, inner := true, deeper(prefix)
		for _, f := range fields {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			if !first {
				e.w.WriteByte(',')
			}
			first = false
			e.newline(inner)
			e.w.WriteString(f.key)
			if err := e.value(fv, inner); err != nil {
				return err
			}
		}
		if !first {
			e.newline(prefix)
		}
		e.w.WriteByte('}')
		return nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return e.marshal(v, prefix)
		}
		if v.IsNil() {
			e.w.WriteString("null")
			return nil
		}
		if v.Len() == 0 {
			e.w.WriteString("[]")
			return nil
		}
		e.w.WriteByte('[')
		inner := deeper(prefix)
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				e.w.WriteByte(',')
			}
			e.newline(inner)
			if err := e.value(v.Index(i), inner); err != nil {
				return err
			}
		}
		e.newline(prefix)
		e.w.WriteByte(']')
		return nil
	case reflect.String:
		s := v.String()
		if !htmlSafe(s) {
			return e.marshal(v, prefix)
		}
		e.w.WriteByte('"')
		e.w.WriteString(s)
		e.w.WriteByte('"')
		return nil
	case reflect.Bool:
		e.w.WriteString(strconv.FormatBool(v.Bool()))
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf[:0], v.Int(), 10)
		e.w.Write(e.buf)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = strconv.AppendUint(e.buf[:0], v.Uint(), 10)
		e.w.Write(e.buf)
		return nil
	case reflect.Float64:
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return e.marshal(v, prefix) // encoding/json's error
		}
		// encoding/json's (ES6) format: exponents only outside [1e-6, 1e21).
		format := byte('f')
		if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			format = 'e'
		}
		b := strconv.AppendFloat(e.buf[:0], f, format, -1, 64)
		if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		e.buf = b
		e.w.Write(b)
		return nil
	}
	return e.marshal(v, prefix)
}

// deeper is the indent one level below prefix (indents are spaces only),
// cut from a constant where it fits, so indenting allocates nothing.
func deeper(prefix string) string {
	const spaces = "                                                                "
	if n := len(prefix) + 2; n <= len(spaces) {
		return spaces[:n]
	}
	return prefix + "  "
}

func (e *encoder) newline(prefix string) {
	e.w.WriteByte('\n')
	e.w.WriteString(prefix)
}

func (e *encoder) marshal(v reflect.Value, prefix string) error {
	b, err := json.MarshalIndent(v.Interface(), prefix, "  ")
	if err != nil {
		return err
	}
	_, err = e.w.Write(b)
	return err
}

// htmlSafe reports whether encoding/json writes s as it is: printable
// ASCII without quotes, backslashes or the HTML characters it escapes.
func htmlSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// field is one encoded struct field: its index, its key written as
// `"name": ` and whether it has omitempty.
type field struct {
	index     int
	key       string
	omitEmpty bool
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
		fs = append(fs, field{index: i, key: string(key) + ": ", omitEmpty: omitEmpty})
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
