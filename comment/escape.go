package comment

import (
	"html"
	"strings"
	"unicode/utf8"
)

// Escaping. Everything that came from a plan, a repo config or a user
// (addresses, names, keys, values, tags, SKUs, finding messages, override
// reasons) passes through exactly one of these before it enters the body:
//
//   - code / codeCell: an inline code span. Nothing inside a code span is
//     markdown, HTML, a link, an issue reference or a mention on GitHub. The
//     delimiter is one backtick longer than the longest backtick run inside;
//     codeCell also escapes `|`, which GFM splits cells on even inside code.
//   - text: prose. ASCII punctuation with markdown meaning is backslash
//     escaped, `@`, `#<digit>`, `://`, `www.`, `GH-7`-style references and
//     commit SHAs get a zero-width space so GitHub makes no mention,
//     reference or autolink of them.
//   - htmlText: text inside our own raw HTML (the <summary> of a <details>).
//   - fenced: a fenced code block one backtick longer than any run inside.
//
// All of them first replace newlines, control characters, bidi controls,
// invisible characters and invalid UTF-8 (clean), so plan text can never
// start a line of its own and so open a block (heading, list, table, HTML
// block, fence), nor pass for other text.

const zwsp = "\u200b"

// clean returns s on one line with unsafe runes replaced: newlines and tabs
// by nl (callers pick a visible or a blank one), other C0/C1 controls, bidi
// controls and invalid UTF-8 by U+FFFD.
func clean(s, nl string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				b.WriteRune(utf8.RuneError)
				continue
			}
			b.WriteRune(r)
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			b.WriteString(nl)
		case r == '\n' || r == '\u2028' || r == '\u2029' || r == '\u0085':
			b.WriteString(nl)
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteRune(utf8.RuneError)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			b.WriteRune(utf8.RuneError)
		case invisible(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisible reports whether r shows nothing, or nothing of its own:
// zero-width spaces and joiners (U+200B-U+200D), the word joiner and
// invisible operators (U+2060-U+2064), the byte order mark (U+FEFF), tag
// characters (U+E0000-U+E007F), Hangul fillers (U+115F, U+1160, U+3164,
// U+FFA0), the soft hyphen and the Mongolian vowel separator. Plan text
// holding them could pass for other text (an address, a SKU) or hide
// what follows; they read as U+FFFD. (Bidi controls are replaced above.)
func invisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200d, r >= 0x2060 && r <= 0x2064, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	switch r {
	case 0xfeff, 0x115f, 0x1160, 0x3164, 0xffa0, 0x00ad, 0x180e:
		return true
	}
	return false
}

// isPlain reports whether s is printable ASCII only (the common case).
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// visibleNewline stands for a newline inside code spans and table cells.
const visibleNewline = "⏎"

// maxCode caps what one code span shows, so one long name or value cannot
// take the comment's budget.
const maxCode = 600

// code returns s as an inline code span (outside tables).
func code(s string) string { return codeSpan(truncate(clean(s, visibleNewline), maxCode), false) }

// codeCell returns s as an inline code span that is safe in a table cell.
func codeCell(s string) string { return codeSpan(truncate(clean(s, visibleNewline), maxCode), true) }

func codeSpan(s string, cell bool) string {
	if s == "" {
		return "` `"
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	run := longestRun(s, '`')
	delim := strings.Repeat("`", run+1)
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		// CommonMark strips one space on each side when both are there.
		return delim + " " + s + " " + delim
	}
	return delim + s + delim
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			if cur > best {
				best = cur
			}
		} else {
			cur = 0
		}
	}
	return best
}

