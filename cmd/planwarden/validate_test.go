package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goodConfig = "version: 1\nprojects:\n  - name: aks-gpu\n    environment: prod\nenvironments:\n  dev: {}\n"

const badConfig = "version: 1\nrules:\n  gpu-sku-los: {}\n  iam-admin:\n    severity: loud\n"

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := map[string]struct {
		files      map[string]string // in the working directory
		args       []string
		stdin      string
		code       int
		stdout     string
		stderr     string
		stderrHead string // when set, only the start of stderr is compared
	}{
		"valid config by flag": {
			files:  map[string]string{"cfg.yml": goodConfig},
			args:   []string{"--config", "cfg.yml"},
			code:   exitOK,
			stdout: "cfg.yml: ok (version 1, 1 project, 3 environments, 0 custom rules, protected: prod)\n",
		},
		"errors with file and line": {
			files: map[string]string{"cfg.yml": badConfig},
			args:  []string{"--config", "cfg.yml"},
			code:  exitUsage,
			stderr: `cfg.yml:3: unknown key "gpu-sku-los" in rules; expected one of: gpu-sku-loss, gpu-pool-sku, gpu-pool-taint, required-tags, endpoint-replacement, cost-increase, unpriced-sku, allowed-skus, iam-admin, stateful-delete, retired-sku, action-invocation, gpu-capacity-gap, gpu-increase, sku-unknown (did you mean "gpu-sku-loss"?)` + "\n" +
				`cfg.yml:5: rules.iam-admin.severity: "loud" is not allowed; expected one of: block, warn, info, off` + "\n" +
				"planwarden validate: cfg.yml: 2 problems\n",
		},
		"finds .github/planwarden.yml first": {
			files:  map[string]string{".github/planwarden.yml": goodConfig, ".planwarden.yml": badConfig},
			code:   exitOK,
			stdout: ".github/planwarden.yml: ok (version 1, 1 project, 3 environments, 0 custom rules, protected: prod)\n",
		},
		"finds .planwarden.yml at the root": {
			files:      map[string]string{".planwarden.yml": badConfig},
			code:       exitUsage,
			stderrHead: `.planwarden.yml:3: unknown key "gpu-sku-los"`,
		},
		"no config": {
			code:   exitOK,
			stdout: "no .github/planwarden.yml or .planwarden.yml here: planwarden applies its defaults\n",
		},
		"a config planwarden would not read": {
			files:  map[string]string{".github/planwarden.yaml": goodConfig},
			code:   exitUsage,
			stderr: "planwarden validate: found .github/planwarden.yaml, but planwarden reads only .github/planwarden.yml or .planwarden.yml; rename it to .github/planwarden.yml\n",
		},
		"empty config is the defaults": {
			files:  map[string]string{".github/planwarden.yml": "# later\n"},
			code:   exitOK,
			stdout: ".github/planwarden.yml: ok (version 1, 0 projects, 2 environments, 0 custom rules, protected: prod)\n",
		},
		"standard input": {
			args:   []string{"--config", "-"},
			stdin:  "version: 1\nenvironments:\n  prod: {protected: yes please}\n",
			code:   exitUsage,
			stderr: "<stdin>:3: environments.prod.protected: expected true or false, got \"yes please\"\nplanwarden validate: <stdin>: 1 problem\n",
		},
		"missing file": {
			args:   []string{"--config", "nope.yml"},
			code:   exitUsage,
			stderr: "planwarden validate: read config: open nope.yml: no such file or directory\n",
		},
		"stray argument": {
			args:       []string{"cfg.yml"},
			code:       exitUsage,
			stderrHead: "planwarden validate: unexpected argument \"cfg.yml\" (use --config FILE)\nusage: planwarden validate",
		},
		"unknown flag": {
			args:       []string{"--strict"},
			code:       exitUsage,
			stderrHead: "planwarden validate: flag provided but not defined: -strict\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"validate"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if diff := cmp.Diff(tc.stdout, stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if tc.stderrHead != "" {
				if !strings.HasPrefix(stderr.String(), tc.stderrHead) {
					t.Errorf("stderr starts:\n%s\nwant it to start:\n%s", stderr.String(), tc.stderrHead)
				}
			} else if diff := cmp.Diff(tc.stderr, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateSchema(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--schema"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s struct {
		Schema     string         `json:"$schema"`
		Required   []string       `json:"required"`
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if s.Schema != "http://json-schema.org/draft-07/schema#" || !cmp.Equal(s.Required, []string{"version"}) || s.Properties["custom_rules"] == nil {
		t.Errorf("schema head = %q, required %v, has custom_rules %v", s.Schema, s.Required, s.Properties["custom_rules"] != nil)
	}
}

func TestValidateIsListed(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	run([]string{"help"}, strings.NewReader(""), &stdout, &stderr)
	if !strings.Contains(stdout.String(), "  validate  check a repo config") {
		t.Errorf("help (on standard output) does not list validate:\n%s", stdout.String())
	}
}
