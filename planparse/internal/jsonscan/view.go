package jsonscan

// This file holds the scanner's and planparse's only uses of unsafe: views
// of a plan's bytes as strings and back, and where in memory a slice
// starts. Each saves a copy (or a search) per value on plans of hundreds
// of megabytes.

import "unsafe"

// View returns b as a string without copying it. Parse's strings that are
// views of its input (addresses, names, instance keys of changes and of
// prior_state and planned_values resources) are why Parse's caller must
// leave data unmodified, and readable, for as long as it uses the plan or
// anything read from it; a heap buffer stays alive as long as one of them
// does. Strings kept beyond a plan (planparse's memos) are copied.
func View(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bytes returns s as bytes without copying it: they must not be
// modified (s is a view of a plan, or any string).
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// SameSlice reports whether a and b are the same bytes of memory.
func SameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// Offset returns where in memory the bytes of sub start, counted from
// base's first byte: sub must be a slice of the same array as base, at or
// after it.
func Offset(sub, base []byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(base))))
}

// Addr is the address of b's first byte, as a number (a hash of where a
// slice is, for a cache keyed by the slice's identity).
func Addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
