package planparse

import (
	"strings"
	"testing"
)

// TestSyntaxErrorNamesTheCharacter: a plan that is not valid JSON is
// refused with the character at fault quoted as encoding/json would, a
// control or non-ASCII byte escaped.
func TestSyntaxErrorNamesTheCharacter(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]string{
		`{"format_version":"1.2",'a':1}`:    `invalid character '\'' looking for beginning of object key string`,
		`{"format_version" "1.2"}`:          `invalid character '"' after object key`,
		"{\"format_version\":\"1.2\",\x01}": `invalid character "\x01" looking for beginning of object key string`,
		"{\x1f}":                            `invalid character "\x1f" looking for beginning of object key string`,
		"{\x7f}":                            `invalid character "\x7f" looking for beginning of object key string`,
		"{~}":                               `invalid character '~' looking for beginning of object key string`,
		`{"format_version":"1.2","applyable":tru e}`: `invalid character ' ' in literal true (expecting 'e')`,
		`{"format_version":"1.2","x":"\u00G1"}`:      `invalid character 'G' in \u hexadecimal character escape`,
	} {
		_, err := Parse("plan.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error saying %s", doc, err, want)
		}
	}
}

// TestTruncatedPlans: a plan cut off inside a number or a string escape
// is refused as cut off, not read past its end.
func TestTruncatedPlans(t *testing.T) {
	t.Parallel()
	for _, tail := range []string{`-`, `1.`, `1e`, `1e+`, `"\u00`, `"\u`, `"\`, `"ab\u12`} {
		doc := `{"format_version":"1.2","x":` + tail
		_, err := Parse("plan.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), "unexpected end of JSON input") {
			t.Errorf("Parse(%q) = %v, want unexpected end of JSON input", doc, err)
		}
	}
}

// TestStringEscapesAndBytes: strings read as encoding/json reads them: \u
// escapes in either case of hex digit, surrogate pairs, and a lone
// surrogate or a byte that is not UTF-8 as U+FFFD, with or without other
// escapes in the string.
func TestStringEscapesAndBytes(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`caf\u00e9 \u00C9t\u00E9`:          "café Été",
		`\u00af\u00AF \u00fa\u00Fa \u00b0`: "¯¯ úú °",
		`tab\there \u2603 \/`:              "tab\there ☃ /",
		`\ud83d\ude00`:                     "😀",
		`lone \ud83d!`:                     "lone \uFFFD!",
		"bad \x80 byte":                    "bad \uFFFD byte",
		"bad\\n\x80 byte":                  "bad\n\uFFFD byte",
		"ok\\n\u00e9 \xc3\xa9":             "ok\né é",
	} {
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"description":"`+raw+`"},"after_unknown":{}}}]}`)
		if got, _ := p.Changes[0].After().Get("description").Str(); got != want {
			t.Errorf("%q reads as %q, want %q", raw, got, want)
		}
	}
}

// TestNegativeNumbers: negative numbers keep their sign, short integers
// (read without strconv) as well as long ones and fractions.
func TestNegativeNumbers(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"small":-5,"offset":-3600,"long":-1234567890123456789,"frac":-1.5},"after_unknown":{}}}]}`)
	after := p.Changes[0].After()
	for key, want := range map[string]float64{"small": -5, "offset": -3600, "long": -1234567890123456789, "frac": -1.5} {
		if got, ok := after.Get(key).Float(); !ok || got != want {
			t.Errorf("%s = %v, %v, want %v", key, got, ok, want)
		}
	}
	if got := after.Get("offset").Display(); got != "-3600" {
		t.Errorf("offset shows as %q, want -3600", got)
	}
}
