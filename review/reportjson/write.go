// Package reportjson writes the JSON report (`planwarden review --format
// json`): the bytes encoding/json would write for a review.Report, written
// as they are made, without reflection on the change rows that are most of
// a large report, and a long list's elements on two goroutines.
package reportjson

import (
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/review"
)

// Write writes the report as indented JSON: the same bytes as
// json.MarshalIndent(r, "", "  ") and a newline, but written field by
// field straight to w, so a report of 20,000 changes is never held in
// memory whole and costs no reflection-heavy marshalling per change. A
// write error of w is returned, and nothing is written after it.
func Write(w io.Writer, r *review.Report) error { return write(w, r, par.Policy{}) }

// write is Write with pol deciding which lists are encoded on two
// goroutines, and how many elements a goroutine takes at a time.
func write(w io.Writer, r *review.Report, pol par.Policy) error {
	e := &encoder{w: w, out: make([]byte, 0, flushAt+4<<10), marshals: map[reflect.Type]marshaling{}, pol: pol}
	if err := e.value(reflect.ValueOf(r), ""); err != nil {
		return err
	}
	e.out = append(e.out, '\n')
	e.flush()
	return e.err
}

// flushAt is how much the encoder gathers before it writes to w.
const flushAt = 60 << 10

type encoder struct {
	w   io.Writer
	pol par.Policy // which lists go on two goroutines
	out []byte     // written to w whenever it passes flushAt
	err error      // the first error w returned: nothing is written after it
	// marshals remembers, per type, whether it marshals itself (asked
	// through reflect once per type, not once per value).
	marshals map[reflect.Type]marshaling
	// record makes wrote note where the encoder would have flushed (in
	// points, offsets into out) rather than flush: the second goroutine
	// of listConcurrently has no writer.
	record bool
	points []int
	// safe holds the last long strings str found safe, which it then
	// writes without testing them again (a remedy is the same string in
	// thousands of findings); holding them keeps their memory from being
	// reused by another string while they are compared by address.
	safe     [4]string
	nextSafe int
}

// safeString is htmlSafe(s), without testing again one of the long
// strings found safe last (the same bytes: the same address and length);
// a long string found safe is remembered.
func (e *encoder) safeString(s string) bool {
	if len(s) < 64 {
		return htmlSafe(s)
	}
	for _, k := range e.safe {
		if len(k) == len(s) && unsafe.StringData(k) == unsafe.StringData(s) {
			return true
		}
	}
	if !htmlSafe(s) {
		return false
	}
	e.safe[e.nextSafe] = s
	e.nextSafe = (e.nextSafe + 1) % len(e.safe)
	return true
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

// flush writes what the encoder gathered.
func (e *encoder) flush() {
	if e.err == nil && len(e.out) > 0 {
		_, e.err = e.w.Write(e.out)
	}
	e.out = e.out[:0]
}

// wrote flushes when enough is gathered; it is called after each element
// of a list.
func (e *encoder) wrote() {
	if e.record {
		e.points = append(e.points, len(e.out))
		return
	}
	if len(e.out) >= flushAt {
		e.flush()
	}
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
	if t == changeType && !v.IsNil() && changeRowsFast() {
		if c := v.Interface().(*review.Change); finite(c.HourlyBefore(), c.HourlyAfter(), c.ListHourlyBefore(), c.ListHourlyAfter()) {
			e.writeChange(c, prefix)
			return nil
		}
	}
	if m := e.marshaling(t); m.self || v.CanAddr() && m.viaPointer {
		return e.marshal(v, prefix)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			e.string("null")
			return nil
		}
		return e.value(v.Elem(), prefix)
	case reflect.Struct:
		fields, ok := fieldsOf(t)
		if !ok {
			return e.marshal(v, prefix)
		}
		e.byte('{')
		first, inner := true, deeper(prefix)
		for _, f := range fields {
			fv := v.Field(f.index)
			if f.str { // most fields: written here, without asking the type again
				s := fv.String()
				if f.omitEmpty && s == "" {
					continue
				}
				e.member(&first, inner, f.key)
				e.str(s)
				continue
			}
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			e.member(&first, inner, f.key)
			if err := e.value(fv, inner); err != nil {
				return err
			}
		}
		if !first {
			e.newline(prefix)
		}
		e.byte('}')
		return nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return e.marshal(v, prefix)
		}
		if v.IsNil() {
			e.string("null")
			return nil
		}
		if v.Len() == 0 {
			e.string("[]")
			return nil
		}
		e.byte('[')
		inner := deeper(prefix)
		if e.pol.Split(par.Elements, v.Len()) {
			if err := e.listConcurrently(v, inner); err != nil {
				return err
			}
		} else if err := e.elements(v, 0, v.Len(), inner); err != nil {
			return err
		}
		e.newline(prefix)
		e.byte(']')
		return nil
	case reflect.String:
		e.str(v.String())
		return nil
	case reflect.Bool:
		e.string(strconv.FormatBool(v.Bool()))
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.out = strconv.AppendInt(e.out, v.Int(), 10)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.out = strconv.AppendUint(e.out, v.Uint(), 10)
		return nil
	case reflect.Float64:
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return e.marshal(v, prefix) // encoding/json's error
		}
		e.float(f)
		return nil
	}
	return e.marshal(v, prefix)
}

// elements writes the list's elements from..to-1, each after its comma
// and newline, flushing when enough is gathered after each.
func (e *encoder) elements(v reflect.Value, from, to int, inner string) error {
	for i := from; i < to; i++ {
		if i > 0 {
			e.byte(',')
		}
		e.newline(inner)
		if err := e.value(v.Index(i), inner); err != nil {
			return err
		}
		e.wrote()
	}
	return nil
}
