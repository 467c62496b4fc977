package planparse

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// A secret found by its context in a text the notes' filter (mayHideSecret)
// must let through: base64 wrapped in lines (\n escapes in the literal) and
// a credential format a rule finds only after its keyword and an assignment
// (SONAR_LOGIN=, sonar.login:, sonar_token >, a comma, ||).
// Each is hidden where found and also where another resource echoes it
// unmarked; both were shown in the echo before the filter let them through.
func TestFoundByContextIsHiddenWhereEchoed(t *testing.T) {
	t.Parallel()
	script := "#!/bin/bash\nexport DB_PASS=" + foundSecret + "\n/opt/app/start --port 8080 --workers 4 --log-level info\n"
	enc := base64.StdEncoding.EncodeToString([]byte(script))
	var wrapped []string
	for s := enc; s != ""; s = s[min(76, len(s)):] {
		wrapped = append(wrapped, s[:min(76, len(s))])
	}
	tok := "squ_3f9a1c2e7b6d5a4f8e0c1b2a3d4e5f6a7b8c9d0e"
	for what, c := range map[string]struct{ notes, secret string }{
		"base64 wrapped at 76 columns": {strings.Join(wrapped, "\n") + "\n", foundSecret},
		"SONAR_LOGIN= in a script":     {"export SONAR_LOGIN=" + tok + "\nmvn sonar:sonar\n", tok},
		// One line, no "=" or ": ": the rules' other assignments.
		"sonar.login: with no space": {"sonar.login:" + tok, tok},
		"sonar_token > ":             {"sonar_token > " + tok, tok},
		"sonar_token, ":              {"sonar_token, " + tok, tok},
		"sonar_token || ":            {"sonar_token || " + tok, tok},
	} {
		b, _ := json.Marshal(c.notes)
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[`+echoChange(c.secret)+`,{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"notes":`+string(b)+`},"after_unknown":{},"after_sensitive":{}}}]}`)
		for _, ch := range p.Changes {
			if ch.Address == "terraform_data.a" && ch.After().Get("notes").Display() != SensitiveText {
				t.Errorf("%s: not hidden where found", what)
			}
			if ch.Address == "terraform_data.echo" {
				if got := ch.After().Get("tags", "note").Display(); got != SensitiveText {
					t.Errorf("%s: hidden where found, but the echo shows tags.note = %q", what, got)
				}
			}
		}
	}
}
