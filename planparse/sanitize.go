package planparse

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// seed keys the digests of hidden values; it is per process, so a digest
// means nothing outside it.
var seed = maphash.MakeSeed()

// secretWords are substrings of attribute names whose values are redacted
// even when the plan does not mark them sensitive (providers forget to).
var secretWords = []string{
	"password", "passwd", "secret", "token", "private_key", "privatekey",
	"connection_string", "connectionstring", "access_key", "accesskey",
	"api_key", "apikey", "client_key", "sas_url", "sas_token", "credential",
	"primary_key", "secondary_key", "auth_key", "shared_key", "kube_config",
	"kube_admin_config", "certificate_data", "client_certificate",
	"cluster_ca_certificate", "private_ip_key", "ssh_key", "key_material",
	"user_data_base64", "custom_data", "master_key", "encryption_key",
}

// publicKeyNames hold secret-looking words but are public by design.
var publicKeyNames = []string{"public_key", "key_name", "token_expiry", "secret_name", "secret_arn", "secret_id", "kms_key_id", "key_vault_secret_id", "access_key_id_name", "password_enabled", "password_authentication",
	// References to a secret, not the secret: Kubernetes and Helm names,
	// AWS service prefixes, OAuth endpoints.
	"existingsecret", "existing_secret", "secretname", "secretref", "secret_ref", "keyref", "passwordkey", "password_key_name", "secretsmanager",
	"token_url", "tokenurl", "token_uri", "token_endpoint"}

// secretHints are cheap substrings at least one of which every secret
// word contains; a name with none of them is not secret.
var secretHints = []string{"pass", "secret", "token", "key", "conn", "cred", "sas_", "data", "config", "cert"}

// IsSecretName reports whether an attribute name says it holds a secret.
// Names are read as words: snake_case, and camelCase or PascalCase (ARM,
// Bicep, Kubernetes) split where a lower-case letter or digit meets a
// capital, so adminPassword reads as admin_password and
// disablePasswordAuthentication as disable_password_authentication (a
// switch, public).
func IsSecretName(name string) bool {
	n, words := lowerASCII(name), snakeName(name)
	hinted := false
	for _, h := range secretHints {
		if strings.Contains(n, h) || strings.Contains(words, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		return false
	}
	if publicName(n, words) {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) || strings.Contains(words, w) {
			return true
		}
	}
	return false
}

// publicName reports whether a name with a secret word is public by design
// (n lower-cased, words its snake_case form): a reference to a secret, a
// switch, a version, or a setting about the secret rather than the secret
// (password_profile, client_certificate_mode, minimum_password_length).
func publicName(n, words string) bool {
	for _, p := range publicKeyNames {
		if strings.Contains(n, p) || strings.Contains(words, p) {
			return true
		}
	}
	for _, p := range publicPrefixes {
		if strings.HasPrefix(words, p) {
			return true
		}
	}
	for _, s := range publicSuffixes {
		if strings.HasSuffix(words, s) {
			return true
		}
	}
	return false
}

// publicPrefixes and publicSuffixes are the first and last words that make
// a name a switch or a setting about a secret.
var (
	publicPrefixes = []string{"disable_", "enable_"}
	publicSuffixes = []string{"_enabled", "_version", "_authentication", "_profile", "_policy", "_settings",
		"_options", "_properties", "_mode", "_type", "_length", "_count"}
)

// snakeName lower-cases name and puts an underscore where camelCase starts
// a word: adminPassword, AdminPassword -> admin_password; APIKey -> api_key;
// DB_PASS -> db_pass; ADMINPASSWORD -> adminpassword.
func snakeName(name string) string {
	upper := false
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			upper = true
			break
		}
	}
	if !upper {
		return name
	}
	b := make([]byte, 0, len(name)+4)
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				p := name[i-1]
				lowerBefore := p >= 'a' && p <= 'z' || p >= '0' && p <= '9'
				acronymEnd := p >= 'A' && p <= 'Z' && i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
				if lowerBefore || acronymEnd {
					b = append(b, '_')
				}
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// hiddenByName reports whether a value under a secret name is hidden for
// the name alone: a boolean never is (a switch; a marked one is hidden by
// its mark), nor an empty string. A number is: a numeric PIN or password
// is still one (settings about a secret, such as password_length, have
// public names).
func hiddenByName(x any) bool {
	switch t := x.(type) {
	case nil, bool:
		return false
	case string:
		return t != ""
	}
	return true
}

