package secret

import "strings"

// Sensitive is what a hidden value reads as (planparse.SensitiveText).
const Sensitive = "(sensitive)"

// unknownText is what a value known only after apply reads as
// (planparse.UnknownText): a placeholder, not a secret.
const unknownText = "(known after apply)"

// Redact replaces every secret Find finds in s, and every known
// secret of the sets it contains, with Sensitive. It is for prose:
// check messages, import ids, log lines.
func Redact(s string, sets ...*Set) string {
	var hits []string
	// The value's budget only: the sets may be the live sets of other
	// plans (RedactText), whose budgets a log line must not spend.
	findValue(s, "", nil, func(x string) { hits = append(hits, x) })
	return replaceHits(s, hits, sets)
}

// RedactKnown is Redact without the detector: it hides the known
// secrets of sets only (in names and paths, which the detector's rules
// are not written for).
func RedactKnown(s string, sets ...*Set) string {
	for _, secrets := range sets {
		if secrets.Has(s) {
			return Sensitive
		}
	}
	return replaceHits(s, nil, sets)
}

func replaceHits(s string, hits []string, sets []*Set) string {
	for _, secrets := range sets {
		secrets.ContainedIn(s, false, func(x string) bool { hits = append(hits, x); return true })
	}
	if len(hits) == 0 {
		return s
	}
	for _, h := range hits {
		if h == s {
			return Sensitive
		}
	}
	// Longest first, so a secret that contains another goes whole.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && len(hits[j]) > len(hits[j-1]); j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	for _, h := range hits {
		s = strings.ReplaceAll(s, h, Sensitive)
	}
	return s
}

// MinContainedLen: a known secret at least this long is also redacted
// inside longer strings (a marked password inside a script).
const MinContainedLen = 8

// RedactedPrefix starts the text that stands for a hidden key or a value
// hidden by `planwarden redact`: "(sensitive) " and eight hex digits of a
// keyed digest.
const RedactedPrefix = Sensitive + " "

// IsRedacted reports whether s is Sensitive or a redacted
// placeholder with a digest.
func IsRedacted(s string) bool {
	if s == Sensitive {
		return true
	}
	if len(s) != len(RedactedPrefix)+DigestLen || !strings.HasPrefix(s, RedactedPrefix) {
		return false
	}
	for i := len(RedactedPrefix); i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

const DigestLen = 8
