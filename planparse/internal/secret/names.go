package secret

import (
	"slices"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/mem"
)

// NameSays reports whether a value under this name is a secret:
// IsName's attribute names, and the names modules give environment
// variables and settings: *_PASS / *PWD always, *SECRET* and *TOKEN*
// unless the name is public by design, *_KEY, *AUTH* and *CRED* when the
// value looks random (a key name or an ARN is not a key).
func NameSays(name, value string) bool {
	if value == "" {
		return false
	}
	return classSaysSecret(Classify(name), value)
}

// classSaysSecret is NameSays for a name already classified.
func classSaysSecret(c NameClass, value string) bool {
	if value == "" || !nameVerdict(c, value) || isPlainURL(value) {
		return false
	}
	// Last: the allowlist's regexes are the costly part.
	return !isPlaceholderValue(value)
}

func nameVerdict(c NameClass, value string) bool {
	switch {
	case c&NameSecret != 0 || c&namePass != 0:
		return true
	case c&nameKey != 0:
		return looksRandom(value)
	}
	return false
}

// NameClass is what a name says about its value.
type NameClass uint8

const (
	NameSecret NameClass = 1 << iota // IsName
	namePass                         // *_PASS, *PWD, passphrase: always secret
	nameKey                          // *_KEY, *AUTH*, *CRED*, *DSN: secret when the value looks random
)

// nameCache memoizes Classify: attribute names repeat across a plan's
// values (map keys can be data: the memo is bounded).
var nameCache = mem.NewMemo[NameClass](2048, 128)

func Classify(name string) NameClass {
	if c, ok := nameCache.Get(name); ok {
		return c
	}
	c := classifyName(name)
	nameCache.Put(name, c)
	return c
}

func classifyName(name string) NameClass {
	if IsName(name) {
		return NameSecret
	}
	n := lowerASCII(name)
	if !strings.Contains(n, "pass") && !strings.Contains(n, "pwd") && !strings.HasSuffix(n, "key") &&
		!strings.Contains(n, "auth") && !strings.Contains(n, "cred") && !strings.HasSuffix(n, "dsn") {
		return 0
	}
	if publicName(n, SnakeName(name)) {
		return 0
	}
	switch {
	case strings.HasSuffix(n, "pass") || strings.HasSuffix(n, "pwd") || strings.Contains(n, "pass_") || strings.Contains(n, "passphrase"):
		if !strings.HasSuffix(n, "bypass") && !strings.Contains(n, "compass") {
			return namePass
		}
	case strings.HasSuffix(n, "key") || strings.Contains(n, "auth") || strings.Contains(n, "cred") || strings.HasSuffix(n, "dsn"):
		return nameKey
	}
	return 0
}

// lowerASCII lower-cases s, allocating only when s has an upper-case letter.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// isPlainURL is an http(s) URL with neither userinfo nor a query: an
// endpoint, whatever its name (token_url). Secret URLs (webhooks, signed
// URLs, URLs with a password) are found by their format.
func isPlainURL(v string) bool {
	rest, ok := strings.CutPrefix(v, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(v, "http://")
	}
	return ok && !strings.ContainsAny(rest, "@? \t\n")
}

// isPlaceholderValue is a value that only names a secret: a marker, a
// reference or an interpolation.
func isPlaceholderValue(v string) bool {
	switch {
	case v == Sensitive || v == unknownText || IsRedacted(v):
		return true
	case strings.HasPrefix(v, "${") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "arn:"):
		return true
	}
	return getDetector().global.allows(v, v, v)
}

// looksRandom is a value with the shape of a generated key: at least 16
// characters of a key alphabet (base64, hex, tokens; no dots, colons or
// spaces, so no file name, ARN, host or sentence), letters and digits
// mixed, high entropy, and not a UUID (resource ids are).
func looksRandom(v string) bool {
	if len(v) < 16 || isUUID(v) {
		return false
	}
	letters, digits := false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c >= '0' && c <= '9':
			digits = true
		case c == '+' || c == '/' || c == '=' || c == '_' || c == '-':
		default:
			return false
		}
	}
	return letters && digits && v[0] != '/' && shannon(v) >= 3.5
}

func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
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
var publicKeyNames = []string{"public_key", "key_name", "token_expiry", "secret_name", "secret_arn", "secret_id", "kms_key_id", "key_vault_secret_id", "access_key_id_name", "password_enabled", "password_authentication",
	// References to a secret, not the secret: Kubernetes and Helm names,
	// AWS service prefixes, OAuth endpoints.
	"existingsecret", "existing_secret", "secretname", "secretref", "secret_ref", "keyref", "passwordkey", "password_key_name", "secretsmanager",
	"token_url", "tokenurl", "token_uri", "token_endpoint"}

// publicPrefixes and publicSuffixes are the first and last words that make
// a name a switch or a setting about a secret.
var (
	publicPrefixes = []string{"disable_", "enable_"}
	publicSuffixes = []string{"_enabled", "_version", "_authentication", "_profile", "_policy", "_settings",
		"_options", "_properties", "_mode", "_type", "_length", "_count"}
)

// secretHints are cheap substrings at least one of which every secret
// word contains; a name with none of them is not secret.
var secretHints = []string{"pass", "secret", "token", "key", "conn", "cred", "sas_", "data", "config", "cert"}

// Words returns the substrings of attribute names that make a name secret
// (IsName), for a table that must have a row for each.
func Words() []string { return slices.Clone(secretWords) }

// IsName reports whether an attribute name says it holds a secret.
// Names are read as words: snake_case, and camelCase or PascalCase (ARM,
// Bicep, Kubernetes) split where a lower-case letter or digit meets a
// capital, so adminPassword reads as admin_password and
// disablePasswordAuthentication as disable_password_authentication (a
// switch, public).
func IsName(name string) bool {
	n, words := lowerASCII(name), SnakeName(name)
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

// SnakeName lower-cases name and puts an underscore where camelCase starts
// a word: adminPassword, AdminPassword -> admin_password; APIKey -> api_key;
// DB_PASS -> db_pass; ADMINPASSWORD -> adminpassword.
func SnakeName(name string) string {
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

// Hideable reports whether a value under a secret name is hidden for
// the name alone: a boolean never is (a switch; a marked one is hidden by
// its mark), nor an empty string. A number is: a numeric PIN or password
// is still one (settings about a secret, such as password_length, have
// public names).
func Hideable(x any) bool {
	switch t := x.(type) {
	case nil, bool:
		return false
	case string:
		return t != ""
	}
	return true
}

// armSecretNames are ARM property names that hold secrets but that
// IsName, written for Terraform's snake_case, does not catch.
var armSecretNames = map[string]bool{
	"customdata": true, "protectedsettings": true, "primarykey": true, "secondarykey": true,
	"primarymasterkey": true, "secondarymasterkey": true, "sastoken": true, "storageaccountkey": true,
	"adminpassword": true, "userdata": true,
}

// IsARMName reports whether an ARM property name, or any name (IsName),
// says it holds a secret.
func IsARMName(name string) bool {
	return armSecretNames[strings.ToLower(name)] || IsName(name)
}
