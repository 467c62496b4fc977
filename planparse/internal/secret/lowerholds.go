package secret

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// lowerChunk is how much of a string lowerHolds lowers at a time.
const lowerChunk = 64 << 10

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
		if cut > lowerChunk {
			cut = RuneCut(s, lowerChunk)
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
			if strings.Contains(jsonscan.View(buf), w) {
				return true
			}
		}
		s = s[cut:]
	}
	return false
}

// RuneCut moves c (0 < c <= len(s)) out of the valid rune of s it falls
// inside, if any: back to the rune's start, or past its end when it
// starts s. Every byte that starts a rune is where a decode from the
// start of s stops (a valid rune holds none; an invalid byte is one
// step), so the rune it starts is the one the whole string decodes.
func RuneCut(s string, c int) int {
	for p := c - 1; p >= 0 && p > c-utf8.UTFMax; p-- {
		if utf8.RuneStart(s[p]) {
			if _, size := utf8.DecodeRuneInString(s[p:]); p+size > c {
				if p > 0 {
					return p
				}
				return size
			}
			return c
		}
	}
	return c
}
