// Package jsontext writes JSON text as encoding/json writes it, into a
// buffer the caller keeps: the report writer's strings, and a hidden
// value's encoding digested a chunk at a time (planparse), without the
// encoder's own buffers.
package jsontext

import "unicode/utf8"

// AppendString appends src quoted as encoding/json writes it: its appendString's appendString with escapeHTML: control
// characters, quotes, backslashes, <, > and & escaped, invalid UTF-8 as
// U+FFFD, U+2028 and U+2029 escaped.
func AppendString(dst []byte, src string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		if b := src[i]; b < utf8.RuneSelf {
			if SafeByte[b] {
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

// SafeByte marks the ASCII bytes encoding/json writes as they are: the
// printable ones and DEL, but quotes, backslashes and the HTML characters.
var SafeByte = func() (t [256]bool) {
	for c := 0x20; c <= 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
