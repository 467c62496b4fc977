package planparse

import "bytes"

// Same reports whether v and o are one value read the same way: the same
// object or array bytes of one plan under the same sensitivity and unknown
// marks, as a no-op change's before and after usually are. Whatever is read
// from one then reads the same from the other, so a caller may read one
// and use it for both. It compares bytes and decodes nothing; false says
// only that they may differ (scalars and values not read from a plan's
// bytes are never Same).
func (v Value) Same(o Value) bool {
	a, b := v.n, o.n
	if a == nil || b == nil {
		return false
	}
	return a.z == b.z && a.key == b.key && bytes.Equal(a.raw, b.raw) &&
		sameMarks(a.sens(), b.sens()) && sameMarks(a.unk(), b.unk())
}

// sameMarks reports whether two sensitivity or unknown nodes mark the same:
// the same bytes, or nothing both (absent, false, {} or []).
func sameMarks(a, b []byte) bool {
	return bytes.Equal(a, b) || noMarks(a) && noMarks(b)
}
