package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// writeRepo lays out files (path -> content) under a new directory.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// twoRootsAndAShared is the first day's repository: two root modules
// that call one shared module, which calls another.
var twoRootsAndAShared = map[string]string{
	"infra/prod/gpu/main.tf":        "terraform {\n  backend \"s3\" {}\n}\nmodule \"pool\" {\n  source = \"../../../modules/gpu-pool\"\n}\n",
	"infra/serving/main.tf":         "provider \"aws\" {\n  region = \"us-east-1\"\n}\nmodule \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n",
	"modules/gpu-pool/main.tf":      "module \"tags\" {\n  source = \"../tags\"\n}\nprovider \"azurerm\" {\n  features {}\n}\n",
	"modules/tags/main.tf":          "variable \"team\" {}\n",
	"infra/serving/.terraform/x.tf": "provider \"null\" {}\n",
	"README.md":                     "# infra\n",
}

// TestInitFindsRootModules: roots are the directories with a backend or a
// provider block that no other root calls; each project's paths are its
// directory and the local modules it calls, transitively; its environment
// comes from its path, else none (guessed: judged as strictly as prod).
func TestInitFindsRootModules(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []foundProject
	}{
		"two roots and a shared module": {twoRootsAndAShared, []foundProject{
			{name: "gpu", dir: "infra/prod/gpu", tool: toolTerraform, modules: []string{"modules/gpu-pool", "modules/tags"}, env: "prod"},
			{name: "serving", dir: "infra/serving", tool: toolTerraform, envGuessed: true},
		}},
		"environments by directory": {map[string]string{
			"environments/staging/main.tf": "terraform {\n  cloud {}\n}\n",
			"environments/prod/main.tf":    "terraform {\n  backend \"azurerm\" {}\n}\n",
		}, []foundProject{
			{name: "prod", dir: "environments/prod", tool: toolTerraform, env: "prod"},
			{name: "staging", dir: "environments/staging", tool: toolTerraform, env: "staging"},
		}},
		"a module without backend or provider is no root": {map[string]string{
			"modules/x/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n",
		}, nil},
		"a module source leaving the repository is not a path": {map[string]string{
			"gpu-dev/main.tf": "provider \"aws\" {}\nmodule \"m\" {\n  source = \"../../elsewhere\"\n}\n",
		}, []foundProject{{name: "gpu-dev", dir: "gpu-dev", tool: toolTerraform, env: "dev"}}},
		"JSON Terraform files": {map[string]string{
			"stack/main.tf.json": `{"provider": {"aws": {"region": "us-east-1"}}, "module": {"m": {"source": "../mods/m"}}}`,
		}, []foundProject{{name: "stack", dir: "stack", tool: toolTerraform, modules: []string{"mods/m"}, envGuessed: true}}},
		"a Bicep entry point and its module files": {map[string]string{
			"bicep/gpu-vm/main.bicep":     "module vm './vm.bicep' = {}\nmodule net '../shared/net.bicep' = {}\nmodule reg 'br:mcr.microsoft.com/x:1' = {}\n",
			"bicep/gpu-vm/vm.bicep":       "",
			"bicep/shared/net.bicep":      "",
			"bicep/gpu-vm/parameters.txt": "",
		}, []foundProject{{name: "gpu-vm", dir: "bicep/gpu-vm", tool: toolBicep, modules: []string{"bicep/shared/net.bicep"}, envGuessed: true}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := scanRepo(writeRepo(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("found %+v, want %+v", got, tc.want)
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if g.name != w.name || g.dir != w.dir || g.tool != w.tool || g.env != w.env || g.envGuessed != w.envGuessed || !slices.Equal(g.modules, w.modules) {
					t.Errorf("project %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// TestInitWritesWhatValidateAndActionlintAccept runs init on the first
// day's repository: the config passes validate (directories included) and
// declares each root with its modules; the workflow plans each project and
// uploads the artifact the config expects, and actionlint (tools/actionlint)
// finds nothing in it when it can run here.
func TestInitWritesWhatValidateAndActionlintAccept(t *testing.T) {
	t.Parallel()
	root := writeRepo(t, twoRootsAndAShared)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", root}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("init: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "found terraform project serving in infra/serving (no environment in its path: set it in the config; until then it is judged as prod)") {
		t.Errorf("stderr does not say what was found:\n%s", stderr.String())
	}
	cfgFile := filepath.Join(root, ".github", "planwarden.yml")
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"validate", "--config", cfgFile}, nil, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	cfg, err := rules.LoadConfig(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	gpu, _ := cfg.Project("gpu")
	if gpu.Environment != "prod" || !slices.Equal(gpu.ProjectPaths(), []string{"infra/prod/gpu/**", "modules/gpu-pool/**", "modules/tags/**"}) {
		t.Errorf("gpu = %+v", gpu)
	}
	if env := cfg.EnvironmentOf("serving"); env != "" {
		t.Errorf("serving, whose path names no environment, is in %q, want none (judged as prod)", env)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rules.DefaultPlanWorkflow)))
	if err != nil {
		t.Fatal(err)
	}
	checkPlanWorkflow(t, cfg, data)
	actionlint(t, filepath.Join(root, filepath.FromSlash(rules.DefaultPlanWorkflow)))
}

// checkPlanWorkflow holds a plan workflow to the config: its matrix plans
// exactly the declared projects in their directories and uploads each as
// the project's artifact, with the metadata file.
func checkPlanWorkflow(t *testing.T, cfg *rules.Config, data []byte) {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct {
					Include []struct{ Project, Dir string }
				}
			}
			Steps []struct {
				Uses string
				With map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var planned []string
	for name, job := range wf.Jobs {
		for _, m := range job.Strategy.Matrix.Include {
			planned = append(planned, m.Project)
			p, ok := cfg.Project(m.Project)
			if !ok {
				t.Errorf("job %s plans %s, which the config does not declare", name, m.Project)
				continue
			}
			if p.Directory != m.Dir {
				t.Errorf("job %s plans %s in %s; the config says %s", name, m.Project, m.Dir, p.Directory)
			}
			if cfg.PlanArtifact(m.Project) != "planwarden-"+m.Project {
				t.Errorf("the config expects %s's plan in %s", m.Project, cfg.PlanArtifact(m.Project))
			}
		}
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/upload-artifact") && (s.With["name"] != "planwarden-${{ matrix.project }}" || !strings.Contains(s.With["path"], "planwarden-metadata.json")) {
				t.Errorf("job %s uploads %q (%q), want planwarden-${{ matrix.project }} with the metadata", name, s.With["name"], s.With["path"])
			}
		}
	}
	var declared []string
	for _, p := range cfg.Projects {
		declared = append(declared, p.Name)
	}
	slices.Sort(planned)
	slices.Sort(declared)
	if !slices.Equal(planned, declared) {
		t.Errorf("the workflow plans %v; the config declares %v", planned, declared)
	}
}

var (
	actionlintOnce sync.Once
	actionlintErr  error
)

// actionlint runs tools/actionlint on a workflow file, or skips when the
// pinned tool cannot be built here.
func actionlint(t *testing.T, file string) {
	t.Helper()
	tool := filepath.Join("..", "..", "tools", "actionlint")
	actionlintOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		actionlintErr = exec.CommandContext(ctx, "go", "-C", tool, "tool", "actionlint", "-version").Run()
	})
	if actionlintErr != nil {
		t.Skipf("actionlint (tools/actionlint) cannot run here: %v", actionlintErr)
	}
	abs, _ := filepath.Abs(file)
	out, err := exec.Command("go", "-C", tool, "tool", "actionlint", "-no-color", abs).CombinedOutput()
	if err != nil {
		t.Errorf("actionlint %s: %v\n%s", file, err, out)
	}
}

