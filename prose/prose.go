// Package prose holds the small text helpers every part that writes for a
// reader shares (the comment, rule messages, the App's replies and check
// runs, and the receiver's log lines): cutting text to a size on a rune
// boundary, and short commit names. It imports only the standard library.
package prose

import "unicode/utf8"

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
