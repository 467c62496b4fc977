package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// TestKeywordSetFindsEveryKeyword: the rules walkKeywords marks for a text
// are those with a keyword that the text, in lower case, holds: every
// keyword alone, in any case, at a text's start, middle and end, cut
// short, overlapping others, and in every string of the fixture plans (planparse/testdata).
func TestKeywordSetFindsEveryKeyword(t *testing.T) {
	t.Parallel()
	d := getDetector()
	var keywords []string
	for _, r := range d.rules {
		keywords = append(keywords, r.keywords...)
	}
	texts := []string{"", "a", "ab"}
	for i, k := range keywords {
		next := keywords[(i+1)%len(keywords)]
		texts = append(texts, k, strings.ToUpper(k), "x"+k, k+"x", "xx"+k+"yy", k[:len(k)-1], k+next, k[:len(k)/2+1]+next, k+k)
	}
	files, _ := filepath.Glob("../../testdata/*.json")
	if len(files) == 0 {
		t.Fatal("no fixture plans in ../../testdata")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := jsonscan.Decode(data)
		if err != nil {
			continue
		}
		texts = appendStrings(texts, x)
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	hits := 0
	for _, text := range texts {
		walkKeywords(sc, text)
		lower := string(appendLower(nil, text)) // ASCII case only, as walkKeywords lowers
		for ri, r := range d.rules {
			want := false
			for _, k := range r.keywords {
				want = want || strings.Contains(lower, k)
			}
			if got := sc.hits[ri/64]&(1<<(ri%64)) != 0; got != want {
				t.Fatalf("text %.60q: rule %d (keywords %q) marked %v, want %v", text, ri, r.keywords, got, want)
			}
			if want {
				hits++
			}
		}
	}
	if hits < len(keywords)*5 {
		t.Errorf("only %d rule hits checked", hits)
	}
}

// appendStrings appends every string of a decoded JSON tree.
func appendStrings(out []string, x any) []string {
	switch t := x.(type) {
	case string:
		out = append(out, t)
	case map[string]any:
		for _, e := range t {
			out = appendStrings(out, e)
		}
	case []any:
		for _, e := range t {
			out = appendStrings(out, e)
		}
	}
	return out
}
