package review

import (
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// WriteJSON writes the report as indented JSON: the same bytes as
// json.MarshalIndent(r, "", "  ") and a newline, but written field by
// field straight to w, so a report of 20,000 changes is never held in
// memory whole and costs no reflection-heavy marshalling per change.
func (r *Report) WriteJSON(w io.Writer) error {
	e := &encoder{w: w, out: make([]byte, 0, flushAt+4<<10), marshals: map[reflect.Type]marshaling{}}
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
	out []byte // written to w whenever it passes flushAt
	err error  // the first error w returned: nothing is written after it
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
		if c := v.Interface().(*Change); finite(c.HourlyBefore(), c.HourlyAfter(), c.ListHourlyBefore(), c.ListHourlyAfter()) {
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
		if v.Len() >= parallelList && runtime.GOMAXPROCS(0) > 1 {
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

// parallelList is the length from which a list (a large plan's change
// rows and findings) is encoded on two goroutines; shorter lists are not
// worth the second one. Tests lower it.
var parallelList = 40_000

// listChunk is how many elements a goroutine of listConcurrently encodes
// at a time (tests lower it).
var listChunk = 256

// chunk is what the second goroutine of listConcurrently encoded: the
// bytes of some elements, the offsets at which elements would have
// flushed (after each element, and after each element of a list inside
// one), and the error of the element after the last one (nil when every
// element was written).
type chunk struct {
	out      []byte
	points   []int
	err      error
	panicked any // what the encoding of the element after the last point panicked with
}

// listConcurrently writes the elements of a long list as elements does,
// on two goroutines that take the chunks of listChunk elements in turn,
// whichever comes first: a second one encodes the chunks it takes into
// buffers it hands over in order, while this one encodes the chunks it
// takes and, between them, appends the second one's bytes up to each
// point where elements would have flushed, flushing there as elements
// does (this one also copies, so it takes fewer). So the writes to w
// are the serial ones, byte for byte and cut at the same places, even
// when an element cannot be encoded (what was written before its error is
// written, and the error returned).
func (e *encoder) listConcurrently(v reflect.Value, inner string) error {
	n := v.Len()
	chunks := (n + listChunk - 1) / listChunk
	var next atomic.Int64 // the first chunk neither goroutine took
	ready := make(chan *chunk, 2)
	free := make(chan *chunk, 4)
	stop, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		o := &encoder{marshals: map[reflect.Type]marshaling{}, record: true}
		defer func() {
			// An element whose encoding panics panics in WriteJSON's
			// caller when its turn comes, after what would have been
			// written before it, as on one goroutine.
			if p := recover(); p != nil {
				select {
				case ready <- &chunk{out: o.out, points: o.points, panicked: p}:
				case <-stop:
				}
			}
		}()
		for {
			k := int(next.Add(1)) - 1
			if k >= chunks {
				return
			}
			var c *chunk
			select {
			case c = <-free:
			default:
				c = &chunk{out: make([]byte, 0, flushAt+4<<10)}
			}
			o.out, o.points, c.err = c.out[:0], c.points[:0], nil
			for i := k * listChunk; i < min(n, (k+1)*listChunk); i++ {
				if i > 0 {
					o.byte(',')
				}
				o.newline(inner)
				if c.err = o.value(v.Index(i), inner); c.err != nil {
					break
				}
				o.wrote()
			}
			c.out, c.points = o.out, o.points
			select {
			case ready <- c:
			case <-stop:
				return
			}
			if c.err != nil {
				return
			}
		}
	}()
	defer func() { close(stop); <-exited }()
	for k := 0; k < chunks; k++ {
		if next.CompareAndSwap(int64(k), int64(k+1)) {
			if err := e.elements(v, k*listChunk, min(n, (k+1)*listChunk), inner); err != nil {
				return err
			}
			continue
		}
		c := <-ready
		start := 0
		for _, end := range c.points {
			e.out = append(e.out, c.out[start:end]...)
			start = end
			e.wrote()
		}
		if c.panicked != nil {
			panic(c.panicked)
		}
		if c.err != nil {
			return c.err
		}
		select {
		case free <- c:
		default:
		}
	}
	return nil
}

// float writes a finite float64 in encoding/json's (ES6) format:
// exponents only outside [1e-6, 1e21).
func (e *encoder) float(f float64) {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.out, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	e.out = b
}

// str writes s quoted as encoding/json does, HTML characters escaped.
func (e *encoder) str(s string) {
	if e.safeString(s) {
		e.byte('"')
		e.string(s)
		e.byte('"')
		return
	}
	e.out = appendString(e.out, s)
}

// appendString is encoding/json's appendString with escapeHTML: control
// characters, quotes, backslashes, <, > and & escaped, invalid UTF-8 as
// U+FFFD, U+2028 and U+2029 escaped.
func appendString(dst []byte, src string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		if b := src[i]; b < utf8.RuneSelf {
			if safeByte[b] {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(src[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, src[start:]...)
	return append(dst, '"')
}

// safeByte marks the ASCII bytes encoding/json writes as they are: the
// printable ones and DEL, but quotes, backslashes and the HTML characters.
var safeByte = func() (t [256]bool) {
	for c := 0x20; c <= 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// deeper is the indent one level below prefix (indents are spaces only),
// cut from a constant where it fits, so indenting allocates nothing.
func deeper(prefix string) string {
	const spaces = "                                                                "
	if n := len(prefix) + 2; n <= len(spaces) {
		return spaces[:n]
	}
	return prefix + "  "
}

func (e *encoder) byte(c byte)     { e.out = append(e.out, c) }
func (e *encoder) string(s string) { e.out = append(e.out, s...) }

// member starts an object's member: the comma after the one before (none
// before the first), the member's line and its key (already quoted).
func (e *encoder) member(first *bool, prefix, key string) {
	if !*first {
		e.byte(',')
	}
	*first = false
	e.newline(prefix)
	e.string(key)
}

func (e *encoder) newline(prefix string) {
	e.byte('\n')
	e.string(prefix)
}

func (e *encoder) marshal(v reflect.Value, prefix string) error {
	b, err := json.MarshalIndent(v.Interface(), prefix, "  ")
	if err != nil {
		return err
	}
	e.out = append(e.out, b...)
	return nil
}

// htmlSafe reports whether encoding/json writes s as it is: printable
// ASCII without quotes, backslashes or the HTML characters it escapes.
// It tests eight bytes at a time (SWAR: a byte below 0x20, a byte with the
// high bit, or one of the five characters safeByte refuses sets a high bit
// in bad), then the tail byte by byte.
func htmlSafe(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		b := s[i : i+8]
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		// x is w with a zero byte where w has the character.
		quote, backslash := w^('"'*ones), w^('\\'*ones)
		lt, gt, amp := w^('<'*ones), w^('>'*ones), w^('&'*ones)
		bad := w | (w - 0x20*ones) | // non-ASCII, or below 0x20
			(quote-ones)&^quote | (backslash-ones)&^backslash |
			(lt-ones)&^lt | (gt-ones)&^gt | (amp-ones)&^amp
		if bad&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !safeByte[s[i]] {
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

// changeKeys are the fields writeChange writes, in ChangeRow's order, with
// omitempty marked by a trailing ",". Change rows are most of a large
// report, so they are written without reflection; when ChangeRow's fields
// no longer match this list, rows go through Change.MarshalJSON like
// everything else (and TestChangeRowsMatchReflection fails, to have the
// list updated).
var changeKeys = []string{
	"address", "type", "mode", "action", "replace_order,", "previous_address", "importing",
	"replace_paths", "reason", "deferred_reason,", "triggers_actions,", "sku_before", "sku_after",
	"hourly_before", "hourly_after", "price_basis,", "price_region,", "list_hourly_before",
	"list_hourly_after", "price_note,", "capacity,", "deposed,", "count_before,", "count_after,", "diff_digest,", "known_diff_digest,", "unknown_paths,", "provider_upgrades,",
}

var changeType = reflect.TypeFor[*Change]()

// changeRowsFast reports whether writeChange knows every field of ChangeRow.
var changeRowsFast = sync.OnceValue(func() bool {
	t := reflect.TypeFor[ChangeRow]()
	fs, ok := fieldsOf(t)
	if m := (&encoder{marshals: map[reflect.Type]marshaling{}}).marshaling(t); !ok || len(fs) != len(changeKeys) || m.self || m.viaPointer {
		return false
	}
	for i, f := range fs {
		name, omit := strings.CutSuffix(changeKeys[i], ",")
		key, _ := json.Marshal(name)
		if f.key != string(key)+": " || f.omitEmpty != omit {
			return false
		}
	}
	return true
})

// finite reports whether every figure is nil or finite (encoding/json
// refuses the others: the reflection path returns its error).
func finite(figures ...*float64) bool {
	for _, f := range figures {
		if f != nil && (math.IsInf(*f, 0) || math.IsNaN(*f)) {
			return false
		}
	}
	return true
}

// writeChange writes one change row as the reflection path would.
func (e *encoder) writeChange(c *Change, prefix string) {
	inner := deeper(prefix)
	first := true
	key := func(k string) {
		if !first {
			e.byte(',')
		}
		first = false
		e.newline(inner)
		e.string(k)
	}
	str := func(k, s string) { key(k); e.str(s) }
	opt := func(k, s string) {
		if s != "" {
			str(k, s)
		}
	}
	num := func(k string, f *float64) {
		key(k)
		if f == nil {
			e.string("null")
			return
		}
		e.float(*f)
	}
	list := func(l []string) {
		if l == nil {
			e.string("null")
			return
		}
		if len(l) == 0 {
			e.string("[]")
			return
		}
		e.byte('[')
		in := deeper(inner)
		for i, s := range l {
			if i > 0 {
				e.byte(',')
			}
			e.newline(in)
			e.str(s)
		}
		e.newline(inner)
		e.byte(']')
	}
	e.byte('{')
	str(`"address": `, c.Address())
	str(`"type": `, c.Type())
	str(`"mode": `, c.Mode())
	str(`"action": `, c.Action())
	opt(`"replace_order": `, c.ReplaceOrder())
	str(`"previous_address": `, c.PreviousAddress())
	key(`"importing": `)
	e.string(strconv.FormatBool(c.Importing()))
	key(`"replace_paths": `)
	list(c.ReplacePaths())
	str(`"reason": `, c.Reason())
	opt(`"deferred_reason": `, c.DeferredReason)
	if len(c.TriggersActions) > 0 {
		key(`"triggers_actions": `)
		list(c.TriggersActions)
	}
	str(`"sku_before": `, c.SKUBefore())
	str(`"sku_after": `, c.SKUAfter())
	num(`"hourly_before": `, c.HourlyBefore())
	num(`"hourly_after": `, c.HourlyAfter())
	opt(`"price_basis": `, c.PriceBasis())
	opt(`"price_region": `, c.PriceRegion())
	num(`"list_hourly_before": `, c.ListHourlyBefore())
	num(`"list_hourly_after": `, c.ListHourlyAfter())
	opt(`"price_note": `, c.PriceNote())
	opt(`"capacity": `, c.Capacity())
	e.writeVerify(c, key, opt, list)
	e.newline(prefix)
	e.byte('}')
}
