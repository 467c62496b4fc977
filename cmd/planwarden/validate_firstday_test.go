package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateCatchesFirstDayBreaks: validate, run on a repository's
// config, names the line of a directory that is not there and of a custom
// rule that cannot type-check (exit 2), and warns about an allow-list SKU
// no catalog knows (exit 0); the same config without them is clean.
func TestValidateCatchesFirstDayBreaks(t *testing.T) {
	t.Parallel()
	const clean = `version: 1
projects:
  - name: gpu
    directory: infra/gpu
    environment: prod
environments:
  prod:
    protected: true
    allowed_skus: [Standard_NC24ads_A100_v4]
custom_rules:
  - id: no-h100-in-dev
    when: change.sku.gpu_model.contains("H100") && project.environment == "dev"
    message: m
`
	tests := map[string]struct {
		from, to   string
		code       int
		wantStderr string
	}{
		"the clean config":     {code: exitOK},
		"a missing directory":  {from: "directory: infra/gpu", to: "directory: infra/gpus", code: exitUsage, wantStderr: `.github/planwarden.yml:4: projects[0].directory: directory "infra/gpus" does not exist in the repository (did you mean "infra/gpu"?)`},
		"a CEL type error":     {from: `gpu_model.contains("H100")`, to: `gpu_model > 100`, code: exitUsage, wantStderr: `.github/planwarden.yml:12: custom_rules[0].when: custom rule "no-h100-in-dev" does not type-check`},
		"an unknown SKU warns": {from: "Standard_NC24ads_A100_v4]", to: "Standard_NC24ads_A100]", code: exitOK, wantStderr: `.github/planwarden.yml:9: warning: environments.prod.allowed_skus[0]: SKU "Standard_NC24ads_A100" is not in planwarden's catalog`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := t.TempDir()
			os.MkdirAll(filepath.Join(repo, "infra", "gpu"), 0o755)
			os.MkdirAll(filepath.Join(repo, ".github"), 0o755)
			cfg := clean
			if tc.from != "" {
				if !strings.Contains(cfg, tc.from) {
					t.Fatalf("the clean config has no %q", tc.from)
				}
				cfg = strings.Replace(cfg, tc.from, tc.to, 1)
			}
			file := filepath.Join(repo, ".github", "planwarden.yml")
			os.WriteFile(file, []byte(cfg), 0o644)
			var stdout, stderr bytes.Buffer
			code := run([]string{"validate", "--config", file}, nil, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.code, stdout.String(), stderr.String())
			}
			rel := strings.ReplaceAll(stderr.String(), repo+string(filepath.Separator), "")
			if tc.wantStderr == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			if tc.wantStderr != "" && !strings.Contains(rel, tc.wantStderr) {
				t.Errorf("stderr %q, want %q", rel, tc.wantStderr)
			}
			if tc.code == exitOK && !strings.Contains(stdout.String(), ": ok (version 1, 1 project") {
				t.Errorf("stdout %q, want the ok summary", stdout.String())
			}
		})
	}
}
