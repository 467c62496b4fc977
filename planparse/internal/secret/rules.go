package secret

import (
	"math"
	"regexp"
	"sync"
)

// formatRule is one credential format. A rule runs only on strings that
// contain one of its keywords (lower case); its secret is capture group
// secretGroup, else the first non-empty group, else the whole match.
type formatRule struct {
	id, regex   string
	keywords    []string
	entropy     float64 // minimum Shannon entropy (bits per byte) of the secret; 0 for none
	secretGroup int
	allow       []ruleAllow
	// named rules capture a name (group 1) and a value (group 2); the value
	// is a secret when NameSays says so.
	named bool
}

// ruleAllow lists values a rule must not report: a regex matching the
// target (the secret, the whole match, or the whole string for "line"),
// or a stopword contained in the secret.
type ruleAllow struct {
	target             string
	regexes, stopwords []string
}

// ownRules are the formats gitleaks leaves to its generic rule or misses in
// plan values.
var ownRules = []formatRule{
	{id: "url-userinfo", regex: `(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s/?#@:'"]+:([^\s/?#@'"]+)@`, keywords: []string{"://"}},
	{id: "connection-string-password", regex: `(?i)(?:^|[;\s'"?&])(?:password|pwd|accountkey|sharedaccesskey|sharedsecret)\s*=\s*([^;\s'"&]+)`,
		keywords: []string{"password", "pwd", "accountkey", "sharedaccesskey", "sharedsecret"}},
	{id: "sas-signature", regex: `[?&]sig=([A-Za-z0-9%+/=]{16,})`, keywords: []string{"sig="}},
	{id: "named-assignment", named: true,
		// NAME=value, "NAME": "value", NAME: value (YAML needs the space,
		// which keeps secretsmanager:GetSecretValue out).
		regex:    `(?i)([a-z_][a-z0-9_.-]{0,60})(?:["']?[ \t]*=[ \t]*|["'][ \t]*:[ \t]*|:[ \t]+)["']?([^\s"',;]{4,})`,
		keywords: []string{"pass", "pwd", "secret", "token", "key", "cred", "auth"}},
}

type compiledRule struct {
	*formatRule
	once  sync.Once
	re    *regexp.Regexp
	allow []compiledAllow
}

type compiledAllow struct {
	target string
	res    []*regexp.Regexp
	stop   []string
}

func compileAllow(a ruleAllow) compiledAllow {
	c := compiledAllow{target: a.target, stop: a.stopwords}
	for _, r := range a.regexes {
		c.res = append(c.res, regexp.MustCompile(r))
	}
	return c
}

func (r *compiledRule) compile() {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.regex)
		for _, a := range r.formatRule.allow {
			r.allow = append(r.allow, compileAllow(a))
		}
	})
}

// keywordSet finds the keywords (lower case, two bytes or more) that a
// text holds: a table of the keywords' first two bytes rules most
// positions out with one load, then the keywords of that pair are
// compared. It is about 70 KB; the Aho-Corasick automaton it replaced
// held 2.6 MB for the rules' 299 keywords.
type keywordSet struct {
	first [1 << 16]uint8 // 1 + the index in lists of the keywords starting with a pair, 0 for none
	lists [][]keywordEntry
}

type keywordEntry struct {
	word    string
	pattern int
}

// add adds a keyword with its pattern number. A keyword shorter than two
// bytes, or a 256th pair, panics: the rules have neither.
func (k *keywordSet) add(word string, pattern int) {
	p := uint16(word[0])<<8 | uint16(word[1])
	if k.first[p] == 0 {
		k.lists = append(k.lists, nil)
		k.first[p] = uint8(len(k.lists))
		if int(k.first[p]) != len(k.lists) {
			panic("keywordSet: more than 255 keyword pairs")
		}
	}
	i := k.first[p] - 1
	k.lists[i] = append(k.lists[i], keywordEntry{word, pattern})
}

// walk calls found with the pattern of every keyword occurrence in s.
func (k *keywordSet) walk(s []byte, found func(pattern int)) {
	for i := 0; i+1 < len(s); i++ {
		l := k.first[uint16(s[i])<<8|uint16(s[i+1])]
		if l == 0 {
			continue
		}
		for _, e := range k.lists[l-1] {
			if len(s)-i >= len(e.word) && string(s[i:i+len(e.word)]) == e.word {
				found(e.pattern)
			}
		}
	}
}

// detector is the compiled rule set with its keyword set.
type detector struct {
	rules        []*compiledRule
	patternRules [][]int // keyword pattern index -> the rules with that keyword
	keywords     *keywordSet
	global       compiledAllow
}

