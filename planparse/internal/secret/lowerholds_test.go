package secret

import (
	"strings"
	"testing"
)

// lowerHolds, which lowers a long string a chunk at a time, answers as
// strings.Contains(strings.ToLower(s), w) would: for a word across a
// chunk's cut, after runes whose lower case is shorter or longer, and
// after invalid bytes.
func TestLowerHoldsAnswersAsToLowerWould(t *testing.T) {
	pad := strings.Repeat("x", lowerChunk-3)
	words := []string{"example", "abcdefghijklmnopqrstuvwxyz"}
	tests := map[string]string{
		"a word across the cut":              pad + "EXAmple",
		"after a rune of another length":     strings.Repeat("ȺK", 100) + pad + "exAMPLE", // Ⱥ lowers to 3 bytes, the Kelvin sign to 1
		"after invalid bytes":                "\xff\xfe" + pad + "EXAMPLE",
		"a rune across the cut, then a word": pad[:len(pad)-1] + "İ" + "Example",
		"no word":                            pad + "EXAMPL" + pad + "E",
		"the alphabet, upper case, late":     strings.Repeat(pad, 3) + "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"short":                              "an Example",
	}
	for name, s := range tests {
		want := false
		for _, w := range words {
			want = want || strings.Contains(strings.ToLower(s), w)
		}
		if got := lowerHolds(s, words); got != want {
			t.Errorf("%s: lowerHolds = %v; strings.ToLower says %v", name, got, want)
		}
	}
}
