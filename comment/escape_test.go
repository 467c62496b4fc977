package comment

import (
	"bytes"
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/planwarden/planwarden/planparse"
)

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

var tagRE = regexp.MustCompile(`<[^>]*>`)

// rendered is the visible text of markdown as goldmark renders it.
func rendered(t testing.TB, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(b.String(), "")))
}

// htmlOf is goldmark's HTML for md.
func htmlOf(t testing.TB, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var hostileInputs = map[string]string{
	"backticks":        "a `b` ``c`` ```d",
	"leading backtick": "`x",
	"only backticks":   "```",
	"spaces around":    " padded ",
	"pipes":            "a|b||c",
	"escaped pipe":     `a\|b\\|c`,
	"mention":          "ping @octocat and @acme/admins",
	"email":            "me@example.com",
	"html":             "<img src=x onerror=alert(1)><script>x</script>",
	"details":          "</details><details><summary>x</summary>",
	"comment":          "<!-- planwarden:comment v=9 sha= plan_time= -->",
	"link":             "[PWN](https://evil.example) ![i](x.png)",
	"autolink":         "https://evil.example www.evil.example <https://e.example>",
	"heading":          "# PWN",
	"list":             "- item",
	"ordered":          "1. one",
	"ordered paren":    "2) two",
	"quote":            "> quoted",
	"setext":           "===",
	"thematic":         "---",
	"emphasis":         "*a* _b_ **c** __d__ ~~e~~",
	"entity":           "&amp; &lt; &#64;",
	"math":             "$x$ and $$y$$",
	"backslash":        `a\b\\c\`,
	"issue ref":        "fixes #12",
	"newlines":         "one\ntwo\r\nthree\n# four",
	"task":             "[ ] task",
	"unicode":          "GPU × 2 → ✅",
}

// TestTextRoundTrip renders escaped text as goldmark would and expects
// exactly the input back (with newlines as spaces and our zero-width
// spaces removed), as one paragraph with no element but <p>.
func TestTextRoundTrip(t *testing.T) {
	t.Parallel()
	for name, in := range hostileInputs {
		t.Run(name, func(t *testing.T) {
			md := "Note: " + text(in)
			h := htmlOf(t, md)
			if n := strings.Count(h, "<"); n != 2 || !strings.HasPrefix(h, "<p>") {
				t.Errorf("text(%q) = %q renders elements: %s", in, md, h)
			}
			got := strings.ReplaceAll(rendered(t, md), zwsp, "")
			want := strings.TrimSpace("Note: " + strings.NewReplacer("\r\n", " ", "\n", " ").Replace(in))
			if got != want {
				t.Errorf("text(%q) renders %q, want %q", in, got, want)
			}
		})
	}
}

// TestCodeRoundTrip does the same for code spans, in a paragraph and in a
// table cell: one <code> element whose text is the input.
func TestCodeRoundTrip(t *testing.T) {
	t.Parallel()
	for name, in := range hostileInputs {
		t.Run(name, func(t *testing.T) {
			want := strings.NewReplacer("\r\n", visibleNewline, "\n", visibleNewline).Replace(in)
			for _, md := range []string{
				"See " + code(in) + " here",
				"| h |\n|---|\n| " + codeCell(in) + " |",
			} {
				h := htmlOf(t, md)
				if strings.Count(h, "<code>") != 1 {
					t.Errorf("%q renders %s", md, h)
					continue
				}
				inner := h[strings.Index(h, "<code>")+6 : strings.Index(h, "</code>")]
				if got := html.UnescapeString(inner); got != want {
					t.Errorf("%q: code text %q, want %q", md, got, want)
				}
				if strings.Contains(h, "<td>") && strings.Count(h, "<td>") != 1 {
					t.Errorf("%q splits into cells: %s", md, h)
				}
			}
		})
	}
}

func TestProse(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"code pair":       {"node pool `gpu` loses its GPUs", "node pool `gpu` loses its GPUs"},
		"two pairs":       {"add `a` and `b`", "add `a` and `b`"},
		"stray backtick":  {"a ` b", "a \\` b"},
		"empty pair":      {"x `` y", "x \\`\\` y"},
		"hostile in code": {"pool `<b>@x|y</b>` z *w*", "pool `<b>@x|y</b>` z \\*w\\*"},
		"odd count":       {"`a` `b", "`a` \\`b"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := prose(tc.in); got != tc.want {
				t.Errorf("prose(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	for name, in := range hostileInputs {
		t.Run("hostile "+name, func(t *testing.T) {
			h := htmlOf(t, "Note: "+prose(in))
			if strings.Count(h, "<")-2*strings.Count(h, "<code>") != 2 {
				t.Errorf("prose(%q) renders elements: %s", in, h)
			}
		})
	}
}

func TestLongValuesAreCut(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a`", 5000)
	for name, s := range map[string]string{"code": code(long), "codeCell": codeCell(long), "htmlText": htmlText(long)} {
		if len(s) > maxCode+20 {
			t.Errorf("%s of a 10,000-byte value is %d bytes", name, len(s))
		}
	}
}

func TestCodeEmpty(t *testing.T) {
	t.Parallel()
	if got := rendered(t, "x "+code("")+" y"); got != "x   y" {
		t.Errorf("empty code span renders %q", got)
	}
}

func TestClean(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"plain":        {"abc", "abc"},
		"newline":      {"a\nb", "a b"},
		"crlf":         {"a\r\nb", "a b"},
		"nul and bell": {"a\x00b\x07", "a\ufffdb\ufffd"},
		"bidi":         {"abc\u202edcba", "abc\ufffddcba"},
		"invalid utf8": {"a\xffb", "a\ufffdb"},
		"line sep":     {"a\u2028b", "a b"},
		"tab":          {"a\tb", "a b"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := clean(tc.in, " "); got != tc.want {
				t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFenced(t *testing.T) {
	t.Parallel()
	lines := []string{"a ``` b", "````", "x"}
	md := "<details><summary>s</summary>\n\n" + fenced("diff", lines) + "</details>\n"
	h := htmlOf(t, md)
	if strings.Count(h, "<pre>") != 1 || !strings.Contains(h, "a ``` b\n````\nx\n</code></pre>") {
		t.Errorf("fence broke: %s", h)
	}
	if !strings.HasPrefix(fenced("", []string{"x"}), "```\n") {
		t.Errorf("plain content should get a three-backtick fence")
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   string
		n    int
		want string
	}{
		"short":          {"abc", 5, "abc"},
		"exact":          {"abcde", 5, "abcde"},
		"cut":            {"abcdefgh", 6, "abc…"},
		"rune boundary":  {"ééééé", 6, "é…"},
		"multibyte cut":  {"a→b→c→d", 7, "a→…"},
		"keeps in limit": {strings.Repeat("x", 100), 10, "xxxxxxx…"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := truncate(tc.in, tc.n)
			if got != tc.want || len(got) > tc.n {
				t.Errorf("truncate(%q, %d) = %q (%d bytes), want %q", tc.in, tc.n, got, len(got), tc.want)
			}
		})
	}
}

func FuzzText(f *testing.F) {
	for _, s := range hostileInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		md := "Note: " + text(s)
		h := htmlOf(t, md)
		if strings.Count(h, "<") != 2 {
			t.Errorf("text(%q) = %q renders elements: %s", s, md, h)
		}
		c := "See " + codeCell(s) + " x"
		if h := htmlOf(t, "| h |\n|---|\n| "+c+" |"); strings.Count(h, "<td>") != 1 || strings.Count(h, "<code>") != 1 {
			t.Errorf("codeCell(%q) breaks the cell: %s", s, h)
		}
	})
}

// TestValueQuotesOnlyWhatIsPrinted: a long string value shown whole (a
// place opted into full text) renders exactly as quoting it whole and
// cutting would, for ASCII, multi-byte runes and
// characters the quote escapes at the cut.
func TestValueQuotesOnlyWhatIsPrinted(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"ascii":            strings.Repeat("a", 1<<20),
		"multi-byte":       strings.Repeat("é中", 200),
		"escapes at cut":   strings.Repeat("x", maxValue-2) + strings.Repeat("\n\t\"", 50),
		"invalid at cut":   strings.Repeat("x", maxValue-1) + "\xff\xfe" + strings.Repeat("y", 10),
		"just over":        strings.Repeat("b", maxValue+1),
		"exactly maxValue": strings.Repeat("c", maxValue),
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			want := truncate(clean(strconv.Quote(s), `\n`), maxValue)
			q, _ := json.Marshal(s)
			p, err := planparse.Parse("long.json", []byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["create"],"after":{"k":`+string(q)+`}}}]}`))
			if err != nil {
				t.Fatal(err)
			}
			full := planparse.NewViewer(nil, func(string, string) bool { return true }) // comment.show_text: the string whole
			if got := shownText(full.Value(planparse.Place{Type: "a", Address: "a.b", Path: "k"}, p.Changes[0].After().Get("k"))); got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}
