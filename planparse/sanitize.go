package planparse

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// seed keys the digests of hidden values; it is per process, so a digest
// means nothing outside it.
var seed = maphash.MakeSeed()

// decodeValue decodes raw JSON, then redacts what the sensitivity tree
// marks, secret-looking keys and known secret values, and marks what the
// unknown tree marks.
func decodeValue(raw, sens, unk []byte, secrets *secret.Set) (Value, error) {
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
	v, err := jsonscan.Decode(raw)
	*into = v
	return err
}

// sanitizer replaces what is secret in a value tree. In review mode (the
// zero redactKey) hidden values become sensitive markers; in redact mode
// (`planwarden redact`) they become placeholder strings that a later
// review reads as sensitive again.
type sanitizer struct {
	secrets   *secret.Set
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
	return secret.RedactedPrefix + fmt.Sprintf("%08x", uint32(z.digest(b)>>32))
}

// hide replaces a secret value.
func (z sanitizer) hide(x any) any {
	if _, ok := x.(sensitive); ok {
		return x
	}
	if z.redactKey == nil {
		return redact(x)
	}
	if s, ok := x.(string); ok && secret.IsRedacted(s) {
		return s
	}
	return secret.RedactedPrefix + fmt.Sprintf("%08x", uint32(z.digestValue(x)>>32))
}

// keyText is what a secret map key or for_each key reads as.
func (z sanitizer) keyText(k string) string {
	if secret.IsRedacted(k) {
		return k
	}
	return z.placeholder([]byte(k))
}

// secretString reports whether a string leaf under name (of class c) is
// secret: one holding a known secret, or what the detector finds. sanitize
// has ruled out redacted text and a known secret equal to s.
func (z sanitizer) secretString(s, name string, c secret.NameClass) bool {
	if z.secrets.Holds(s) {
		return true
	}
	if z.secrets.Len() > 0 {
		// A known secret base64-encoded (a user_data script, a
		// Kubernetes secret's data) is hidden like the secret.
		if text, ok := secret.DecodeBlob(s); ok && z.secrets.Contains(text) {
			return true
		}
		// A document in a string (a policy, a JSON-encoded map) may
		// write the secret with \u escapes or an escaped slash.
		if text, ok := unescapeJSON(s); ok && z.secrets.Contains(text) {
			return true
		}
	}
	return z.secrets.HasClass(s, name, c)
}

// secretKey reports whether a map key or an instance key is secret.
func (z sanitizer) secretKey(k string) bool {
	if len(k) < secret.MinLen || secret.IsRedacted(k) {
		return false
	}
	return z.secrets.Contains(k) || secret.InKey(k)
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
	if str, ok := x.(string); ok && secret.IsRedacted(str) {
		// A value `planwarden redact` (or a person) already hid.
		return z.hide(str)
	} else if ok && isTextPlaceholder(str) {
		// A text `planwarden redact` replaced (redact_text.go): only
		// digests, which the review reads as the text they stand for.
		return str
	}
	if z.secrets.Has(x) {
		return z.hide(x)
	}
	var cls secret.NameClass // what key says, for the checks below
	if key != "" && secret.Hideable(x) {
		if cls = secret.Classify(key); cls&secret.NameSecret != 0 {
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
			if k == "value" && pairName != "" && secret.NameSays(pairName, pairValue) {
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
		return secret.Redact(raw, z.secrets)
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
	if str, ok := v.(string); IsSecretName(name) && secret.Hideable(v) || ok && secret.NameSays(name, str) {
		return z.hide(v)
	}
	return v
}
