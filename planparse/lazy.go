package planparse

import (
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// The lazy reading of a Value: a node of a plan's bytes is resolved one
// step at a time, with the sanitizer's checks at every step, exactly as a
// full decode and sanitize would.

// lazy is an object or array of a plan not decoded yet, with the matching
// parts of its sensitivity and unknown trees (nil when both are empty), the
// attribute name it sits under and the sanitizer that reads it (shared by
// every node of a plan). The sanitizer's checks at its own level have been
// applied (resolve): none hides it.
type lazy struct {
	raw   []byte
	marks *marks
	key   string
	z     *sanitizer
}

// marks are a lazy node's parts of the sensitivity and unknown trees. Most
// nodes have none ({} or false, which read as nil does below an object or
// array): they share no record.
type marks struct{ sens, unk []byte }

func (n *lazy) sens() []byte {
	if n.marks == nil {
		return nil
	}
	return n.marks.sens
}

func (n *lazy) unk() []byte {
	if n.marks == nil {
		return nil
	}
	return n.marks.unk
}

// noMarks reports whether a sensitivity or unknown node marks nothing below
// an object or array: absent, false, {} or [].
func noMarks(b []byte) bool {
	if len(b) == 0 || isLiteral(b, "false") {
		return true
	}
	return (b[0] == '{' || b[0] == '[') && jsonscan.WS(b, 1) == len(b)-1
}

// resolve is sanitizer.sanitize's decision for one node, taken without
// decoding the node when it is an object or array that stays readable.
// Scalars go through sanitize itself.
func (z *sanitizer) resolve(raw, sens, unk []byte, key string) Value {
	var n lazy
	if v, ok := z.resolveInto(raw, sens, unk, key, &n); !ok {
		return v
	}
	heap := n
	return Value{n: &heap}
}

// resolveAt is resolve keeping a lazy node in *at (a change's own record).
func (z *sanitizer) resolveAt(raw, sens, unk []byte, key string, at *lazy) Value {
	if v, ok := z.resolveInto(raw, sens, unk, key, at); !ok {
		return v
	}
	return Value{n: at}
}

// resolveInto is resolve filling *into, and reporting true, when the node
// stays lazy: a walk down a path (Get) keeps its intermediate nodes off
// the heap.
func (z *sanitizer) resolveInto(raw, sens, unk []byte, key string, into *lazy) (Value, bool) {
	if isLiteral(sens, "true") {
		return Value{v: z.hide(decodeOrNil(raw))}, false
	}
	if isLiteral(unk, "true") {
		return Value{v: unknown{}}, false
	}
	if len(raw) == 0 || jsonscan.IsNull(raw, 0) {
		if len(unk) > 0 && unk[0] == '{' {
			// Unknown attributes of a null object: sanitize reads it as {}.
			return z.resolveInto([]byte("{}"), sens, unk, key, into)
		}
		return Value{}, false
	}
	if raw[0] == '{' || raw[0] == '[' {
		if key != "" && secret.Classify(key)&secret.NameSecret != 0 {
			return Value{v: z.hide(decodeOrNil(raw))}, false
		}
		*into = lazy{raw: raw, key: key, z: z}
		if !noMarks(sens) || !noMarks(unk) {
			into.marks = &marks{sens: sens, unk: unk}
		}
		return Value{}, true
	}
	return Value{v: z.scalar(raw, key)}, false
}

// scalar is sanitize's reading of the scalar raw under key (no marks: the
// sensitivity and unknown marks of a scalar are taken by resolveInto). A
// string without escapes that the plan's readers met twice before under
// the same key, shown, is answered from the plan's member cache (see
// memberCache.clean): what sanitize decides of a string depends on the
// string, the key and the plan's secrets only.
func (z *sanitizer) scalar(raw []byte, key string) any {
	if n, ok := smallCount(raw); ok {
		// sanitize's reading of a count (node_count = 3): no known
		// secret is as short (secret.MinLen), so only its key can hide it.
		if key != "" && secret.Classify(key)&secret.NameSecret != 0 {
			return z.hide(smallCounts[n])
		}
		return smallCounts[n]
	}
	c := z.members
	if c == nil || z.redactKey != nil || len(raw) < minCleanLen+2 || raw[0] != '"' {
		return z.sanitize(scalarAt(raw), nil, nil, key)
	}
	end, slow, err := jsonscan.String(raw, 0)
	if err != nil || slow || end != len(raw) {
		return z.sanitize(decodeOrNil(raw), nil, nil, key)
	}
	s := jsonscan.View(raw[1 : end-1])
	var buf [maxCleanKey]byte
	k, ok := cleanKey(buf[:0], key, s)
	if !ok {
		return z.sanitize(s, nil, nil, key)
	}
	if x, ok := c.clean.Get(jsonscan.View(k)); ok {
		return x
	}
	x := z.sanitize(s, nil, nil, key)
	if _, shown := x.(string); shown && c.seenBefore(k) {
		// The memo keeps a copy (s may be a view of pages the CLI gives
		// back), boxed once: a hit costs no allocation.
		c.clean.Put(jsonscan.View(k), any(strings.Clone(s)))
	}
	return x
}

// smallCounts are the numbers 0 to 255 as a decode gives them (float64),
// boxed once: reading a count costs no allocation.
var smallCounts = func() (t [256]any) {
	for i := range t {
		t[i] = float64(i)
	}
	return t
}()

// smallCount reads raw when it is a whole number below 256 written
// without a sign in fewer than secret.MinLen digits (as Terraform writes a
// count): its text is as a decode formats it, too short to be a secret.
func smallCount(raw []byte) (int, bool) {
	if len(raw) == 0 || len(raw) >= secret.MinLen {
		return 0, false
	}
	n := 0
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n >= len(smallCounts) {
		return 0, false
	}
	return n, true
}

// scalarAt is decodeOrNil for a scalar, reading a string without escapes
// as a view of the plan's bytes (see view) instead of a copy.
func scalarAt(raw []byte) any {
	if len(raw) >= 2 && raw[0] == '"' {
		if end, slow, err := jsonscan.String(raw, 0); err == nil && !slow && end == len(raw) {
			return jsonscan.View(raw[1 : end-1])
		}
	}
	return decodeOrNil(raw)
}

func isLiteral(raw []byte, word string) bool { return string(raw) == word }

// decodeOrNil decodes validated JSON; a number beyond float64 reads as null.
func decodeOrNil(raw []byte) any {
	if len(raw) == 0 {
		return nil
	}
	x, err := jsonscan.Decode(raw)
	if err != nil {
		return nil
	}
	return x
}

// child is the sanitized value one step below a lazy node, as sanitize
// builds it: a secret key is shown renamed (keyText), the "value" of a
// {name, value} pair is judged by the pair's name, and unknown attributes
// absent from the object read as unknown. When the child is itself a lazy
// node it fills *into and reports true.
func (n *lazy) child(step any, into *lazy) (Value, bool) {
	switch s := step.(type) {
	case string:
		if n.raw[0] != '{' {
			return Value{}, false
		}
		if n.z.members.secretStep(n.z, s) {
			return Value{}, false // sanitize renames a secret key: it is not there by name
		}
		raw, found := n.z.members.lookup(n.raw, s)
		return n.member(s, raw, found, into)
	case int:
		if n.raw[0] != '[' || s < 0 {
			return Value{}, false
		}
		raw, found := jsonscan.Nth(n.raw, s)
		if !found {
			return Value{}, false
		}
		sens, _ := jsonscan.Nth(n.sens(), s)
		unk, _ := jsonscan.Nth(n.unk(), s)
		// Elements of a list inherit the list's name for the secret check.
		return n.z.resolveInto(raw, sens, unk, n.key, into)
	}
	return Value{}, false
}

// member is child's step to the member s of the object n (not a secret
// key), whose value in n's bytes is raw when found.
func (n *lazy) member(s string, raw []byte, found bool, into *lazy) (Value, bool) {
	key := s
	if !found && secret.IsRedacted(s) {
		key, raw, found = n.renamed(s)
	}
	unk, _ := n.z.members.lookup(n.unk(), key)
	if !found {
		// Unknown attributes are absent from "after"; sanitize adds
		// them when reviewing.
		if isLiteral(unk, "true") && n.z.redactKey == nil {
			return Value{v: unknown{}}, false
		}
		return Value{}, false
	}
	sens, _ := n.z.members.lookup(n.sens(), key)
	name := key
	if key == "value" {
		if pair, ok := n.z.members.lookup(n.raw, "name"); ok && len(pair) > 0 && pair[0] == '"' {
			pairValue := ""
			if len(raw) > 0 && raw[0] == '"' {
				pairValue = jsonscan.StringAt(raw)
			}
			if pn := jsonscan.StringAt(pair); pn != "" && secret.NameSays(pn, pairValue) {
				name = pn
			}
		}
	}
	return n.z.resolveInto(raw, sens, unk, name, into)
}

// maxFields is the most keys Fields reads in one walk.
const maxFields = 32

// renamed finds the secret key that sanitize shows as text: a key of the
// object, or an unknown attribute it adds.
func (n *lazy) renamed(text string) (string, []byte, bool) {
	var key string
	var out []byte
	visit := func(obj []byte, unknownOnly bool) {
		_, _ = jsonscan.EachMember(obj, 0, 0, func(k []byte, escaped bool, v int) (int, error) {
			end, err := jsonscan.SkipValid(obj, v)
			ks := jsonscan.Unquote(k, escaped)
			if err == nil && out == nil && n.z.secretKey(ks) && n.z.keyText(ks) == text {
				if !unknownOnly {
					key, out = ks, obj[v:end:end]
				} else if _, inRaw := jsonscan.Lookup(n.raw, ks); !inRaw && isLiteral(obj[v:end], "true") {
					key = ks // found only in the unknown tree: child reads it as unknown
				}
			}
			return end, err
		})
	}
	visit(n.raw, false)
	if unk := n.unk(); out == nil && len(unk) > 0 && unk[0] == '{' && n.z.redactKey == nil {
		visit(unk, true)
	}
	return key, out, out != nil
}