// secretSet holds every value a plan marks sensitive anywhere. Terraform
// does not always mark a value everywhere it appears (terraform_data's
// output echoes a sensitive input unmarked, plan variables hold sensitive
// values in clear), so a leaf equal to a known secret is redacted too.
//
// A secretSet is filled while a plan is read and only read afterwards; its
// contained-secret index is built on first use and again after an add.
type secretSet = *secretIndex

// secretIndex is a secretSet: the secrets, and an index of the long ones by
// their first minContainedLen bytes, so that asking whether a string holds
// one costs a lookup per position of the string, not a scan per secret (a
// plan marking thousands of values sensitive read in 25 s without it).
type secretIndex struct {
	m map[string]bool // true: the secret's forms are in the set too (add)
	// blobs are the secrets longer than maxFormsLen, by length and digest
	// (secretblob.go): not in m, nor in lens, firsts, sigs or idx.
	blobs blobSecrets
	// lens and firsts have a bit for each length (255 standing for all
	// longer) and each first byte of the secrets in m: most strings a
	// plan's readers check are ruled out without a map lookup.
	lens, firsts [4]uint64
	// sigs has the bit sig(x) set for each secret x (see put): a string whose
	// length and first byte match a secret's (on the brownfield mix, with
	// 20,000 secrets, most do) is mostly ruled out without a map lookup.
	sigs [1 << sigBits / 64]uint64
	mu   sync.Mutex                // serializes building idx
	idx  atomic.Pointer[longIndex] // built on first use and again after an add
}

// longIndex is the index of a secretIndex's long secrets, built when it
// held n secrets.
type longIndex struct {
	n    int
	long []string // secrets of minContainedLen bytes or more, when linearLimit or fewer (else nil)
	// byPrefix and more are the long secrets by their first
	// minContainedLen bytes, when many: a prefix's first secret in
	// byPrefix, the others (few prefixes have any) in more. A map of
	// lists allocated a list per secret (20,000 on the brownfield mix).
	// Prefixes are keyed by their eight bytes read as one number
	// (prefixWord): a number hashes and compares faster than a string.
	byPrefix map[uint64]string
	more     map[uint64][]string
	// filter has the bit prefixHash(p) set for every prefix p of byPrefix:
	// most positions of a string are ruled out without a map lookup.
	filter *[1 << (prefixBits - 6)]uint64
}

// prefixBits is the size of the prefix filter's hash (64 Kbit, 8 KB).
const prefixBits = 16

