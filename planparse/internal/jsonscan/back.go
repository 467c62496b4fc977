package jsonscan

import (
	"bytes"
	"encoding/binary"
)

// LastMember finds the last member named key (its literal's bytes, as
// planparse compares them) of the top-level object of data, walking its
// members back from the end, and returns the offset of its value as
// EachMember gives it. The walk trusts the bytes to be valid JSON; on bytes
// that are not, the offset it gives may be anything, which is why a
// reader uses it only when its own pass meets the member at that offset.
func LastMember(data []byte, key string) (int, bool) {
	i := lastByte(data, len(data)) // the object's '}', then each ','
	if i < 0 || data[i] != '}' {
		return 0, false
	}
	for {
		ve := lastByte(data, i) // the last byte of the member's value
		if ve < 0 || data[ve] == '{' {
			return 0, false // the object's start: no (more) members
		}
		vs := valueStart(data, ve)
		colon := lastByte(data, max(vs, 0))
		if vs < 0 || colon < 0 || data[colon] != ':' {
			return 0, false
		}
		ke := lastByte(data, colon)
		if ke < 0 || data[ke] != '"' {
			return 0, false
		}
		ks := stringStart(data, ke)
		if ks < 0 {
			return 0, false
		}
		if string(data[ks+1:ke]) == key {
			return WS(data, colon+1), true
		}
		if i = lastByte(data, ks); i < 0 || data[i] != ',' {
			return 0, false
		}
	}
}

// lastByte returns the offset of the last byte before i that is not white
// space, or -1.
func lastByte(data []byte, i int) int {
	for i--; i >= 0; i-- {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}

// valueStart returns the offset of the first byte of the value whose last
// byte is data[e], or -1.
func valueStart(data []byte, e int) int {
	switch data[e] {
	case '"':
		return stringStart(data, e)
	case '}', ']':
		depth := 0
		for i := e; i >= 0; i-- {
			// Eight bytes at a time past those that are no quote or bracket.
			for i >= 8 && !structural8(binary.LittleEndian.Uint64(data[i-7:])) {
				i -= 8
			}
			switch data[i] {
			case '"':
				if i = stringStart(data, i); i < 0 {
					return -1
				}
			case '}', ']':
				depth++
			case '{', '[':
				if depth--; depth == 0 {
					return i
				}
			}
		}
		return -1
	}
	i := e // a number or a literal
	for i > 0 {
		switch data[i-1] {
		case ',', ':', '[', '{', ' ', '\t', '\n', '\r':
			return i
		}
		i--
	}
	return i
}

// stringStart returns the offset of the opening quote of the string whose
// closing quote is data[e], or -1: the first quote before it that no odd
// run of backslashes escapes.
func stringStart(data []byte, e int) int {
	for i := e; ; {
		i = bytes.LastIndexByte(data[:i], '"')
		if i < 0 {
			return -1
		}
		k := i
		for k > 0 && data[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i
		}
	}
}
