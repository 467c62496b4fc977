package planparse

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// pemAcross returns a script longer than the detector's scan window
// (secret.MaxScanLen) with a PEM private key that starts before the window's end
// and ends after it, and the key's base64 lines.
func pemAcross(t *testing.T) (string, []string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	key := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
	var b strings.Builder
	for i := 0; b.Len() < secret.MaxScanLen-len(key)/2; i++ {
		b.WriteString("echo preparing node step ")
		b.WriteString(itoa(i))
		b.WriteString("\n")
	}
	start := b.Len()
	b.WriteString(key)
	if start >= secret.MaxScanLen || b.Len() <= secret.MaxScanLen {
		t.Fatalf("the key spans %d..%d, not the window's end %d", start, b.Len(), secret.MaxScanLen)
	}
	for i := 0; i < 200; i++ {
		b.WriteString("echo done\n")
	}
	var body []string
	for _, l := range strings.Split(strings.TrimSpace(key), "\n") {
		if !strings.HasPrefix(l, "-----") {
			body = append(body, l)
		}
	}
	return b.String(), body
}

// TestRedactHidesPEMKeyAcrossScanWindow: a private key that spans the end
// of the detector's first 64 KiB window of a long text leaves no line of
// it in the output of `planwarden redact`, whether the text is an
// attribute's value (a placeholder for the whole text) or a check's
// message (the detector's overlapping windows and ShownProse), and the
// redacted plan reviews as the original.
func TestRedactHidesPEMKeyAcrossScanWindow(t *testing.T) {
	t.Parallel()
	script, body := pemAcross(t)
	plan := map[string]any{
		"format_version": "1.2", "terraform_version": "1.14.0",
		"resource_changes": []any{map[string]any{"address": "local_file.bootstrap", "mode": "managed", "type": "local_file", "name": "bootstrap",
			"provider_name": "registry.terraform.io/hashicorp/local",
			"change": map[string]any{"actions": []any{"create"}, "before": nil, "after": map[string]any{"content": script, "filename": "boot.sh"},
				"after_unknown": map[string]any{}, "before_sensitive": false, "after_sensitive": map[string]any{}}}},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "resource", "mode": "managed", "type": "local_file", "name": "bootstrap", "to_display": "local_file.bootstrap"},
			"status": "fail", "instances": []any{map[string]any{"address": map[string]any{"to_display": "local_file.bootstrap"}, "status": "fail",
				"problems": []any{map[string]any{"message": "bootstrap failed: " + script}}}}}},
	}
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Redact("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range body {
		if strings.Contains(string(out), l) {
			t.Fatalf("the redacted plan holds a line of the private key: %q", l)
		}
	}
	if strings.Contains(string(out), "PRIVATE KEY") {
		t.Errorf("the redacted plan still says PRIVATE KEY")
	}
	orig, err := Parse("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Parse("plan.json", out)
	if err != nil {
		t.Fatal(err)
	}
	w := NewViewer([]byte("k"), nil)
	at := Place{Type: "local_file", Address: "local_file.bootstrap", Path: "content"}
	if a, b := w.Value(at, orig.Changes[0].After().Get("content")).Text, w.Value(at, red.Changes[0].After().Get("content")).Text; a != b {
		t.Errorf("the script reads %q, redacted %q", a, b)
	}
}
