package planparse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lowerHolds reports whether strings.ToLower(s) holds one of words,
// lowering s a chunk at a time into one buffer (cut where no rune is:
// ToLower maps rune by rune, an invalid byte to U+FFFD) instead of into a
// copy of its size.
func lowerHolds(s string, words []string) bool {
	keep := 0
	for _, w := range words {
		keep = max(keep, len(w)-1)
	}
	var buf []byte
	for len(s) > 0 {
		cut := len(s)
		if cut > jsonChunk {
			cut = runeCut(s, jsonChunk)
		}
		// The last keep bytes lowered before, for a word across the cut.
		n := copy(buf, buf[max(0, len(buf)-keep):])
		buf = buf[:n]
		for i := 0; i < cut; {
			if c := s[i]; c < utf8.RuneSelf {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:cut])
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			i += size
		}
		for _, w := range words {
			if strings.Contains(view(buf), w) {
				return true
			}
		}
		s = s[cut:]
	}
	return false
}