// prefixWord is the minContainedLen (8) bytes of s at i as one number
// (little endian): two prefixes are equal when their words are.
func prefixWord(s string, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// prefixHash hashes a prefixWord.
func prefixHash(w uint64) uint32 { return uint32((w * 0x9E3779B97F4A7C15) >> (64 - prefixBits)) }

// newSecretSet returns an empty set.
func newSecretSet() secretSet { return &secretIndex{m: map[string]bool{}} }

// maxFormsLen is the longest secret whose forms are added: 64 KiB.
const maxFormsLen = 64 << 10

// add records a secret, and the forms a configuration turns it into
// (lower(), upper(), urlencode(), hex) when it is long and more than words:
// a secret lowered into a bucket name or put in a query is the secret.
func (s *secretIndex) add(x string) {
	if s.m[x] {
		return
	}
	// A copy: x may be a view of prior_state or planned_values, whose
	// pages the CLI gives back after Parse (a map assignment stores the
	// key it is given). secretForms copies x and makes its forms.
	// A secret past maxFormsLen is a blob (a user_data script, a bundle
	// of certificates): its forms would cost five times its size, and
	// nothing turns a blob into its lower case or hex. It is known by its
	// length and digest, not a copy (secretblob.go).
	if len(x) > maxFormsLen {
		s.blobs.add(x)
		return
	}
	if len(x) < minContainedLen || onlyWords(x) {
		x = strings.Clone(x)
		s.put(x)
		s.m[x] = true
		return
	}
	forms := secretForms(x) // secretforms.go
	s.put(forms[0])
	s.m[forms[0]] = true
	for _, v := range forms[1:] {
		s.put(v)
	}
}

// put adds x, a string of its own (not a view of a plan), to the set.
func (s *secretIndex) put(x string) {
	if _, ok := s.m[x]; ok {
		return
	}
	s.m[x] = false
	l := min(len(x), 255)
	s.lens[l>>6] |= 1 << (l & 63)
	if len(x) > 0 {
		s.firsts[x[0]>>6] |= 1 << (x[0] & 63)
		h := sig(x)
		s.sigs[h>>6] |= 1 << (h & 63)
	}
}

// numberFirsts has the bits of secretIndex.firsts[0] that a number's text
// can start with: '-' and the digits.
const numberFirsts = 1<<'-' | 0x3ff<<'0'

// sigBits is the size of secretIndex.sigs: 2^sigBits bits (8 KB).
const sigBits = 16

// sig is a cheap hash of a non-empty string's length and its first, middle
// and last bytes, below 2^sigBits.
func sig(x string) uint32 {
	k := uint32(len(x)) | uint32(x[0])<<8 | uint32(x[len(x)/2])<<16 | uint32(x[len(x)-1])<<24
	return k * 0x9E3779B1 >> (32 - sigBits)
}

// mayHold reports whether str can be a secret of the set: its length and
// first byte are those of one (false rules it out; true says look).
func (s *secretIndex) mayHold(str string) bool {
	l := min(len(str), 255)
	if len(str) == 0 || s.lens[l>>6]&(1<<(l&63)) == 0 || s.firsts[str[0]>>6]&(1<<(str[0]&63)) == 0 {
		return false
	}
	h := sig(str)
	return s.sigs[h>>6]&(1<<(h&63)) != 0
}

// size is how many secrets the set holds (0 for a nil set).
func (s *secretIndex) size() int {
	if s == nil {
		return 0
	}
	return len(s.m) + len(s.blobs.sums)
}

// linearLimit: up to this many long secrets a plain scan is as fast as the
// index.
const linearLimit = 16

// longSecrets returns the index of the long secrets.
func (s *secretIndex) longSecrets() *longIndex {
	if x := s.idx.Load(); x != nil && x.n == len(s.m) {
		return x
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if x := s.idx.Load(); x != nil && x.n == len(s.m) {
		return x
	}
	x := &longIndex{n: len(s.m)}
	for k := range s.m {
		if len(k) < minContainedLen {
			continue
		}
		if x.byPrefix == nil {
			if x.long = append(x.long, k); len(x.long) > linearLimit {
				// Many: indexed by prefix (x.long is for a few only).
				x.byPrefix = make(map[uint64]string, len(s.m))
				x.more = map[uint64][]string{}
				x.filter = new([1 << (prefixBits - 6)]uint64)
				for _, k := range x.long {
					x.index(k)
				}
				x.long = nil
			}
			continue
		}
		x.index(k)
	}
	s.idx.Store(x)
	return x
}

// index adds the long secret k to byPrefix (or more) and the filter.
func (x *longIndex) index(k string) {
	p := prefixWord(k, 0)
	if _, ok := x.byPrefix[p]; ok {
		x.more[p] = append(x.more[p], k)
	} else {
		x.byPrefix[p] = k
	}
	h := prefixHash(p)
	x.filter[h/64] |= 1 << (h % 64)
}

// containedIn calls hit for each long secret that str holds (each once per
// position it starts at), until hit returns false. proper limits it to
// secrets shorter than str.
func (s *secretIndex) containedIn(str string, proper bool, hit func(string) bool) {
	if s.size() == 0 || len(str) < minContainedLen {
		return
	}
	if len(str) > maxFormsLen && !s.blobs.containedIn(str, proper, hit) {
		return
	}
	if len(s.m) == 0 {
		return
	}
	x := s.longSecrets()
	if x.byPrefix == nil {
		for _, k := range x.long {
			if (!proper || len(k) < len(str)) && strings.Contains(str, k) && !hit(k) {
				return
			}
		}
		return
	}
	for i := 0; i+minContainedLen <= len(str); i++ {
		p := prefixWord(str, i)
		if h := prefixHash(p); x.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		k, ok := x.byPrefix[p]
		if !ok {
			continue
		}
		if (!proper || len(k) < len(str)) && strings.HasPrefix(str[i:], k) && !hit(k) {
			return
		}
		for _, k := range x.more[p] {
			if (!proper || len(k) < len(str)) && strings.HasPrefix(str[i:], k) && !hit(k) {
				return
			}
		}
	}
}

// minSecretLen keeps short, common values ("true", "1") from being
// redacted everywhere because one of them was marked somewhere.
const minSecretLen = 4

func (s *secretIndex) has(x any) bool {
	if s.size() == 0 {
		return false
	}
	var str string
	switch t := x.(type) {
	case string:
		str = t
	case json.Number:
		str = t.String()
	case float64:
		if s.firsts[0]&numberFirsts == 0 {
			return false // no secret starts as a number's text does
		}
		// formatFloat's text, in a buffer of the stack: a view of it is
		// only looked up, never kept.
		var buf [32]byte
		b := strconv.AppendFloat(buf[:0], t, 'f', -1, 64)
		if len(b) < minSecretLen || !s.mayHold(view(b)) {
			return false
		}
		_, ok := s.m[string(b)]
		return ok
	default:
		return false
	}
	if len(str) > maxFormsLen && s.blobs.is(str) {
		return true
	}
	if len(str) < minSecretLen || !s.mayHold(str) {
		return false
	}
	_, ok := s.m[str]
	return ok
}

// collect adds the leaves of raw that sens marks sensitive, reading both
// in place as a decode of each would pair them: the first of repeated keys
// counts, list elements pair by position, a mark of true takes every
// string and number below it, and nothing is added when either holds a
// number beyond float64 (the decode fails).
func (s *secretIndex) collect(raw, sens []byte) {
	if len(raw) == 0 || !bytes.Contains(sens, []byte("true")) {
		return
	}
	if !numbersFit(raw) || !numbersFit(sens) {
		return
	}
	s.walkRaw(raw, sens)
}

func (s *secretIndex) walkRaw(raw, mark []byte) {
	if isLiteral(mark, "true") {
		s.addAllRaw(raw)
		return
	}
	if len(raw) == 0 || len(mark) == 0 || !bytes.Contains(mark, []byte("true")) {
		return // no mark below
	}
	switch {
	case raw[0] == '{' && mark[0] == '{':
		s.walkMarkedObject(raw, mark) // markwalk.go
	case raw[0] == '[' && mark[0] == '[':
		marks := elements(mark)
		for i, e := range elements(raw) {
			if i < len(marks) {
				s.walkRaw(e, marks[i])
			}
		}
	}
}

func (s *secretIndex) addAllRaw(raw []byte) {
	if len(raw) == 0 {
		return
	}
	switch c := raw[0]; {
	case c == '"':
		if str := stringView(raw); len(str) >= minSecretLen {
			s.add(str) // add keeps a copy
		}
	case c == '-' || c >= '0' && c <= '9':
		if f, err := parseNumber(raw); err == nil {
			if str := formatFloat(f); len(str) >= minSecretLen {
				s.add(str)
			}
		}
	case c == '{':
		eachKey(raw, func(_ string, v []byte) { s.addAllRaw(v) })
	case c == '[':
		for _, e := range elements(raw) {
			s.addAllRaw(e)
		}
	}
}

// eachKey calls f with each key of the validated object raw and its value,
// the first of repeated keys only (as a decode keeps it). The key may be a
// view of raw: f must not keep it.
func eachKey(raw []byte, f func(key string, v []byte)) {
	var seen map[string]struct{}
	var buf [16]string // no allocation for the keys of an object of 16 members or fewer
	first := buf[:0]
	_, _ = eachMember(raw, 0, 0, func(kb []byte, escaped bool, v int) (int, error) {
		end, err := skipValid(raw, v)
		k := view(kb) // f reads a key only during the call
		if escaped {
			k = unquote(kb, true)
		}
		dup := false
		if seen != nil {
			_, dup = seen[k]
		} else {
			dup = slices.Contains(first, k)
		}
		if !dup {
			if first = append(first, k); len(first) > 16 && seen == nil {
				seen = map[string]struct{}{}
				for _, x := range first {
					seen[x] = struct{}{}
				}
			} else if seen != nil {
				seen[k] = struct{}{}
			}
			f(k, raw[v:end:end])
		}
		return end, err
	})
}

// numbersFit reports whether every number of the validated JSON raw
// decodes to a float64 (decodeJSON refuses the value otherwise).
func numbersFit(raw []byte) bool {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			i = stringEnd(raw, i)
		case c == '-' || c >= '0' && c <= '9':
			end, _ := skipValid(raw, i)
			if _, err := parseNumber(raw[i:end]); err != nil {
				return false
			}
			i = end
		default:
			i++
		}
	}
	return true
}