// text returns s as markdown prose that renders as exactly s (on one line)
// in a paragraph, a list item or a table cell.
func text(s string) string {
	s = clean(s, " ")
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&', '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '#':
			b.WriteString(`\#`)
			if i+1 < len(s) && isAlnum(s[i+1]) {
				b.WriteString(zwsp)
			}
		case '@':
			b.WriteString("@" + zwsp)
		case ':':
			b.WriteByte(':')
			if strings.HasPrefix(s[i+1:], "//") {
				b.WriteString(zwsp)
			}
		case 'w', 'W':
			if n := reference(s, i, true); n > 0 {
				b.WriteString(s[i : i+n])
				b.WriteString(zwsp)
				i += n - 1
				continue
			}
			if i+4 <= len(s) && strings.EqualFold(s[i:i+4], "www.") {
				b.WriteString(s[i : i+3])
				b.WriteString(zwsp)
				i += 2
				continue
			}
			b.WriteByte(c)
		case '-', '+', '=', '.', ')':
			// Only at the start can these open a list item, a setext
			// underline or a thematic break ("-", "+", "=", "1.", "1)").
			// Links need "[" and images "![", both escaped above.
			if (c == '.' || c == ')') && allDigits(s[:i]) || c != '.' && c != ')' && i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			if n := reference(s, i, true); n > 0 {
				b.WriteString(s[i : i+n])
				b.WriteString(zwsp)
				i += n - 1
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// reference returns how many bytes of s, from a word's start at i, to
// write before a zero-width space so that GitHub links nothing there: the
// prefix of an issue reference in the GH-7 or JIRA-123 style (GH in any
// case, or two or more capitals, before "-" and a digit), or, with sha,
// the first half of a commit SHA (7 to 40 hex digits, letters and digits
// both, alone as a word). It returns 0 elsewhere. htmlText passes no sha:
// the <summary> lines hold addresses, whose hidden keys end in a digest.
func reference(s string, i int, sha bool) int {
	if i > 0 && (isAlnum(s[i-1]) || s[i-1] == '_') {
		return 0
	}
	j := i
	for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z') {
		j++
	}
	if n := j - i; n >= 2 && j+1 < len(s) && s[j] == '-' && isDigit(s[j+1]) &&
		(strings.EqualFold(s[i:j], "gh") || strings.ToUpper(s[i:j]) == s[i:j]) {
		return n
	}
	if !sha {
		return 0
	}
	j = i
	letter, digit := false, false
	for j < len(s) && isHex(s[j]) {
		letter = letter || !isDigit(s[j])
		digit = digit || isDigit(s[j])
		j++
	}
	if n := j - i; n >= 7 && n <= 40 && letter && digit && (j == len(s) || !isAlnum(s[j]) && s[j] != '_') {
		return n / 2
	}
	return 0
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// prose returns a rule's sentence as markdown: text between a pair of
// backticks becomes a code span, the rest is text. Every segment goes
// through code or text, so a stray backtick from a plan value can only
// shift what is shown as code, never open markdown.
func prose(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j <= 0 {
			break
		}
		b.WriteString(text(s[:i]))
		b.WriteString(code(s[i+1 : i+1+j]))
		s = s[i+1+j+1:]
	}
	b.WriteString(text(s))
	return b.String()
}

// htmlText returns s escaped for text inside our own HTML elements, which
// GitHub does not parse as markdown but still scans for mentions and issue
// references: those get a zero-width space as in text.
func htmlText(s string) string {
	s = html.EscapeString(truncate(clean(s, visibleNewline), maxCode))
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '@':
			b.WriteString("@" + zwsp)
		case c == '#' && i+1 < len(s) && isAlnum(s[i+1]) && (i == 0 || s[i-1] != '&'): // not an entity
			b.WriteString("#" + zwsp)
		default:
			if n := reference(s, i, false); n > 0 {
				b.WriteString(s[i : i+n])
				b.WriteString(zwsp)
				i += n - 1
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// fenced returns lines as a fenced code block with the given info string.
// The fence is longer than any backtick run in the content, so no line
// can close it. Lines must have been cleaned (no newlines inside).
func fenced(info string, lines []string) string {
	run := 0
	n := 0
	for _, l := range lines {
		run = max(run, longestRun(l, '`'))
		n += len(l) + 1
	}
	f := strings.Repeat("`", max(3, run+1))
	var b strings.Builder
	b.Grow(n + 2*len(f) + len(info) + 2)
	b.WriteString(f)
	b.WriteString(info)
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(f)
	b.WriteByte('\n')
	return b.String()
}

// truncate shortens s to at most n bytes (on a rune boundary), marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
