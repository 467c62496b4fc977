package planparse

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A change's attribute diff: Diff and the walk that makes it.

// Diff returns the attribute-level differences of the change, sorted by
// path. Leaves are compared; a list or map that appears or disappears is
// one entry. Sensitive values stay redacted: a changed secret shows as a
// change from SensitiveText to SensitiveText. Each call decodes the
// change's values afresh (the attributes that differ; diff_members.go);
// nothing is kept.
func (c *Change) Diff() []AttrDiff {
	if c.whatIf != nil {
		return c.whatIf.attrDiffs() // whatif.go: ARM's delta
	}
	var out []AttrDiff
	if !diffMembers(c.before, c.after, &out) { // diff_members.go
		diffWalk(make([]byte, 0, 64), c.before.tree(), c.after.tree(), &out)
	}
	return c.sorted(out)
}

// diffWhole is Diff decoding both sides whole (diffMembers' reference).
func (c *Change) diffWhole() []AttrDiff {
	var out []AttrDiff
	diffWalk(nil, c.before.tree(), c.after.tree(), &out)
	return c.sorted(out)
}

// sorted marks the entries that force the replacement and sorts them by path.
func (c *Change) sorted(out []AttrDiff) []AttrDiff {
	for i := range out {
		out[i].ForcesReplacement = c.forces(out[i].Path)
	}
	slices.SortFunc(out, func(a, b AttrDiff) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func (c *Change) forces(path string) bool {
	for _, rp := range c.ReplacePaths {
		if path == rp || strings.HasPrefix(path, rp+".") || strings.HasPrefix(path, rp+"[") {
			return true
		}
	}
	return false
}

// diffWalk appends the leaf differences under path, the rendered path
// (pathString's form). path is one buffer shared down the walk (children
// append their step to it, siblings overwrite it): a leaf copies it at
// once, so nothing keeps it, and a step costs no allocation.
func diffWalk(path []byte, a, b any, out *[]AttrDiff) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		// The keys of both, each once (the entries are sorted after).
		var small [16]string
		keys := small[:0]
		for k := range am {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			diffWalk(appendKey(path, k), am[k], bm[k], out)
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList && bIsList {
		n := max(len(al), len(bl))
		for i := 0; i < n; i++ {
			var x, y any
			if i < len(al) {
				x = al[i]
			}
			if i < len(bl) {
				y = bl[i]
			}
			diffWalk(appendIndex(path, i), x, y, out)
		}
		return
	}
	if aIsMap && b == nil {
		for _, k := range sortedKeys(am) {
			diffWalk(appendKey(path, k), am[k], nil, out)
		}
		return
	}
	if bIsMap && a == nil {
		for _, k := range sortedKeys(bm) {
			diffWalk(appendKey(path, k), nil, bm[k], out)
		}
		return
	}
	_, as := a.(sensitive)
	_, bs := b.(sensitive)
	_, bu := b.(unknown)
	if equal(a, b) {
		return
	}
	if isEmpty(a) && isEmpty(b) {
		return
	}
	*out = append(*out, AttrDiff{
		Path: string(path), Before: Value{v: a}, After: Value{v: b},
		Unknown: bu, Sensitive: as || bs,
	})
}

func isEmpty(x any) bool {
	switch t := x.(type) {
	case nil:
		return true
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// appendKey appends the map key k to a rendered path, as pathString
// renders it.
func appendKey(path []byte, k string) []byte {
	if isIdent(k) {
		if len(path) > 0 {
			path = append(path, '.')
		}
		return append(path, k...)
	}
	q, _ := json.Marshal(k)
	path = append(path, '[')
	path = append(path, q...)
	return append(path, ']')
}

// appendIndex appends the list index i to a rendered path.
func appendIndex(path []byte, i int) []byte {
	path = append(path, '[')
	path = strconv.AppendInt(path, int64(i), 10)
	return append(path, ']')
}
