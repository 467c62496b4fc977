package planparse

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// What a reviewer is shown of a plan's text: an allow-list.
//
// Detection (sanitize.go, detect.go) hides what is known to be secret; it
// fails open, since every shape it does not know shows. Everything that
// leaves planwarden for a reader (the comment, the check run, the text
// output, the JSON report) therefore shows a plan string only when it is
// safe by its form, and otherwise says what it is without its text:
//
//   - a name, id, SKU, region, version, image tag, ARN, path or tag: one
//     token of letters, digits and . _ - : / , * (an e-mail address or IAM
//     member, an image digest after @, and a label or taint name=value,
//     too), at most maxToken bytes,
//     with no URL scheme but http, https, s3 and gs, and no run of
//     maxRandomRun letters and digits that mixes upper case, lower case and
//     digits (a generated key);
//   - a few plain words (a tag value such as "ML Platform"): at most
//     maxProse bytes and maxProseWords words of letters (which may end in
//     a number of at most four digits), or such numbers;
//   - never a value under a name that holds commands or their environment
//     (commandNames, envNames), however short: `--api-token PW` is two
//     harmless-looking tokens.
//
// Everything else is text: scripts, user_data, connection strings, URLs
// with a query or a password, documents. The Viewer (shown_value.go)
// summarizes text with a keyed digest and shows JSON documents as their
// structure; names and messages outside values go through ShownName and
// ShownProse here.

const (
	// maxToken bounds a token shown whole; longer strings are text.
	maxToken = 256
	// maxRandomRun is the length from which a run of letters and digits
	// mixing all three classes reads as a generated key.
	maxRandomRun = 24
	// maxProse and maxProseWords bound the plain words shown whole.
	maxProse      = 64
	maxProseWords = 8
	// maxProseNumber bounds the digits of a number among plain words.
	maxProseNumber = 4
)

// shownString reports whether s may be shown whole by its form alone
// (the caller decides the context: commandNames, envNames).
func shownString(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > maxToken {
		return false
	}
	if strings.ContainsAny(s, " \t") {
		return shownProse(s)
	}
	return shownToken(s)
}

// shownToken reports whether s (no spaces) is a token shown whole.
func shownToken(s string) bool {
	if at := strings.IndexByte(s, '@'); at >= 0 {
		return isMember(s) || isDigestRef(s, at)
	}
	eq := strings.IndexByte(s, '=')
	if eq >= 0 && !isLabel(s, eq) {
		return false
	}
	for i, r := range s {
		if !tokenRune(r) && i != eq {
			return false
		}
	}
	if i := strings.Index(s, "://"); i >= 0 && !shownScheme(s[:i]) {
		return false
	}
	return !hasRandomRun(s)
}

// tokenRune is the alphabet of tokens: letters and digits of any script,
// and the separators names, ids, ARNs, paths and versions use.
func tokenRune(r rune) bool {
	switch r {
	case '.', '_', '-', ':', '/', ',', '*':
		return true
	}
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// isLabel reports whether s, with its only "=" at eq, is a label or a
// taint: a name, "=", and a value (gpu=true, sku=gpu:NoSchedule,
// nvidia.com/gpu=present). Padding (abc=) and assignments of two = are not.
func isLabel(s string, eq int) bool {
	k, v := s[:eq], s[eq+1:]
	if k == "" || v == "" || strings.IndexByte(v, '=') >= 0 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !isAlnumByte(c) && c != '.' && c != '_' && c != '-' && c != '/' {
			return false
		}
	}
	return true
}

// shownScheme reports whether a URL of this scheme is shown: the web and
// object stores, whose URLs name things; a database's or a cache's URL
// is where credentials go.
func shownScheme(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "http", "https", "s3", "gs":
		return true
	}
	return false
}

// hasRandomRun reports whether s has a run of maxRandomRun letters and
// digits or more that mixes upper case, lower case and digits and changes
// between them often: a generated key, not a name (hex hashes and ids are
// one case; a camelCase name changes case once a word).
func hasRandomRun(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isAlnumByte(s[i]) {
			continue
		}
		if run := s[start:i]; len(run) >= maxRandomRun && mixesClasses(run) && classChanges(run)*3 >= len(run) {
			return true
		}
		start = i + 1
	}
	return false
}

func isAlnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// classChanges counts where s turns from one class of upper case, lower
// case and digits to another: a third of a random key's letters do,
// a few of a name written in camelCase (acceptanceTestResourceGroup1).
func classChanges(s string) int {
	n := 0
	for i := 1; i < len(s); i++ {
		if class(s[i]) != class(s[i-1]) {
			n++
		}
	}
	return n
}

func class(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return 'A'
	case c >= 'a' && c <= 'z':
		return 'a'
	}
	return '0'
}

func mixesClasses(s string) bool {
	var upper, lower, digit bool
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return upper && lower && digit
}

// memberKinds are the prefixes of IAM members written as kind:e-mail.
var memberKinds = []string{"user:", "group:", "serviceAccount:", "domain:", "deleted:user:", "deleted:group:", "deleted:serviceAccount:"}

