package planparse

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Redact hides what the review hides in action configs and in what-if
// payloads and deltas, and the redacted file reviews the same.
func TestRedactActionsAndWhatIf(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		file    string
		secrets []string
	}{
		"action config marked sensitive": {actionsFixture, []string{"dr41n-t0ken-7f3a9c"}},
		"what-if payloads and deltas":    {"testdata/whatif/sub-two-groups.json", []string{"Hunter2", "I2Nsb3Vk", "very-secret-ext"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.secrets {
				if !strings.Contains(string(data), s) {
					t.Fatalf("fixture lacks %q: the test would prove nothing", s)
				}
			}
			out, err := Redact(tc.file, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.secrets {
				if strings.Contains(string(out), s) {
					t.Errorf("%q is still in the redacted file", s)
				}
			}
			orig, err := Parse(tc.file, data)
			if err != nil {
				t.Fatal(err)
			}
			red, err := Parse(tc.file, out)
			if err != nil {
				t.Fatalf("the redacted file does not parse: %v", err)
			}
			if d := cmp.Diff(changeViews(orig), changeViews(red)); d != "" {
				t.Errorf("changes differ after redaction (-orig +redacted):\n%s", d)
			}
			for i := range orig.Changes {
				if d := cmp.Diff(diffLines(orig.Changes[i]), diffLines(red.Changes[i])); d != "" {
					t.Errorf("%s: diff differs after redaction (-orig +redacted):\n%s", orig.Changes[i].Address, d)
				}
			}
			for i := range orig.Actions {
				if a, b := orig.Actions[i].Config.Display(), red.Actions[i].Config.Display(); a != b {
					t.Errorf("action config differs after redaction:\n%s\n%s", a, b)
				}
			}
		})
	}
}
