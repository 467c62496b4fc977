package planparse

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// TestEncodingLayersLookedThrough: the detector decodes a base64 blob and
// searches what it holds, three layers deep at most (each layer is another
// decode of a hostile plan's string, so the work stays bounded). A DB_PASS=
// in a script encoded three times is hidden; encoded four times it is
// shown, and so is the same script's public line.
func TestEncodingLayersLookedThrough(t *testing.T) {
	t.Parallel()
	script := "#!/bin/bash\nexport DB_PASS=" + foundSecret + "\n/opt/app/start\n"
	wrap := func(n int) string {
		s := script
		for range n {
			s = base64.StdEncoding.EncodeToString([]byte(s))
		}
		return s
	}
	for layers, hidden := range map[int]bool{1: true, 2: true, 3: true, 4: false, 5: false} {
		blob := wrap(layers)
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"notes":"`+blob+`"},"after_unknown":{},"after_sensitive":{}}}]}`)
		got := p.Changes[0].After().Get("notes").Display()
		if hidden && got != SensitiveText {
			t.Errorf("%d layers of base64: notes = %.40q…, want %s", layers, got, SensitiveText)
		}
		if !hidden && !strings.Contains(got, blob) {
			t.Errorf("%d layers of base64 (beyond the three looked through): notes = %q, want the blob shown", layers, got)
		}
	}
}

// TestRuleSecretGroup: a rule whose secret is not its first group (the
// SonarQube token: group 1 is the word login or token, group 2 the token)
// hides the token in a log line, not the word before it.
func TestRuleSecretGroup(t *testing.T) {
	t.Parallel()
	tok := "squ_3f9a1c2e7b6d5a4f8e0c1b2a3d4e5f6a7b8c9d0e"
	for line, want := range map[string]string{
		"SONAR_LOGIN=" + tok:                            "SONAR_LOGIN=" + SensitiveText,
		"sonar.login: " + tok:                           "sonar.login: " + SensitiveText,
		"mvn sonar:sonar -Dsonar.login=" + tok + " -X":  "mvn sonar:sonar -Dsonar.login=" + SensitiveText + " -X",
		"ci: sonar_login => '" + tok + "' (from vault)": "ci: sonar_login => '" + SensitiveText + "' (from vault)",
	} {
		if got := RedactText(line); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestWrappedBase64Decoded: base64 wrapped at 76 columns (the base64
// command, openssl, MIME) with \n or \r\n line breaks is decoded like an
// unwrapped blob: the script it encodes holds a DB_PASS=, so it is hidden.
func TestWrappedBase64Decoded(t *testing.T) {
	t.Parallel()
	script := "#!/bin/bash\nset -eu\nexport APP_ENV=production\nexport DB_PASS=" + foundSecret + "\n/opt/app/start --port 8080 --workers 4\n"
	enc := base64.StdEncoding.EncodeToString([]byte(script))
	for _, nl := range []string{"", "\n", "\r\n"} {
		var lines []string
		for s := enc; s != ""; {
			n := min(76, len(s))
			if nl == "" {
				n = len(s)
			}
			lines = append(lines, s[:n])
			s = s[n:]
		}
		blob := strings.Join(lines, nl) + nl
		b, err := json.Marshal(blob)
		if err != nil {
			t.Fatal(err)
		}
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"notes":`+string(b)+`},"after_unknown":{},"after_sensitive":{}}}]}`)
		if got := p.Changes[0].After().Get("notes").Display(); got != SensitiveText {
			t.Errorf("line breaks %q: notes = %.40q…, want %s", nl, got, SensitiveText)
		}
	}
}