// isMember reports whether s is an e-mail address, or an IAM member
// (user:, group:, serviceAccount: ...) of one: local@domain.tld, the local
// part of letters, digits and . _ -, the domain of labels with a dot.
// A password in userinfo (user:PW@host) has no such prefix.
func isMember(s string) bool {
	for _, k := range memberKinds {
		if strings.HasPrefix(s, k) {
			s = s[len(k):]
			break
		}
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || !strings.Contains(domain, ".") {
		return false
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; !isAlnumByte(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlnumByte(c) && c != '-' {
				return false
			}
		}
	}
	return !hasRandomRun(local)
}

// isDigestRef reports whether s is an image reference pinned by digest:
// a token, @sha256: and 64 hex digits.
func isDigestRef(s string, at int) bool {
	name, digest := s[:at], s[at+1:]
	hex, ok := strings.CutPrefix(digest, "sha256:")
	if !ok || len(hex) != 64 || name == "" || strings.Contains(name, "@") || !shownToken(name) {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// shownProse reports whether s is a few plain words: single spaces between
// words of letters (with - ' & inside, an opening parenthesis before and
// punctuation after) or short numbers.
func shownProse(s string) bool {
	if len(s) > maxProse {
		return false
	}
	for n := 1; ; n++ {
		if n > maxProseWords {
			return false
		}
		w, rest, more := strings.Cut(s, " ")
		if !plainWord(w) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// plainWord reports whether w is a word of letters, a short number, or a
// word of letters ending in a short number (bucket1, team42), allowing "("
// before it and . , ; : ! ? ) after it (not ! or ? after digits:
// "Spring2024!" is a password's shape).
func plainWord(w string) bool {
	w = strings.TrimPrefix(w, "(")
	end := w
	w = strings.TrimRight(w, ".,;:!?)")
	if w == "" {
		return false
	}
	if d := len(w) - len(strings.TrimRight(w, "0123456789")); d > 0 {
		if d > maxProseNumber || strings.ContainsAny(end[len(w):], "!?") { // Spring2024!: a password's shape
			return false
		}
		if d == len(w) {
			return true
		}
		w = w[:len(w)-d]
	}
	prev := '-'
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
		case (r == '-' || r == '\'' || r == '&') && prev != '-' && prev != '\'' && prev != '&':
		default:
			return false
		}
		prev = r
	}
	return prev != '-' && prev != '\'' && prev != '&'
}

// ShownName returns a name, id, SKU, region or other single value that a
// finding, a table cell or a report field quotes from a plan: s when it is
// safe by its form (see shownString), else a summary that holds none of
// it, "(text, 2 lines)". Values a Viewer renders get a keyed digest
// besides; a name has none, so nothing in it can be guessed and checked.
func ShownName(s string) string {
	if shownString(s) {
		return s
	}
	return "(text, " + lineCount(s) + ")"
}

// hiddenWord stands for a word of a message that is not safe to show.
const hiddenWord = "(…)"

// ShownProse returns a sentence from a plan (a check's error message, a
// reason ARM gives) with every word that is not a plain word or a token
// safe by its form replaced by "(…)", on one line: "cannot reach (…):
// connection refused".
func ShownProse(s string) string {
	if shownString(s) {
		return s
	}
	kept := true
	for w := range strings.SplitSeq(s, " ") {
		if kept = proseWord(w); !kept {
			break
		}
	}
	if kept {
		return s // single spaces between words all shown: nothing to build
	}
	fields := strings.Fields(s)
	for i, w := range fields {
		if !proseWord(w) {
			fields[i] = hiddenWord
		}
	}
	return strings.Join(fields, " ")
}

// proseWord reports whether a word of a message is shown: a plain word, or
// a token, in quotes or parentheses or not. A token keeps what may end a
// sentence but "!" and "?": "Spring2024!" is no token.
func proseWord(w string) bool {
	w = strings.TrimRight(strings.TrimLeft(w, "(\"'"), "\"'")
	token := strings.TrimRight(w, ".,;:)")
	return plainWord(w) || token != "" && len(token) <= maxProse && shownToken(token)
}

// ShownPath returns an attribute path (AttrDiff.Path, a replace path) with
// every quoted map key that is not safe to show as a placeholder with a
// digest, as a hidden for_each key reads: tags["(sensitive) 3fa2c1d0"].
func ShownPath(p string) string {
	var z sanitizer
	return mapAddressKeys(p, func(k string) (string, bool) {
		if keyShown(k) {
			return "", false
		}
		return z.keyText(k), true
	})
}

// keyShown reports whether a map key or an instance key may be shown:
// it is safe by its form, or already a placeholder.
func keyShown(k string) bool { return shownString(k) || secret.IsRedacted(k) }

// lineCount says how many lines s has: "1 line", "14 lines" (a final
// newline ends the last line, it starts none).
func lineCount(s string) string { return countLines(lines(s)) }

// countLines says "1 line", "14 lines".
func countLines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return itoa(n) + " lines"
}

func lines(s string) int {
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}
