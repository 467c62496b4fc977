package comment

import (
	"fmt"
	"strings"
)

// The layouts of the comment and the check run, written out in Go. They
// were text/template definitions; executing a template reaches
// reflect.Value.MethodByName with a name known only at run time, and that
// turns off the linker's removal of unused methods for the whole program:
// the worker Lambda linked every method of every type it uses (7 MB,
// go-github's accessors among them).
//
// Layout only. Every string handed to these functions is already
// markdown: escaped (plan and user text) or written by the package.
// Decisions (what to show, in which order, what to leave out) are made
// elsewhere. Each piece starts with a blank line and ends with a newline,
// so pieces can be joined in any order and stay separate blocks.

// execute lays out the piece name with its data, the struct the caller
// builds for it (the data's type picks the layout; name says which one
// the caller means). A mismatch is a bug in this package, caught by its
// tests.
func execute(name string, data any) string {
	var b strings.Builder
	var kind string
	switch d := data.(type) {
	case struct {
		Headline, Counts string
		Notes            []string
	}:
		kind = "verdict"
		layoutVerdict(&b, d.Headline, d.Counts, d.Notes)
	case struct {
		Groups  []findingGroup
		LeftOut string
	}:
		kind = "findings"
		layoutFindings(&b, d.Groups, d.LeftOut)
	case section:
		kind = "section"
		layoutSection(&b, d)
	case struct {
		Heading, Counts string
		Notes           []string
	}:
		kind = "project"
		b.WriteString("\n### " + d.Heading + "\n\n" + d.Counts + "\n")
		for _, n := range d.Notes {
			b.WriteString("\n> " + n + "\n")
		}
	case block:
		kind = "block"
		b.WriteString("\n" + d.Title + "\n")
		if len(d.Header) > 0 {
			b.WriteString("\n")
			layoutTableHead(&b, d.Header, d.Align)
		}
	case struct{ Summary, Body string }:
		kind = "details"
		b.WriteString("\n<details><summary>" + d.Summary + "</summary>\n\n" + d.Body + "</details>\n")
	}
	if kind != name {
		panic(fmt.Sprintf("comment: layout %s called with %T (a %q layout's data)", name, data, kind))
	}
	return b.String()
}

// layoutVerdict: the headline, the counts and one quoted line per note.
func layoutVerdict(b *strings.Builder, headline, counts string, notes []string) {
	b.WriteString("## " + headline + "\n\n" + counts + "\n")
	for _, n := range notes {
		b.WriteString("\n> " + n + "\n")
	}
}

// layoutFindings: a heading per group, two lines per finding (what, what
// to do), then what was left out.
func layoutFindings(b *strings.Builder, groups []findingGroup, leftOut string) {
	for _, g := range groups {
		b.WriteString("\n### " + g.Heading + "\n\n")
		for _, it := range g.Items {
			b.WriteString("- " + it.Lead + "\n  - " + it.Todo + "\n")
		}
	}
	layoutLeftOut(b, leftOut)
}

// layoutSection: heading, intro, table, list, then what was left out;
// each part only when it has something.
func layoutSection(b *strings.Builder, s section) {
	b.WriteString("\n### " + s.Heading + "\n")
	if s.Intro != "" {
		b.WriteString("\n" + s.Intro + "\n")
	}
	if len(s.Table.Header) > 0 {
		b.WriteString("\n")
		layoutTableHead(b, s.Table.Header, s.Table.Align)
		for _, r := range s.Table.Rows {
			b.WriteString(r + "\n")
		}
	}
	if len(s.List) > 0 {
		b.WriteString("\n")
		for _, x := range s.List {
			b.WriteString("- " + x + "\n")
		}
	}
	layoutLeftOut(b, s.LeftOut)
}

// layoutTableHead: a markdown table's header and alignment rows.
func layoutTableHead(b *strings.Builder, header, align []string) {
	b.WriteString("|")
	for _, h := range header {
		b.WriteString(" " + h + " |")
	}
	b.WriteString("\n|")
	for _, a := range align {
		b.WriteString(a + "|")
	}
	b.WriteString("\n")
}

func layoutLeftOut(b *strings.Builder, leftOut string) {
	if leftOut != "" {
		b.WriteString("\n" + leftOut + "\n")
	}
}
