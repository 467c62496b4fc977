package comment

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gtext "github.com/yuin/goldmark/text"
)

// Headings the package writes; nothing else may be a heading. Code spans
// (project names) are replaced by "`…`" before matching.
var headingRE = regexp.MustCompile(`^(` + strings.Join([]string{
	`🛑 Not ready to merge: .*`, `⚠️ OK to merge after a look.*`, `✅ No changes: nothing to review`,
	`✅ Nothing to worry about: no findings`, `✅ Nothing left to worry about: .*`,
	`☑️ No findings, but .* left out of the cost estimate`, `☑️ Nothing left to worry about \(.*\), but .* left out of the cost estimate`,
	`🛑 Must be fixed or overridden before merging`, `✔️ Overridden`, `⚠️ Worth a look`, `ℹ️ For information`,
	`GPU changes`, `Serving endpoints to be replaced`, `Actions the apply will run`, `Cost`, `Cost by cost center`, `Attribute changes per resource`,
	"Changes in `…`( \\(`…`\\))?",
}, "|") + `)$`)

// Bold and italic runs the package writes.
var strongRE = regexp.MustCompile(`^(GPUs:|Plan:|Cost:|What to do:|Overridden|replace|delete|Resource changes|Changed outside Terraform \(drift\)|Deferred to a later plan|Output changes|Failing checks and conditions|Not evaluated by the what-if|Shortened to fit GitHub's size limit\.)$`)
var emRE = regexp.MustCompile(`^(… and .*|planwarden reviewed .*|\d+ more findings have a file and line .*)$`)

var htmlLineRE = []*regexp.Regexp{
	regexp.MustCompile(`^<!-- planwarden:comment v=\d+ sha=[0-9a-f]* plan_time=\S* -->$`),
	regexp.MustCompile(`^<details><summary>(<code>[^<>]*</code>|[^<>])*</summary>$`),
	regexp.MustCompile(`^</details>$`),
}

// A mention, team mention or issue reference GitHub would link in text.
var mentionRE = regexp.MustCompile(`(^|[^A-Za-z0-9_` + "`" + `])(@[A-Za-z0-9]|#[0-9])`)

var tableSepRE = regexp.MustCompile(`^\|(-{3,}:?\|)+$`)

// checkStructure parses body as GitHub-flavoured markdown and fails unless
// every heading, emphasis, link and HTML element is one the package
// writes, the <details> blocks balance, every fenced diff closes right
// before its </details>, tables keep their column count, and no text
// outside code makes a mention or issue reference.
func checkStructure(t reporter, body, detailsURL string) {
	t.Helper()
	src := []byte(body)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(gtext.NewReader(src))
	depth, tables, rows := 0, 0, 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
	}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if s := inlineText(n, src, "`…`"); !headingRE.MatchString(s) {
				fail("unexpected heading %q", s)
			}
		case *ast.Link:
			if detailsURL == "" || string(n.Destination) != detailsURL {
				fail("unexpected link to %q", n.Destination)
			}
		case *ast.AutoLink:
			fail("unexpected autolink %q", n.URL(src))
		case *ast.Image:
			fail("unexpected image %q", n.Destination)
		case *ast.RawHTML:
			fail("unexpected inline HTML %q", segs(n.Segments, src))
		case *east.Strikethrough:
			fail("unexpected strikethrough %q", inlineText(n, src, "`…`"))
		case *ast.Emphasis:
			s := inlineText(n, src, "`…`")
			if n.Level == 2 && !strongRE.MatchString(s) || n.Level == 1 && !emRE.MatchString(s) {
				fail("unexpected emphasis (level %d) %q", n.Level, s)
			}
		case *ast.HTMLBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				l := strings.TrimRight(string(seg.Value(src)), "\n")
				if l == "" {
					continue
				}
				ok := false
				for _, re := range htmlLineRE {
					ok = ok || re.MatchString(l)
				}
				if !ok {
					fail("unexpected HTML %q", l)
				}
				if mentionRE.MatchString(htmlOutsideCode(l)) {
					fail("mention in HTML %q", l)
				}
				switch {
				case strings.HasPrefix(l, "<details>"):
					depth++
				case l == "</details>":
					depth--
					if depth < 0 {
						fail("</details> without <details>")
					}
				}
			}
		case *ast.FencedCodeBlock:
			next, ok := n.NextSibling().(*ast.HTMLBlock)
			if !ok || next.Lines().Len() == 0 || htmlFirstLine(next, src) != "</details>" {
				fail("a fenced code block is not followed by </details>: the fence broke or ran on")
			}
		case *ast.Paragraph, *ast.TextBlock, *east.TableCell:
			if s := inlineText(n, src, "`…`"); mentionRE.MatchString(s) {
				fail("mention or reference in text %q", s)
			}
		case *east.Table:
			tables++
		case *east.TableRow, *east.TableHeader:
			rows++
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if depth != 0 {
		t.Errorf("<details> blocks do not balance: %d left open", depth)
	}
	// Source level: every table run keeps the header's column count, and
	// goldmark saw one table per separator line.
	seps, cols, inTable, lines := 0, 0, false, 0
	for i, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(l, "|") {
			inTable = false
			continue
		}
		lines++
		n := pipes(l)
		if !inTable {
			inTable, cols = true, n
		} else if n != cols {
			t.Errorf("line %d: %d cells, the table has %d: %q", i+1, n-1, cols-1, l)
		}
		if tableSepRE.MatchString(l) {
			seps++
		}
	}
	if lines-seps != rows {
		t.Errorf("%d table lines but goldmark found %d rows: text ran into a table", lines-seps, rows)
	}
	if seps != tables {
		t.Errorf("%d table separator lines but goldmark found %d tables", seps, tables)
	}
}