// TestInitRefusesToOverwrite: an existing config or workflow stays as it
// is without --force; --dry-run prints both files and writes nothing.
func TestInitRefusesToOverwrite(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		existing map[string]string
		args     []string
		code     int
		want     string // in stdout (ok) or stderr (refused)
		kept     bool   // the existing file is unchanged
	}{
		"an existing config":          {map[string]string{".github/planwarden.yml": "version: 1\n"}, nil, exitUsage, ".github/planwarden.yml already in", true},
		"an existing workflow":        {map[string]string{".github/workflows/planwarden-plan.yml": "name: mine\n"}, nil, exitUsage, ".github/workflows/planwarden-plan.yml already in", true},
		"a config at the other place": {map[string]string{".planwarden.yml": "version: 1\n"}, nil, exitUsage, ".planwarden.yml already in", true},
		"--force replaces":            {map[string]string{".github/planwarden.yml": "version: 1\n"}, []string{"--force"}, exitOK, "wrote ", false},
		"--dry-run prints both":       {map[string]string{".github/planwarden.yml": "version: 1\n"}, []string{"--dry-run"}, exitOK, "# ---- .github/workflows/planwarden-plan.yml ----\n", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"stack/main.tf": "provider \"aws\" {}\n"}
			for k, v := range tc.existing {
				files[k] = v
			}
			root := writeRepo(t, files)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"init", root}, tc.args...), nil, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
			out := stdout.String()
			if tc.code != exitOK {
				out = stderr.String()
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output %q, want %q", out, tc.want)
			}
			for p, c := range tc.existing {
				got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
				if (string(got) == c) != tc.kept {
					t.Errorf("%s kept = %v, want %v", p, string(got) == c, tc.kept)
				}
			}
		})
	}
	var stderr bytes.Buffer
	if code := run([]string{"init", writeRepo(t, map[string]string{"README.md": "x"})}, nil, &bytes.Buffer{}, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "found no Terraform root module") {
		t.Errorf("an empty repository: exit %d, %q", code, stderr.String())
	}
}
