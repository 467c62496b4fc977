package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvironmentMustBeOneTheConfigKnows: --environment is compared
// exactly with the config's environments (and the built-in ones), a typo
// gets a did-you-mean; for a declared project the config's environment
// wins, for an undeclared one --environment applies.
func TestEnvironmentMustBeOneTheConfigKnows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "planwarden.yml")
	os.WriteFile(cfgFile, []byte("version: 1\nprojects:\n  - name: endpoint\n    environment: prod\nenvironments:\n  dev: {}\n"), 0o644)
	plan := filepath.Join("..", "..", "examples", "plans", "sagemaker-rename.json")
	tests := map[string]struct {
		args       []string
		code       int
		wantEnv    string // the report's environment
		wantStderr string
	}{
		"a typo":                        {[]string{"--environment", "prd"}, exitUsage, "", `--environment "prd" is not an environment of the defaults (no repo config); expected one of: prod, staging (did you mean "prod"?)`},
		"another case":                  {[]string{"--environment", "Prod"}, exitUsage, "", `(did you mean "prod"?)`},
		"not built in":                  {[]string{"--environment", "dev"}, exitUsage, "", `--environment "dev" is not an environment`},
		"declared by the config":        {[]string{"--config", cfgFile, "--environment", "dev", "--project", "other"}, exitOK, "dev", ""},
		"a built-in one":                {[]string{"--environment", "staging"}, exitOK, "staging", ""},
		"the config's project wins":     {[]string{"--config", cfgFile, "--environment", "dev", "--project", "endpoint"}, exitFail, "prod", "puts project endpoint in prod; --environment dev applies only to projects it does not declare"},
		"the config's project, no flag": {[]string{"--config", cfgFile, "--project", "endpoint"}, exitFail, "prod", ""},
		"nobody named it":               {nil, exitFail, "default", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run(append(append([]string{"review", "--format", "json"}, tc.args...), plan), nil, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
			if tc.wantStderr != "" && !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.wantStderr)
			}
			if tc.wantStderr == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			if tc.code == exitUsage {
				return
			}
			var r struct {
				Projects []struct{ Environment string }
			}
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || len(r.Projects) != 1 {
				t.Fatalf("report: %v", err)
			}
			if r.Projects[0].Environment != tc.wantEnv {
				t.Errorf("environment %q, want %q", r.Projects[0].Environment, tc.wantEnv)
			}
		})
	}
}

// TestReviewWithoutConfigSaysSo: the comment of a review made with the
// defaults says in one line that no config was found and how to add one;
// with a config it does not.
func TestReviewWithoutConfigSaysSo(t *testing.T) {
	t.Parallel()
	plan := filepath.Join("..", "..", "examples", "plans", "bucket-lifecycle.json")
	cfgFile := filepath.Join(t.TempDir(), "planwarden.yml")
	os.WriteFile(cfgFile, []byte("version: 1\n"), 0o644)
	for name, tc := range map[string]struct {
		args []string
		want bool
	}{"no config": {nil, true}, "a config": {[]string{"--config", cfgFile}, false}} {
		var stdout, stderr bytes.Buffer
		run(append(append([]string{"review"}, tc.args...), plan), nil, &stdout, &stderr)
		if got := strings.Count(stdout.String(), "No `.github/planwarden.yml` was found") == 1 && strings.Contains(stdout.String(), "`planwarden init`"); got != tc.want {
			t.Errorf("%s: says no config = %v, want %v:\n%.500s", name, got, tc.want, stdout.String())
		}
	}
}

// TestReviewHelpSaysTheEnvironmentRules: review --help, on stdout, says
// what --environment accepts (an environment of the config or a built-in,
// exactly as written, a near miss refused with a did-you-mean) and which
// wins (the config's, for a project it declares).
func TestReviewHelpSaysTheEnvironmentRules(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"review", "--help"}, nil, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("review --help: exit %d, stderr %q", code, stderr.String())
	}
	help := strings.Join(strings.Fields(stdout.String()), " ")
	for _, want := range []string{
		"--environment must name an environment of the repo config (or the built-in prod or staging), exactly as written there",
		"prd or Prod is refused, with a did-you-mean",
		"For a project the config declares with an environment, the config's environment wins and --environment is ignored (saying so on stderr); it applies to projects the config does not declare.",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("review --help does not say %q:\n%s", want, stdout.String())
		}
	}
}