// pipes counts the cell delimiters of a table line: as in GFM, a | right
// after a backslash is part of the cell, whatever precedes the backslash.
func pipes(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		if l[i] == '|' && (i == 0 || l[i-1] != '\\') {
			n++
		}
	}
	return n
}

// inlineText is the text of n's inline children with each code span
// replaced by placeholder.
func inlineText(n ast.Node, src []byte, placeholder string) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.CodeSpan:
				b.WriteString(placeholder)
			case *ast.Text:
				b.Write(c.Value(src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte('\n')
				}
			case *ast.String:
				b.Write(c.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

func segs(s *gtext.Segments, src []byte) string {
	var b strings.Builder
	for i := 0; i < s.Len(); i++ {
		seg := s.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// reporter is the part of testing.T the checker uses, so a test can prove
// the checker fails.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatal(args ...any)
}

type recorder struct{ failed bool }

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }

var codeElemRE = regexp.MustCompile(`<code>[^<>]*</code>`)

func htmlOutsideCode(l string) string { return codeElemRE.ReplaceAllString(l, "<code></code>") }

// TestStructureCheckerCatches proves the checker fails on what it guards.
func TestStructureCheckerCatches(t *testing.T) {
	t.Parallel()
	bad := map[string]string{
		"heading":         "# PWN\n",
		"link":            "[x](https://evil.example)\n",
		"autolink":        "see www.evil.example now\n",
		"raw html":        "a <b>b</b>\n",
		"html block":      "<div>\nx\n</div>\n",
		"mention":         "hi @octocat\n",
		"issue ref":       "fixes #12\n",
		"open details":    "<details><summary>x</summary>\n\ny\n",
		"strike":          "~~gone~~\n",
		"emphasis":        "*PWN*\n",
		"table columns":   "| a | b |\n|---|---|\n| x | y | z |\n",
		"runs into table": "| a | b |\n|---|---|\n| x | y |\n**after**\n",
		"broken fence":    "<details><summary>x</summary>\n\n```diff\n```\nPWN\n```\n</details>\n",
	}
	for name, md := range bad {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			checkStructure(r, md, "")
			if !r.failed {
				t.Errorf("checker accepted %q", md)
			}
		})
	}
}

func htmlFirstLine(n *ast.HTMLBlock, src []byte) string {
	seg := n.Lines().At(0)
	return strings.TrimSpace(string(seg.Value(src)))
}
