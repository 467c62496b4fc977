package planparse

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// What `planwarden redact` writes in place of a text the comment does not
// show (shown.go), and how the review reads it back.
//
// A text placeholder says what the Viewer says of the text, and no more:
//
//	(redacted text, 14 lines, <fingerprint>; <line> <line> ...)
//
// the number of lines, the text's fingerprint (textFingerprint) and, for
// each line, eight hex digits of an HMAC under the key of the redact run,
// so that the review of a change between two redacted texts counts the
// lines added and removed as the review of the originals does. Nobody who
// reads the redacted file holds the run's key: equal lines of one file
// read equal, and no line can be checked against a guess.
//
// The review reads a placeholder as the text it stands for: the Viewer
// shows the same summary (its digest is keyed by the fingerprint, for a
// text and its placeholder alike), and the change digests (review's
// digest.go, through Value.Fingerprinted) hash the fingerprint of a text,
// never its bytes, so the redacted plan and the plan itself give the same
// digests.

// textPrefix starts a text placeholder.
const textPrefix = "(redacted text, "

// fingerprintHex is how many hex digits a text's fingerprint keeps: 128
// bits, so two texts made to share one cost 2^64 tries.
const fingerprintHex = 32

// textFingerprintKey keys text fingerprints. Like the change digest's key
// it is not a secret and cannot be one: the review of a redacted plan and
// `planwarden verify` of the plan itself must agree without sharing a
// secret. A fingerprint therefore lets whoever reads a redacted file test
// a guess of a whole text, as the change digest of the text's change
// already does; a text the plan marks sensitive, or in which the detector
// finds a secret, is hidden before and has no fingerprint.
var textFingerprintKey = func() []byte {
	k := sha256.Sum256([]byte("planwarden text fingerprint v1"))
	return k[:]
}()

// textFingerprint is the fingerprint of a text, or the one a placeholder carries.
func textFingerprint(s string) string {
	if p, ok := parseTextPlaceholder(s); ok {
		return p.fingerprint
	}
	m := hmac.New(sha256.New, textFingerprintKey)
	m.Write(jsonscan.Bytes(s)) // not a copy: a text can be 64 MB
	return hex.EncodeToString(m.Sum(nil))[:fingerprintHex]
}

// textPlaceholder is what a text placeholder holds.
type textPlaceholder struct {
	fingerprint string
	lines       []string // a digest per line
}

// parseTextPlaceholder reads a placeholder; anything else, and a
// placeholder that holds anything but hex digits, is no placeholder.
func parseTextPlaceholder(s string) (textPlaceholder, bool) {
	if strings.HasPrefix(s, yamlPrefix) {
		head := s[len("# "):]
		// A YAML text's placeholder: its first line, then the YAML.
		if nl := strings.IndexByte(head, '\n'); nl >= 0 {
			return parseTextPlaceholder(head[:nl])
		}
		return textPlaceholder{}, false
	}
	rest, ok := strings.CutPrefix(s, textPrefix)
	if !ok || !strings.HasSuffix(rest, ")") {
		return textPlaceholder{}, false
	}
	rest = rest[:len(rest)-1]
	count, rest, ok := strings.Cut(rest, " ")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 {
		return textPlaceholder{}, false
	}
	word := " lines, "
	if n == 1 {
		word = " line, "
	}
	rest, ok = strings.CutPrefix(" "+rest, word)
	if !ok {
		return textPlaceholder{}, false
	}
	fp, lines, ok := strings.Cut(rest, "; ")
	if !ok || len(fp) != fingerprintHex || !isHexString(fp) || len(lines) != n*(secret.DigestLen+1)-1 {
		return textPlaceholder{}, false
	}
	p := textPlaceholder{fingerprint: fp, lines: make([]string, n)}
	for i := range p.lines {
		l := lines[i*(secret.DigestLen+1) : i*(secret.DigestLen+1)+secret.DigestLen]
		if !isHexString(l) || i < n-1 && lines[i*(secret.DigestLen+1)+secret.DigestLen] != ' ' {
			return textPlaceholder{}, false
		}
		p.lines[i] = l
	}
	return p, true
}

// isTextPlaceholder reports whether s is a text placeholder.
func isTextPlaceholder(s string) bool {
	if !strings.HasPrefix(s, textPrefix) && !strings.HasPrefix(s, yamlPrefix) {
		return false
	}
	_, ok := parseTextPlaceholder(s)
	return ok
}

