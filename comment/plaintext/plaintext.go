// Package plaintext lays planwarden's PR comment out for a terminal
// (planwarden review --format text). It is apart from package comment so
// that the App's binaries do not carry a markdown parser.
package plaintext

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Render turns a comment (the markdown comment.Render returns) into plain text for
// a terminal: headings underlined, tables as aligned columns, lists with
// dashes, code blocks indented, HTML tags (<details>, <summary>, <code>)
// dropped and markdown escapes undone. It keeps every word of the comment; it
// only changes how the words are laid out.
func Render(md string) string {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(gtext.NewReader(src))
	p := &plain{src: src}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		p.block(n, "")
	}
	return strings.TrimRight(p.out.String(), "\n") + "\n"
}

type plain struct {
	src []byte
	out strings.Builder
}

var htmlTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^>]*>`) })

// block writes one block node; indent prefixes each of its lines.
func (p *plain) block(n ast.Node, indent string) {
	switch n := n.(type) {
	case *ast.Heading:
		title := p.inline(n)
		p.out.WriteString(indent + title + "\n")
		under := "-"
		if n.Level <= 2 {
			under = "="
		}
		p.out.WriteString(indent + strings.Repeat(under, len([]rune(title))) + "\n\n")
	case *ast.Paragraph, *ast.TextBlock:
		for _, line := range strings.Split(p.inline(n), "\n") {
			p.out.WriteString(indent + line + "\n")
		}
		if _, ok := n.(*ast.Paragraph); ok {
			p.out.WriteString("\n")
		}
	case *ast.List:
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			p.listItem(item, indent)
		}
		if _, nested := n.Parent().(*ast.ListItem); !nested {
			p.out.WriteString("\n")
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			p.out.WriteString(indent + "    " + strings.TrimRight(string(seg.Value(p.src)), "\n") + "\n")
		}
		p.out.WriteString("\n")
	case *ast.HTMLBlock:
		var raw bytes.Buffer
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			raw.Write(seg.Value(p.src))
		}
		if n.HasClosure() {
			raw.Write(n.ClosureLine.Value(p.src))
		}
		for _, line := range strings.Split(raw.String(), "\n") {
			if text := strings.TrimSpace(html.UnescapeString(htmlTag().ReplaceAllString(line, ""))); text != "" {
				p.out.WriteString(indent + text + "\n")
			}
		}
		p.out.WriteString("\n")
	case *ast.ThematicBreak:
		p.out.WriteString(indent + "----\n\n")
	case *ast.Blockquote:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			p.block(c, indent+"| ")
		}
	case *east.Table:
		p.table(n, indent)
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			p.block(c, indent)
		}
	}
}

func (p *plain) listItem(item ast.Node, indent string) {
	first := true
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		if l, ok := c.(*ast.List); ok {
			for sub := l.FirstChild(); sub != nil; sub = sub.NextSibling() {
				p.listItem(sub, indent+"  ")
			}
			continue
		}
		text := p.inline(c)
		for _, line := range strings.Split(text, "\n") {
			if first {
				p.out.WriteString(indent + "- " + line + "\n")
				first = false
			} else {
				p.out.WriteString(indent + "  " + line + "\n")
			}
		}
	}
}

func (p *plain) table(t *east.Table, indent string) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells, rules []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			text := strings.ReplaceAll(p.inline(cell), "\n", " ")
			cells = append(cells, text)
			rules = append(rules, strings.Repeat("-", max(3, len([]rune(text)))))
		}
		tw.Write([]byte(indent + strings.Join(cells, "\t") + "\n"))
		if _, header := row.(*east.TableHeader); header {
			tw.Write([]byte(indent + strings.Join(rules, "\t") + "\n"))
		}
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		p.out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	p.out.WriteString("\n")
}

// inline flattens the inline children of n into text.
func (p *plain) inline(n ast.Node) string {
	var b strings.Builder
	p.inlineTo(&b, n)
	return strings.TrimSpace(b.String())
}

func (p *plain) inlineTo(b *strings.Builder, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(unescape(c.Segment.Value(p.src)))
			switch {
			case c.HardLineBreak():
				b.WriteString("\n")
			case c.SoftLineBreak():
				b.WriteString(" ")
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					b.Write(tx.Segment.Value(p.src))
				}
			}
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				raw.Write(seg.Value(p.src))
			}
			if strings.HasPrefix(strings.ToLower(raw.String()), "<br") {
				b.WriteString("\n")
			}
		case *ast.Link:
			label := p.inline(c)
			b.WriteString(label)
			if dest := string(c.Destination); dest != "" && dest != label {
				b.WriteString(" (" + dest + ")")
			}
		case *ast.AutoLink:
			b.Write(c.URL(p.src))
		default:
			p.inlineTo(b, c)
		}
	}
}

// unescape undoes markdown's backslash escapes and HTML entities.
func unescape(b []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b)))
}