func getDetector() *detector {
	detectorOnce.Do(func() {
		d := &detector{global: compileAllow(gitleaksGlobal)}
		b := &keywordSet{}
		// The set keeps one pattern number per distinct keyword.
		pattern := map[string]int{}
		add := func(rs []formatRule) {
			for i := range rs {
				ri := len(d.rules)
				d.rules = append(d.rules, &compiledRule{formatRule: &rs[i]})
				for _, k := range rs[i].keywords {
					n, ok := pattern[k]
					if !ok {
						n = len(d.patternRules)
						pattern[k] = n
						b.add(k, n)
						d.patternRules = append(d.patternRules, nil)
					}
					d.patternRules[n] = append(d.patternRules[n], ri)
				}
			}
		}
		add(ownRules)
		add(gitleaksRules)
		d.keywords = b
		theDetector = d
	})
	return theDetector
}

// scratch is per-call working memory, pooled so a scan does not allocate.
type scratch struct {
	lower []byte
	hits  []uint64
	walk  func(pattern int)
	d     *detector
}

var scratchPool = sync.Pool{New: func() any {
	d := getDetector()
	s := &scratch{d: d, hits: make([]uint64, (len(d.rules)+63)/64)}
	s.walk = func(pattern int) {
		for _, r := range s.d.patternRules[pattern] {
			s.hits[r/64] |= 1 << (r % 64)
		}
	}
	return s
}}

// hasRuleKeyword reports whether s holds a keyword of any rule: the cheap
// test before a text is searched for secrets to hide wherever they reappear.
func hasRuleKeyword(s []byte) bool {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	walkKeywords(sc, s)
	for _, b := range sc.hits {
		if b != 0 {
			return true
		}
	}
	return false
}

// walkKeywords marks in sc.hits the rules whose keywords s holds, in any case.
func walkKeywords[S string | []byte](sc *scratch, s S) {
	sc.lower = appendLower(sc.lower[:0], s)
	clear(sc.hits)
	sc.d.keywords.walk(sc.lower, sc.walk)
}

func appendLower[S string | []byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// find reports whether the rule matches a secret in s, calling found
// (when not nil) with each. It charges w for reading s and for each match,
// and stops when w is over.
func (r *compiledRule) find(s string, d *detector, found func(string), w *work) bool {
	if !w.scan(len(s)) {
		return false
	}
	r.compile()
	hit := false
	// An allow-list of target "line" reads the whole of s: judged once per
	// s, not once per match.
	var lineAllows [4]int8 // per r.allow: 0 not judged yet, 1 allows, -1 does not

	report := func(secret string) bool {
		hit = true
		if found == nil {
			return false
		}
		found(secret)
		return true
	}
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		if !w.match() {
			return hit
		}
		if r.named {
			if len(m) >= 6 && m[2] >= 0 && m[4] >= 0 {
				k, v := s[m[2]:m[3]], s[m[4]:m[5]]
				if NameSays(k, v) && !d.global.allows(v, v, s) && !report(v) {
					return true
				}
			}
			continue
		}
		secret := ""
		switch {
		case r.secretGroup > 0 && 2*r.secretGroup+1 < len(m) && m[2*r.secretGroup] >= 0:
			secret = s[m[2*r.secretGroup]:m[2*r.secretGroup+1]]
		default:
			for g := 1; 2*g+1 < len(m); g++ {
				if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
					secret = s[m[2*g]:m[2*g+1]]
					break
				}
			}
		}
		match := s[m[0]:m[1]]
		if secret == "" {
			secret = match
		}
		if r.entropy > 0 && shannon(secret) < r.entropy {
			continue
		}
		if d.global.allows(secret, match, s) {
			continue
		}
		allowed := false
		for i := range r.allow {
			a := &r.allow[i]
			if a.target == "line" && len(a.stop) == 0 && i < len(lineAllows) {
				if lineAllows[i] == 0 {
					lineAllows[i] = -1
					if a.allows(secret, match, s) {
						lineAllows[i] = 1
					}
				}
				if lineAllows[i] == 1 {
					allowed = true
					break
				}
				continue
			}
			if a.allows(secret, match, s) {
				allowed = true
				break
			}
		}
		if !allowed && !report(secret) {
			return true
		}
	}
	return hit
}

func (a *compiledAllow) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	for _, re := range a.res {
		if re.MatchString(target) {
			return true
		}
	}
	return len(a.stop) > 0 && lowerHolds(secret, a.stop)
}

// shannon is the Shannon entropy of s in bits per byte.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}

var (
	detectorOnce sync.Once
	theDetector  *detector
)