// decodeValue decodes raw JSON, then redacts what the sensitivity tree
// marks, secret-looking keys and known secret values, and marks what the
// unknown tree marks.
func decodeValue(raw, sens, unk []byte, secrets secretSet) (Value, error) {
	var v any
	if len(raw) > 0 {
		if err := decodeNumber(raw, &v); err != nil {
			return Value{}, err
		}
	}
	var s, u any
	if len(sens) > 0 {
		_ = decodeNumber(sens, &s) // a malformed mask redacts everything below
	}
	if len(unk) > 0 {
		_ = decodeNumber(unk, &u)
	}
	return Value{v: sanitizer{secrets: secrets}.sanitize(v, s, u, "")}, nil
}

func decodeNumber(raw []byte, into *any) error {
	// Numbers decode as float64 (exact for every integer up to 2^53), as
	// encoding/json decodes them; the scanner (scan.go) limits nesting.
	v, err := decodeJSON(raw)
	*into = v
	return err
}

// sanitizer replaces what is secret in a value tree. In review mode (the
// zero redactKey) hidden values become sensitive markers; in redact mode
// (`planwarden redact`) they become placeholder strings that a later
// review reads as sensitive again.
type sanitizer struct {
	secrets   secretSet
	redactKey []byte // HMAC key of redact mode; nil in review mode
	// members is the plan's member cache (membercache.go), nil for none.
	members *memberCache
}

