package planparse

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// `planwarden redact` hides a Pulumi preview's and a stack what-if's
// secrets, and the redacted file reads as the original does.
func TestRedactPulumiAndStackWhatIf(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		path, secret string
	}{
		"Pulumi plaintext secret":  {"testdata/pulumi/ops.json", "hf_pulumiFixtureSecretValue123"},
		"stack what-if's password": {"testdata/stackwhatif/stack-rg.json", "Pa55-w0rd-stack-fixture!"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(tc.secret)) {
				t.Fatalf("the fixture lacks its secret %q", tc.secret)
			}
			out, err := Redact(tc.path, data)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(out, []byte(tc.secret)) {
				t.Errorf("the redacted file still holds %q", tc.secret)
			}
			orig, err := Parse(tc.path, data)
			if err != nil {
				t.Fatal(err)
			}
			red, err := Parse(tc.path, out)
			if err != nil {
				t.Fatalf("the redacted file: %v", err)
			}
			if orig.Tool != red.Tool {
				t.Errorf("tool %q, redacted %q", orig.Tool, red.Tool)
			}
			if diff := cmp.Diff(changeViews(orig), changeViews(red)); diff != "" {
				t.Errorf("the redacted file reads differently (-orig +redacted):\n%s", diff)
			}
			for i, c := range orig.Changes {
				if got, want := diffLines(red.Changes[i]), diffLines(c); !cmp.Equal(got, want) {
					t.Errorf("%s: diff %v, redacted %v", c.Address, want, got)
				}
			}
		})
	}
}
