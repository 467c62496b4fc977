package planparse

import (
	"strings"
	"testing"
)

// TestLastKeyNearTheEndOfTheFile: the reader's notes remember each value
// key by its first eight bytes, read as one word while eight bytes remain
// and byte by byte within the file's last eight. A key there (the last key
// of an extra top-level section or of a variable, in a file with or
// without a final newline; an empty key too) must neither crash the read
// nor lose the plan's secrets: the unmarked password is still hidden where
// another resource echoes it.
func TestLastKeyNearTheEndOfTheFile(t *testing.T) {
	t.Parallel()
	const s = foundSecret
	src := `{"address":"terraform_data.src","mode":"managed","type":"terraform_data","name":"src",
"change":{"actions":["create"],"before":null,"after":{"password":"` + s + `"},"after_unknown":{},"after_sensitive":{}}}`
	ran := 0
	head := `{"format_version":"1.2","resource_changes":[` + echoChange(s) + `,` + src + `]`
	for _, key := range []string{"", "a", "pw", "key", "pass", "token", "secret"} {
		for _, tail := range []string{
			`,"x":{"` + key + `":1}}`,
			`,"x":{"k":{"` + key + `":1}}}`,
			`,"variables":{"` + key + `":1}}`,
		} {
			for _, nl := range []string{"", "\n"} {
				doc := head + tail + nl
				if i := strings.LastIndex(doc, `"`+key+`"`) + 1; len(doc)-i >= 8 {
					continue // not near the end: the word-at-a-time path
				}
				ran++
				p := mustParse(t, "plan.json", doc)
				for _, c := range p.Changes {
					if c.Address != "terraform_data.echo" {
						continue
					}
					if got := c.After().Get("tags", "note").Display(); got != SensitiveText {
						t.Errorf("last key %q (%q): tags.note = %q, want %s", key, tail+nl, got, SensitiveText)
					}
				}
			}
		}
	}
	if ran < 13 {
		t.Fatalf("only %d plans end with their last key in the last eight bytes", ran)
	}
}