// digest is a keyed digest of b: per process in review mode, per run of
// `planwarden redact` in redact mode. Neither can be recomputed from the
// output, so a digest is no dictionary oracle for a weak password.
func (z sanitizer) digest(b []byte) uint64 {
	if z.redactKey == nil {
		return maphash.Bytes(seed, b)
	}
	m := hmac.New(sha256.New, z.redactKey)
	m.Write(b)
	return binary.BigEndian.Uint64(m.Sum(nil))
}

// placeholder is the text that stands for a hidden value or key:
// "(sensitive) " and eight hex digits of its digest.
func (z sanitizer) placeholder(b []byte) string {
	return redactedPrefix + fmt.Sprintf("%08x", uint32(z.digest(b)>>32))
}

// hide replaces a secret value.
func (z sanitizer) hide(x any) any {
	if _, ok := x.(sensitive); ok {
		return x
	}
	if z.redactKey == nil {
		return redact(x)
	}
	if s, ok := x.(string); ok && isRedactedText(s) {
		return s
	}
	return redactedPrefix + fmt.Sprintf("%08x", uint32(z.digestValue(x)>>32))
}

// keyText is what a secret map key or for_each key reads as.
func (z sanitizer) keyText(k string) string {
	if isRedactedText(k) {
		return k
	}
	return z.placeholder([]byte(k))
}

