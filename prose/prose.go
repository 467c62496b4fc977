// Package prose holds the small text helpers every part that writes for a
// reader shares (the comment, rule messages, the App's replies and check
// runs, and the receiver's log lines): cutting text to a size on a rune
// boundary, short commit names, and names quoted as inline code. It
// imports only the standard library.
package prose

import (
	"strings"
	"unicode/utf8"
)

// Truncated is what Clamp appends to text it cut.
const Truncated = "\n…(truncated)"

// Clamp cuts s to at most n bytes on a rune boundary, ending it with
// Truncated when it was cut (n smaller than Truncated: cut bare).
func Clamp(s string, n int) string {
	if len(s) <= n {
		return s
	}
	more := Truncated
	if n < len(more) {
		more = ""
	}
	cut := n - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}

// ShortSHA is a commit's usual seven-character name.
func ShortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// codeSafe keeps a name from ending its code span or its line early.
var codeSafe = strings.NewReplacer("`", "'", "\r", " ", "\n", " ")

// Code quotes a name (from a plan or a user) as a markdown code span that
// it cannot end early: backticks become ' and line breaks spaces, so
// nothing in it is markdown or a mention. The comment package renders plan
// values with its own span, which keeps backticks (longer delimiters).
func Code(s string) string { return "`" + codeSafe.Replace(s) + "`" }