func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// textLines splits a text, or reads a placeholder, into its lines: the
// lines themselves, or their digests (which match only digests).
func textLines(s string) []string {
	if p, ok := parseTextPlaceholder(s); ok {
		return p.lines
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// textPlaceholder is the placeholder of text s in this redact run.
func (z sanitizer) textPlaceholder(s string) string {
	if isTextPlaceholder(s) {
		return s
	}
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	var b strings.Builder
	b.Grow(len(textPrefix) + 64 + len(ls)*(secret.DigestLen+1))
	b.WriteString(textPrefix)
	b.WriteString(lineCount(s))
	b.WriteString(", ")
	b.WriteString(textFingerprint(s))
	b.WriteString(";")
	m := hmac.New(sha256.New, z.redactKey)
	for _, l := range ls {
		m.Reset()
		m.Write([]byte("planwarden line\x00"))
		m.Write(jsonscan.Bytes(l))
		b.WriteByte(' ')
		b.WriteString(hex.EncodeToString(m.Sum(nil)[:secret.DigestLen/2]))
	}
	b.WriteByte(')')
	return b.String()
}

// shownOnly returns x (a sanitized value tree at the steps of its path)
// with every string the Viewer would not show whole replaced by its
// placeholder, every JSON document in a string by the document with its
// leaves treated alike, and every map key the Viewer would not show by a
// key placeholder: what Viewer.tree shows, and nothing else, stays.
func (z sanitizer) shownOnly(steps []string, x any, depth int) any {
	out, _ := z.shownOnlyChanged(steps, x, depth)
	return out
}

// armExpression stands for an ARM template expression in a redacted
// what-if: it still reads as one (isARMExpression), so as unknown.
const armExpression = "[expression]"

// keptMarkers are the strings the readers give a meaning and shownOnly
// keeps: ARM's expression (above) and Pulumi's secret text.
func keptMarker(s string) bool {
	return s == armExpression || s == pulumiSecretText || s == UnknownText
}

// shownOnlyChanged is shownOnly, reporting whether it replaced anything
// (a document nothing was replaced in keeps its text as written).
func (z sanitizer) shownOnlyChanged(steps []string, x any, depth int) (any, bool) {
	switch t := x.(type) {
	case string:
		if secret.IsRedacted(t) || isTextPlaceholder(t) || keptMarker(t) {
			return t, false
		}
		if doc, ok := parseDocument(t, depth); ok {
			if red, changed := z.shownOnlyChanged(steps, doc, depth+1); changed {
				return encodeDocument(red), true
			}
			return t, false
		}
		if !textPlace(steps) && shownString(t) {
			return t, false
		}
		if !textPlace(steps) {
			if y, ok := z.yamlText(steps, t); ok {
				return y, true
			}
		}
		return z.textPlaceholder(t), true
	case map[string]any:
		changed := false
		for k, e := range t {
			if k == pulumiSigKey {
				continue // a Pulumi secret, asset or archive says what it is here
			}
			var c bool
			t[k], c = z.shownOnlyChanged(append(steps[:len(steps):len(steps)], k), e, depth)
			changed = changed || c
		}
		for k, e := range t {
			if !keyShown(k) {
				delete(t, k)
				t[z.keyText(k)] = e
				changed = true
			}
		}
		return t, changed
	case []any:
		changed := false
		for i, e := range t {
			var c bool
			t[i], c = z.shownOnlyChanged(append(steps[:len(steps):len(steps)], indexStep), e, depth)
			changed = changed || c
		}
		return t, changed
	}
	return x, false
}

// armExpressions replaces the template expressions of a what-if payload
// by armExpression: the review reads both as known after deploy.
func armExpressions(x any) any {
	switch t := x.(type) {
	case string:
		if isARMExpression(t) {
			return armExpression
		}
	case map[string]any:
		for k, e := range t {
			t[k] = armExpressions(e)
		}
	case []any:
		for i, e := range t {
			t[i] = armExpressions(e)
		}
	}
	return x
}

// encodeDocument writes a document back into a string: compact JSON,
// numbers as written.
func encodeDocument(x any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Fingerprinted returns the value as Interface does, with every text the
// Viewer summarizes (at the path's steps, as AttrDiff.Path writes the
// path) replaced by "\x00text " and its fingerprint, and every JSON
// document in a string by its structure, treated alike, in a one-element
// list after "\x00document". A text and its redacted placeholder, a
// document and its redacted copy, give the same result: it is what the
// change digests hash.
func (v Value) Fingerprinted(path string) any {
	return fingerprinted(pathSteps(path), plain(v.tree()), 0)
}

func fingerprinted(steps []string, x any, depth int) any {
	switch t := x.(type) {
	case string:
		if secret.IsRedacted(t) {
			return SensitiveText
		}
		if isTextPlaceholder(t) {
			return "\x00text " + textFingerprint(t)
		}
		if doc, ok := parseDocument(t, depth); ok {
			return []any{"\x00document", fingerprinted(steps, doc, depth+1)}
		}
		if !textPlace(steps) && shownString(t) {
			return t
		}
		return "\x00text " + textFingerprint(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = fingerprinted(append(steps[:len(steps):len(steps)], k), e, depth)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = fingerprinted(append(steps[:len(steps):len(steps)], indexStep), e, depth)
		}
		return out
	}
	return x
}
