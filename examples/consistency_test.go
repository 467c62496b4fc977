package examples

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// The example repository is examples/planwarden.yml, the stacks it names
// and the workflows under examples/workflows; these tests hold them to
// each other, as a team that copies them would need.

const exampleConfig = "planwarden.yml"

func loadExampleConfig(t *testing.T) *rules.Config {
	t.Helper()
	cfg, err := rules.LoadConfig(exampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// planned is one project a workflow works on.
type planned struct{ project, dir string }

// exampleWorkflow is what the consistency checks read of a workflow.
type exampleWorkflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		Env      map[string]string `yaml:"env"`
		Strategy struct {
			Matrix struct {
				Include []map[string]string `yaml:"include"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Uses             string            `yaml:"uses"`
			With             map[string]string `yaml:"with"`
			Run              string            `yaml:"run"`
			WorkingDirectory string            `yaml:"working-directory"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// projects lists the projects a workflow works on: its matrix entries
// (project, dir), or a job's PROJECT variable with the literal directory
// its steps work in.
func (w exampleWorkflow) projects() []planned {
	var out []planned
	for _, job := range w.Jobs {
		for _, m := range job.Strategy.Matrix.Include {
			out = append(out, planned{m["project"], m["dir"]})
		}
		if p := job.Env["PROJECT"]; p != "" && !strings.Contains(p, "${{") {
			dir := ""
			for _, s := range job.Steps {
				if s.WorkingDirectory != "" && !strings.Contains(s.WorkingDirectory, "${{") {
					dir = s.WorkingDirectory
				}
			}
			out = append(out, planned{p, dir})
		}
	}
	return out
}

func readExampleWorkflow(t *testing.T, file string) exampleWorkflow {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var w exampleWorkflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return w
}

// TestExampleConfigNamesWhatExists: the config is valid with the
// repository's directories (planwarden validate's checks), each project is
// a stack (Terraform files or main.bicep), and each stack is a project.
func TestExampleConfigNamesWhatExists(t *testing.T) {
	cfg := loadExampleConfig(t)
	data, _ := os.ReadFile(exampleConfig)
	errs, warns := rules.Lint(cfg, data, rules.LintOptions{Dir: func(dir string) (bool, []string) {
		st, err := os.Stat(filepath.Join("..", filepath.FromSlash(dir)))
		return err == nil && st.IsDir(), nil
	}})
	for _, p := range append(errs, warns...) {
		t.Errorf("%s:%d: %s", exampleConfig, p.Line, p.Message)
	}
	declared := map[string]bool{}
	for _, p := range cfg.Projects {
		declared[p.Directory] = true
		tf, _ := filepath.Glob(filepath.Join("..", p.Directory, "*.tf"))
		_, bicep := os.Stat(filepath.Join("..", p.Directory, "main.bicep"))
		if len(tf) == 0 && bicep != nil {
			t.Errorf("project %s: %s holds no Terraform files and no main.bicep", p.Name, p.Directory)
		}
	}
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		tf, _ := filepath.Glob(filepath.Join(e.Name(), "*.tf"))
		_, bicep := os.Stat(filepath.Join(e.Name(), "main.bicep"))
		if (len(tf) > 0 || bicep == nil) && !declared["examples/"+e.Name()] {
			t.Errorf("examples/%s is a stack that %s does not declare", e.Name(), exampleConfig)
		}
	}
}

// TestExampleWorkflowsMatchTheConfig: the plan workflows the config names
// exist and, together, plan each declared project exactly once, in its
// directory, uploading the artifact the config expects with metadata that
// names no environment; a paths filter is the project's paths; the
// destroy workflow of each destroyable environment destroys exactly its
// projects; any other workflow works only on declared projects.
func TestExampleWorkflowsMatchTheConfig(t *testing.T) {
	cfg := loadExampleConfig(t)
	files, _ := filepath.Glob(filepath.Join("workflows", "*.yml"))
	byName := map[string]exampleWorkflow{}
	for _, f := range files {
		byName[filepath.Base(f)] = readExampleWorkflow(t, f)
	}
	destroys := map[string][]string{} // workflow file -> environments
	for _, env := range cfg.EnvironmentNames() {
		if wf, ok := cfg.DestroyWorkflow(env); ok {
			destroys[wf] = append(destroys[wf], env)
		}
	}
	var plannedByPlanWorkflows []string
	for _, p := range cfg.PlanWorkflowPaths() {
		name := path.Base(p)
		w, ok := byName[name]
		if !ok {
			t.Errorf("plan_workflows names %s; examples/workflows has no %s", p, name)
			continue
		}
		var paths []string
		for _, pl := range w.projects() {
			plannedByPlanWorkflows = append(plannedByPlanWorkflows, pl.project)
			proj, ok := cfg.Project(pl.project)
			if !ok {
				t.Errorf("%s plans %s, which %s does not declare (its plan would fail the check with unknown-project)", name, pl.project, exampleConfig)
				continue
			}
			if pl.dir != proj.Directory {
				t.Errorf("%s plans %s in %q; the config's directory is %q", name, pl.project, pl.dir, proj.Directory)
			}
			paths = append(paths, proj.ProjectPaths()...)
		}
		checkUploads(t, name, w, cfg)
		if pr, ok := w.On["pull_request"].(map[string]any); ok && pr["paths"] != nil {
			var filter []string
			for _, p := range pr["paths"].([]any) {
				filter = append(filter, p.(string))
			}
			sort.Strings(filter)
			sort.Strings(paths)
			if !slices.Equal(filter, paths) {
				t.Errorf("%s runs on changes to %v; its projects' paths are %v", name, filter, paths)
			}
		}
	}
	var declared []string
	for _, p := range cfg.Projects {
		declared = append(declared, p.Name)
	}
	sort.Strings(declared)
	sort.Strings(plannedByPlanWorkflows)
	if !slices.Equal(declared, plannedByPlanWorkflows) {
		t.Errorf("the plan workflows plan %v; the config declares %v (each exactly once)", plannedByPlanWorkflows, declared)
	}
	for wf, envs := range destroys {
		w, ok := byName[wf]
		if !ok {
			t.Errorf("environments %v are destroyed by %s, which examples/workflows does not have", envs, wf)
			continue
		}
		var want, got []string
		for _, p := range cfg.Projects {
			if slices.Contains(envs, cfg.EnvironmentOf(p.Name)) {
				want = append(want, p.Name+" "+p.Directory)
			}
		}
		for _, pl := range w.projects() {
			got = append(got, pl.project+" "+pl.dir)
		}
		sort.Strings(want)
		sort.Strings(got)
		if !slices.Equal(want, got) {
			t.Errorf("%s destroys %v; the projects of %v are %v", wf, got, envs, want)
		}
	}
	for name, w := range byName {
		for _, pl := range w.projects() {
			if proj, ok := cfg.Project(pl.project); !ok || (pl.dir != "" && pl.dir != proj.Directory) {
				t.Errorf("%s works on %s in %q, which %s does not declare there", name, pl.project, pl.dir, exampleConfig)
			}
		}
	}
}

var metadataEnv = regexp.MustCompile(`planwarden-metadata\.json`)

// checkUploads: each upload of a plan workflow is the project's artifact
// and carries the metadata file, which never names an environment (the
// App ignores it: the config decides).
func checkUploads(t *testing.T, name string, w exampleWorkflow, cfg *rules.Config) {
	t.Helper()
	for job, j := range w.Jobs {
		project := j.Env["PROJECT"]
		for _, s := range j.Steps {
			if metadataEnv.MatchString(s.Run) && strings.Contains(s.Run, `"environment"`) {
				t.Errorf("%s: job %s writes an environment into the metadata, which the App ignores", name, job)
			}
			if !strings.HasPrefix(s.Uses, "actions/upload-artifact") {
				continue
			}
			art := s.With["name"]
			switch {
			case art == "planwarden-${{ matrix.project }}":
				for _, m := range j.Strategy.Matrix.Include {
					if cfg.PlanArtifact(m["project"]) != "planwarden-"+m["project"] {
						t.Errorf("%s: %s's plan goes to planwarden-%s; the config expects %s", name, m["project"], m["project"], cfg.PlanArtifact(m["project"]))
					}
				}
			case project != "" && art == cfg.PlanArtifact(project):
			default:
				t.Errorf("%s: job %s uploads %q, which is not the artifact the config expects", name, job, art)
			}
			if !strings.Contains(s.With["path"], "planwarden-metadata.json") {
				t.Errorf("%s: job %s's artifact lacks planwarden-metadata.json", name, job)
			}
		}
	}
}

// TestMakeRunNamesTheProjectFromTheExample: `make run EXAMPLE=...` reviews
// each example plan as its project of the example config, in that
// project's environment, and a plan of no stack in prod.
func TestMakeRunNamesTheProjectFromTheExample(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	if testing.Short() {
		t.Skip("builds planwarden with make")
	}
	bin := filepath.Join(t.TempDir(), "planwarden")
	tests := map[string]struct{ example, want string }{
		"the typo":            {"examples/plans/aks-gpu-typo.json", "### Changes in `aks-gpu` (`prod`)"},
		"the endpoint rename": {"examples/plans/sagemaker-rename.json", "### Changes in `sagemaker-endpoint` (`prod`)"},
		"the bucket":          {"examples/plans/bucket-lifecycle.json", "### Changes in `artifact-bucket` (`prod`)"},
		"the Bicep typo":      {"examples/bicep-gpu-vm/whatif-typo.json", "### Changes in `bicep-gpu-vm` (`prod`)"},
		"a plan of no stack":  {"examples/plans/a100-scale-out.json", "### Changes in `a100-scale-out` (`prod`)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("make", "-s", "run", "EXAMPLE="+tc.example, "BIN="+bin)
			cmd.Dir = ".."
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make run: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("make run EXAMPLE=%s does not say %q:\n%.400s", tc.example, tc.want, out)
			}
			if strings.Contains(string(out), "No `.github/planwarden.yml` was found") {
				t.Errorf("make run reviewed without the example config")
			}
		})
	}
	// Every plan the Makefile maps is there, and maps to a declared project.
	mk, _ := os.ReadFile("../Makefile")
	cfg := loadExampleConfig(t)
	m := regexp.MustCompile(`(?m)^EXAMPLE_PROJECTS := ((?:[^\n]*\\\n)*[^\n]*)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no EXAMPLE_PROJECTS")
	}
	for _, pair := range strings.Fields(strings.ReplaceAll(string(m[1]), "\\", "")) {
		plan, project, _ := strings.Cut(pair, ":")
		if _, ok := cfg.Project(project); !ok {
			t.Errorf("EXAMPLE_PROJECTS maps %s to %s, which %s does not declare", plan, project, exampleConfig)
		}
		found, _ := filepath.Glob(filepath.Join("*", plan+".json"))
		if len(found) == 0 {
			t.Errorf("EXAMPLE_PROJECTS names %s; no examples/*/%s.json", plan, plan)
		}
	}
}

// TestDocsExampleConfigIsTheExampleRepository: the complete example of
// docs/config.md declares the example repository's projects and plan
// workflows, so copying it beside the example workflows blocks no pull
// request with unknown-project.
func TestDocsExampleConfigIsTheExampleRepository(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## A complete example")
	_, rest, ok2 := strings.Cut(rest, "```yaml\n")
	block, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/config.md has no complete example")
	}
	docs, err := rules.ParseConfig("docs/config.md", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	cfg := loadExampleConfig(t)
	summary := func(c *rules.Config) []string {
		var out []string
		for _, p := range c.Projects {
			out = append(out, p.Name+" "+p.Directory+" "+p.Environment+" "+c.PlanArtifact(p.Name))
		}
		return append(out, c.PlanWorkflowPaths()...)
	}
	if got, want := summary(docs), summary(cfg); !slices.Equal(got, want) {
		t.Errorf("docs/config.md's example declares\n%v\nthe example repository\n%v", got, want)
	}
}