// secretString reports whether a string leaf under name (of class c) is
// secret: one holding a known secret, or what the detector finds. sanitize
// has ruled out redacted text and a known secret equal to s.
func (z sanitizer) secretString(s, name string, c nameClass) bool {
	if z.secrets.holds(s) {
		return true
	}
	if z.secrets.size() > 0 {
		// A known secret base64-encoded (a user_data script, a
		// Kubernetes secret's data) is hidden like the secret.
		if text, ok := decodeBlob(s); ok && z.secrets.contains(text) {
			return true
		}
		// A document in a string (a policy, a JSON-encoded map) may
		// write the secret with \u escapes or an escaped slash.
		if text, ok := unescapeJSON(s); ok && z.secrets.contains(text) {
			return true
		}
	}
	return hasSecretClass(s, name, c)
}

// secretKey reports whether a map key or an instance key is secret.
func (z sanitizer) secretKey(k string) bool {
	if len(k) < minSecretLen || isRedactedText(k) {
		return false
	}
	if z.secrets.contains(k) {
		return true
	}
	if len(k) < minScanLen {
		return false
	}
	if _, clean := cleanKeys.get(k); clean {
		return false
	}
	if hasSecret(k, "") {
		return true
	}
	cleanKeys.put(k, struct{}{})
	return false
}

// cleanKeys memoizes the map keys the detector found nothing in (they are
// mostly attribute names, repeated in every value of a plan); bounded like
// nameCache.
var cleanKeys = newMemo[struct{}](2048, 128)

// holds reports whether str holds a known secret shorter than itself.
func (s *secretIndex) holds(str string) bool {
	if s.size() == 0 || len(str) < minSecretLen {
		return false
	}
	found := false
	s.containedIn(str, true, func(string) bool { found = true; return false })
	return found
}

// contains reports whether s is, or holds, a known secret.
func (s *secretIndex) contains(str string) bool {
	if s.size() == 0 || len(str) < minSecretLen {
		return false
	}
	if len(str) > maxFormsLen && s.blobs.is(str) {
		return true
	}
	if s.mayHold(str) {
		if _, ok := s.m[str]; ok {
			return true
		}
	}
	return s.holds(str)
}

// sanitize returns x with sensitive leaves replaced by markers. sens is the
// matching node of the sensitivity tree (true marks the whole subtree), unk
// that of the unknown tree, key the attribute name x sits under.
func (z sanitizer) sanitize(x, sens, unk any, key string) any {
	if b, ok := sens.(bool); ok && b {
		return z.hide(x)
	}
	if b, ok := unk.(bool); ok && b {
		return unknown{}
	}
	if str, ok := x.(string); ok && isRedactedText(str) {
		// A value `planwarden redact` (or a person) already hid.
		return z.hide(str)
	} else if ok && isTextPlaceholder(str) {
		// A text `planwarden redact` replaced (redact_text.go): only
		// digests, which the review reads as the text they stand for.
		return str
	}
	if z.secrets.has(x) {
		return z.hide(x)
	}
	var cls nameClass // what key says, for the checks below
	if key != "" && hiddenByName(x) {
		if cls = classify(key); cls&nameSecret != 0 {
			return z.hide(x)
		}
	}
	switch t := x.(type) {
	case string:
		if z.secretString(t, key, cls) {
			return z.hide(t)
		}
	case map[string]any:
		sm, _ := sens.(map[string]any)
		um, _ := unk.(map[string]any)
		// {name = "DB_PASS", value = "..."}: environment lists name their values.
		pairName, _ := t["name"].(string)
		pairValue, _ := t["value"].(string)
		for k, e := range t {
			name := k
			if k == "value" && pairName != "" && nameSaysSecret(pairName, pairValue) {
				name = pairName
			}
			t[k] = z.sanitize(e, sm[k], um[k], name)
		}
		// Unknown attributes are absent from "after"; show them.
		if z.redactKey == nil {
			for k, e := range um {
				if _, ok := t[k]; !ok {
					if b, ok := e.(bool); ok && b {
						t[k] = unknown{}
					}
				}
			}
		}
		z.renameKeys(t)
		return t
	case []any:
		sl, _ := sens.([]any)
		ul, _ := unk.([]any)
		for i, e := range t {
			var se, ue any
			if i < len(sl) {
				se = sl[i]
			}
			if i < len(ul) {
				ue = ul[i]
			}
			// Elements of a list inherit the list's name for the secret check.
			t[i] = z.sanitize(e, se, ue, key)
		}
		return t
	case nil:
		if _, ok := unk.(map[string]any); ok {
			return z.sanitize(map[string]any{}, sens, unk, key)
		}
	}
	return x
}

