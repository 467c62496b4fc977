package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	// The fixture's fourth rule uses a lookbehind, which Go's regexp lacks.
	dir := t.TempDir()
	cfg, err := os.ReadFile("testdata/gitleaks/config/gitleaks.toml")
	if err != nil {
		t.Fatal(err)
	}
	good := bytes.Split(cfg, []byte("\n[[rules]]\nid = \"bad\""))[0]
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "gitleaks.toml"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	lic, _ := os.ReadFile("testdata/gitleaks/LICENSE")
	if err := os.WriteFile(filepath.Join(dir, "LICENSE"), lic, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := generate(dir, "v0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(string(src)), " ") // gofmt aligns fields
	for _, want := range []string{
		"DO NOT EDIT", "// Copyright (c) 2019 Zachary Rice", `const gitleaksVersion = "v0.0.1"`,
		`{id: "github-pat", regex: "ghp_[0-9a-zA-Z]{36}", keywords: []string{"ghp_"}, entropy: 3}`, // keywords lower-cased; the path-only allowlist dropped
		`id: "stripe-access-token"`, `target: "line", regexes: []string{"fixture"}`,
		`stopwords: []string{"example"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("generated code lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pkcs12-file") {
		t.Errorf("a path-only rule was kept:\n%s", out)
	}
}

func TestGenerateRefusesARegexGoCannotRun(t *testing.T) {
	_, err := generate("testdata/gitleaks", "v0.0.1")
	if err == nil || !strings.Contains(err.Error(), `rule bad`) {
		t.Errorf("err = %v, want it to name rule bad", err)
	}
}

func TestRunNeedsItsFlags(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(nil, &stderr); code != 2 || !strings.Contains(stderr.String(), "-gitleaks DIR and -version are required") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

// TestCommittedRulesAreGenerated regenerates planparse/internal/secret/gitleaks_rules.go
// when the gitleaks module is in the module cache (go mod download puts it
// there; see docs/secrets.md) and compares it with the committed file.
func TestCommittedRulesAreGenerated(t *testing.T) {
	const version = "v8.30.1"
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, "go", "pkg", "mod")
	}
	dir := filepath.Join(cache, "github.com", "zricethezav", "gitleaks", "v8@"+version)
	if _, err := os.Stat(filepath.Join(dir, "config", "gitleaks.toml")); err != nil {
		t.Skipf("gitleaks %s is not in the module cache (go mod download github.com/zricethezav/gitleaks/v8@%s); skipping", version, version)
	}
	src, err := generate(dir, version)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../../planparse/internal/secret/gitleaks_rules.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, committed) {
		t.Errorf("planparse/internal/secret/gitleaks_rules.go is not what secretrulegen makes of gitleaks %s; regenerate it (docs/secrets.md)", version)
	}
}
