package planparse

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"strings"
)

// seed keys the digests of hidden values; it is per process, so a digest
// means nothing outside it.
var seed = maphash.MakeSeed()

func redact(x any) sensitive {
	b, _ := json.Marshal(x)
	return sensitive{sum: maphash.Bytes(seed, b)}
}

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
var publicKeyNames = []string{"public_key", "key_name", "token_expiry", "secret_name", "secret_arn", "secret_id", "kms_key_id", "key_vault_secret_id", "access_key_id_name", "password_enabled", "password_authentication"}

// secretHints are cheap substrings at least one of which every secret
// word contains; a name with none of them is not secret.
var secretHints = []string{"pass", "secret", "token", "key", "conn", "cred", "sas_", "data", "config", "cert"}

// IsSecretName reports whether an attribute name says it holds a secret.
func IsSecretName(name string) bool {
	n := name
	for i := 0; i < len(n); i++ {
		if c := n[i]; c >= 'A' && c <= 'Z' {
			n = strings.ToLower(name)
			break
		}
	}
	hinted := false
	for _, h := range secretHints {
		if strings.Contains(n, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		return false
	}
	for _, p := range publicKeyNames {
		if strings.Contains(n, p) {
			return false
		}
	}
	if strings.HasPrefix(n, "disable_") || strings.HasSuffix(n, "_enabled") || strings.HasSuffix(n, "_version") {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// secretSet holds every value a plan marks sensitive anywhere. Terraform
// does not always mark a value everywhere it appears (terraform_data's
// output echoes a sensitive input unmarked, plan variables hold sensitive
// values in clear), so a leaf equal to a known secret is redacted too.
type secretSet map[string]struct{}

// minSecretLen keeps short, common values ("true", "1") from being
// redacted everywhere because one of them was marked somewhere.
const minSecretLen = 4

func (s secretSet) has(x any) bool {
	if len(s) == 0 {
		return false
	}
	var str string
	switch t := x.(type) {
	case string:
		str = t
	case json.Number:
		str = t.String()
	case float64:
		str = formatFloat(t)
	default:
		return false
	}
	if len(str) < minSecretLen {
		return false
	}
	_, ok := s[str]
	return ok
}

// collect adds the leaves of raw that sens marks sensitive.
func (s secretSet) collect(raw, sens []byte) {
	if len(raw) == 0 || !bytes.Contains(sens, []byte("true")) {
		return
	}
	var v, m any
	if decodeNumber(raw, &v) != nil || decodeNumber(sens, &m) != nil {
		return
	}
	s.walk(v, m)
}

func (s secretSet) walk(v, mark any) {
	if b, ok := mark.(bool); ok && b {
		s.addAll(v)
		return
	}
	switch t := v.(type) {
	case map[string]any:
		mm, _ := mark.(map[string]any)
		for k, e := range t {
			s.walk(e, mm[k])
		}
	case []any:
		ml, _ := mark.([]any)
		for i, e := range t {
			if i < len(ml) {
				s.walk(e, ml[i])
			}
		}
	}
}

func (s secretSet) addAll(v any) {
	switch t := v.(type) {
	case string:
		if len(t) >= minSecretLen {
			s[t] = struct{}{}
		}
	case json.Number:
		if len(t) >= minSecretLen {
			s[t.String()] = struct{}{}
		}
	case float64:
		if str := formatFloat(t); len(str) >= minSecretLen {
			s[str] = struct{}{}
		}
	case map[string]any:
		for _, e := range t {
			s.addAll(e)
		}
	case []any:
		for _, e := range t {
			s.addAll(e)
		}
	}
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
	return Value{v: sanitizer{secrets}.sanitize(v, s, u, "")}, nil
}

func decodeNumber(raw []byte, into *any) error {
	// Numbers decode as float64 (exact for every integer up to 2^53), as
	// encoding/json decodes them; the scanner (scan.go) limits nesting.
	v, err := decodeJSON(raw)
	*into = v
	return err
}

// sanitize returns x with sensitive leaves replaced by markers. sens is the
// matching node of the sensitivity tree (true marks the whole subtree), unk
// that of the unknown tree, key the attribute name x sits under.
type sanitizer struct{ secrets secretSet }

func (z sanitizer) sanitize(x, sens, unk any, key string) any {
	if b, ok := sens.(bool); ok && b {
		return redact(x)
	}
	if b, ok := unk.(bool); ok && b {
		return unknown{}
	}
	if z.secrets.has(x) {
		return redact(x)
	}
	if key != "" && IsSecretName(key) && x != nil {
		if s, ok := x.(string); !ok || s != "" {
			return redact(x)
		}
	}
	switch t := x.(type) {
	case map[string]any:
		sm, _ := sens.(map[string]any)
		um, _ := unk.(map[string]any)
		for k, e := range t {
			t[k] = z.sanitize(e, sm[k], um[k], k)
		}
		// Unknown attributes are absent from "after"; show them.
		for k, e := range um {
			if _, ok := t[k]; !ok {
				if b, ok := e.(bool); ok && b {
					t[k] = unknown{}
				}
			}
		}
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