// unescapeJSON returns s with its JSON \uXXXX and \/ escapes decoded (the
// others kept), and whether it had any.
func unescapeJSON(s string) (string, bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, false
	}
	var b strings.Builder
	changed := false
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		switch {
		case len(s) >= 2 && s[1] == '/':
			b.WriteByte('/')
			s, changed = s[2:], true
		case len(s) >= 6 && s[1] == 'u':
			if r, err := strconv.ParseUint(s[2:6], 16, 16); err == nil {
				b.WriteRune(rune(r))
				s, changed = s[6:], true
				break
			}
			fallthrough
		default:
			n := min(2, len(s))
			b.WriteString(s[:n])
			s = s[n:]
		}
		i = strings.IndexByte(s, '\\')
	}
	b.WriteString(s)
	return b.String(), changed
}

// renameKeys replaces the secret keys of m with their placeholders.
func (z sanitizer) renameKeys(m map[string]any) {
	var renamed []string
	for k := range m {
		if z.secretKey(k) {
			renamed = append(renamed, k)
		}
	}
	for _, k := range renamed {
		e := m[k]
		delete(m, k)
		m[z.keyText(k)] = e
	}
}

// redactAddress shows the secret instance keys of an address (for_each
// keys, module keys) as a placeholder with a digest, so the change stays
// traceable: aws_iam_user.u["(sensitive) 3fa2c1d0"].
func (z sanitizer) redactAddress(addr string) string {
	return mapAddressKeys(addr, func(k string) (string, bool) {
		if z.secretKey(k) || !keyShown(k) { // keyShown: shown.go's allow-list
			return z.keyText(k), true
		}
		return "", false
	})
}

// mapAddressKeys calls f with each quoted instance key of addr and returns
// addr with the keys f replaces (it returns the new key and true) written
// in their place, quoted.
func mapAddressKeys(addr string, f func(key string) (string, bool)) string {
	if !strings.Contains(addr, `["`) {
		return addr
	}
	var b strings.Builder
	i := 0
	for i < len(addr) {
		j := strings.Index(addr[i:], `["`)
		if j < 0 {
			break
		}
		j += i
		end := quotedEnd(addr, j+1)
		if end < 0 {
			break
		}
		key, err := strconv.Unquote(addr[j+1 : end+1])
		b.WriteString(addr[i : j+1])
		if nk, ok := f(key); err == nil && ok {
			b.WriteString(strconv.Quote(nk))
		} else {
			b.WriteString(addr[j+1 : end+1])
		}
		i = end + 1
	}
	if i == 0 {
		return addr
	}
	b.WriteString(addr[i:])
	return b.String()
}

// quotedEnd returns the index of the quote closing the string that starts
// at addr[start] (a quote), or -1.
func quotedEnd(addr string, start int) int {
	for i := start + 1; i < len(addr); i++ {
		switch addr[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// redactIndex is redactAddress for a change's raw index (a JSON value).
func (z sanitizer) redactIndex(raw string) string {
	if len(raw) >= 2 && (raw[0] == '{' || raw[0] == '[') {
		// Not an index Terraform writes; its strings may hold a secret.
		return redactText(raw, z.secrets)
	}
	if len(raw) < 2 || raw[0] != '"' {
		return raw
	}
	var k string
	if json.Unmarshal([]byte(raw), &k) != nil || !z.secretKey(k) && keyShown(k) {
		return raw
	}
	q, _ := json.Marshal(z.keyText(k))
	return string(q)
}

// constant sanitizes a configuration constant_value of the attribute name.
func (z sanitizer) constant(name string, v any) any {
	v = z.sanitize(v, nil, nil, "")
	if v == nil {
		return nil
	}
	if str, ok := v.(string); IsSecretName(name) && hiddenByName(v) || ok && nameSaysSecret(name, str) {
		return z.hide(v)
	}
	return v
}
