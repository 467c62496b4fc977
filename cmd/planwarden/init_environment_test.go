package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/rules"
)

// TestInitWritesEachProjectsEnvironmentFromItsPath: init reads each root
// module's environment from the words of its path (envs/prod,
// environments/staging, gpu-dev) and writes it into the config, which
// validate accepts; a root whose path names none gets no environment, so
// it is judged as strictly as prod (as without a config), and the config
// and init's output say to set it.
func TestInitWritesEachProjectsEnvironmentFromItsPath(t *testing.T) {
	t.Parallel()
	const provider = "provider \"azurerm\" {\n  features {}\n}\n"
	root := writeRepo(t, map[string]string{
		"envs/prod/main.tf":              provider,
		"environments/staging/main.tf":   "terraform {\n  backend \"azurerm\" {}\n}\n",
		"stacks/gpu-dev/main.tf":         provider,
		"stacks/production-east/main.tf": provider,
		"stacks/serving/main.tf":         provider,
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", root}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("init: exit %d\n%s", code, stderr.String())
	}
	cfgFile := filepath.Join(root, ".github", "planwarden.yml")
	var vout, verr bytes.Buffer
	if code := run([]string{"validate", "--config", cfgFile}, nil, &vout, &verr); code != exitOK || verr.Len() > 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, vout.String(), verr.String())
	}
	cfg, err := rules.LoadConfig(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		"envs/prod":              "prod",
		"environments/staging":   "staging",
		"stacks/gpu-dev":         "dev",
		"stacks/production-east": "prod",
		"stacks/serving":         "",
	} {
		p, ok := cfg.Project(dir)
		if !ok {
			t.Errorf("no project in %s: %+v", dir, cfg.Projects)
			continue
		}
		if got := cfg.EnvironmentOf(p.Name); got != want {
			t.Errorf("project %s in %s: environment %q, want %q", p.Name, dir, got, want)
		}
	}
	if !cfg.IsProtected(cfg.EnvironmentOf("prod")) {
		t.Errorf("envs/prod's project is not in a protected environment")
	}
	if _, ok := cfg.Environment("dev"); !ok {
		t.Errorf("dev, which gpu-dev's path names, is not declared")
	}
	if !strings.Contains(stderr.String(), "found terraform project serving in stacks/serving (no environment in its path: set it in the config; until then it is judged as prod)") {
		t.Errorf("init does not say serving's environment is to be set:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "found terraform project prod in envs/prod (environment prod)") {
		t.Errorf("init does not say prod's environment:\n%s", stderr.String())
	}
}
