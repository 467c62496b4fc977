package trust

import (
	"testing"

	"github.com/planwarden/planwarden/rules"
)

// No success without a plan, except for a pull request whose every
// changed file is on the no_plan_paths allow-list (documentation by
// default): a file outside every project's paths (a module the root
// module calls) still needs a plan.
func TestNoPlanNeeded(t *testing.T) {
	t.Parallel()
	def := rules.DefaultConfig()
	mono := config(t, "version: 1\nno_plan_paths: [\"apps/web/**\", \"**/*.md\"]\n")
	none := config(t, "version: 1\nno_plan_paths: []\n")
	tests := map[string]struct {
		cfg  *rules.Config
		ch   Changes
		want bool
	}{
		"a README":               {def, Changes{Complete: true, Files: []string{"README.md"}}, true},
		"docs and a licence":     {def, Changes{Complete: true, Files: []string{"docs/setup/aks.md", "docs/img/a.png", "LICENSE"}}, true},
		"a nested markdown file": {def, Changes{Complete: true, Files: []string{"infra/gpu/NOTES.md"}}, true},
		"a module outside every project's directory":    {def, Changes{Complete: true, Files: []string{"modules/gpu-pool/main.tf"}}, false},
		"docs and one Terraform file":                   {def, Changes{Complete: true, Files: []string{"docs/a.md", "infra/main.tf"}}, false},
		"a var file":                                    {def, Changes{Complete: true, Files: []string{"envs/prod.tfvars"}}, false},
		"a plan workflow":                               {def, Changes{Complete: true, Files: []string{".github/workflows/planwarden-plan.yml"}}, false},
		"docs, but GitHub listed only part of the PR":   {def, Changes{Complete: false, Files: []string{"README.md"}}, false},
		"a monorepo's application code, one line away":  {mono, Changes{Complete: true, Files: []string{"apps/web/src/index.ts", "apps/web/README.md"}}, true},
		"twin: the same monorepo, infra changed too":    {mono, Changes{Complete: true, Files: []string{"apps/web/src/index.ts", "infra/main.tf"}}, false},
		"an empty allow-list: docs wait for a plan too": {none, Changes{Complete: true, Files: []string{"README.md"}}, false},
		"no changed file":                               {def, Changes{Complete: true}, true},
	}
	for name, tc := range tests {
		if got := NoPlanNeeded(tc.cfg, tc.ch); got != tc.want {
			t.Errorf("%s: NoPlanNeeded = %v, want %v", name, got, tc.want)
		}
	}
}

// Never pending forever: the plan workflow's on: filters say at once when
// no trusted run will come (and why), and what planwarden cannot read
// waits as if it will run.
func TestPlanWorkflowForecast(t *testing.T) {
	t.Parallel()
	const wf = ".github/workflows/plan.yml"
	art := rules.DefaultConfig()
	disp := config(t, "version: 1\nplan_source: dispatch\n")
	tf := Changes{Complete: true, Files: []string{"modules/gpu-pool/main.tf"}}
	tests := map[string]struct {
		cfg    *rules.Config
		on     string
		base   string
		ch     Changes
		action string
		will   Will
		why    string
	}{
		"on: pull_request": {
			on: "on: pull_request\n", will: WillRun, why: wf + " runs on every pull request"},
		"a list of events": {
			on: "on: [push, pull_request]\n", will: WillRun, why: wf + " runs on every pull request"},
		"no pull_request trigger": {
			on: "on: [push, workflow_dispatch]\n", will: WillNotRun, why: wf + " does not run on pull_request, so no trusted plan comes unless someone comments /plan"},
		"pull_request_target does not count": {
			on: "on: {pull_request_target: {}}\n", will: WillNotRun, why: wf + " does not run on pull_request, so no trusted plan comes unless someone comments /plan"},
		"a paths filter that misses the module": {
			on: "on:\n  pull_request:\n    paths: [\"infra/**\"]\n", will: WillNotRun,
			why: "the paths filter of " + wf + " (infra/**) matches none of the 1 file(s) this pull request changes"},
		"twin: a paths filter that has the module": {
			on: "on:\n  pull_request:\n    paths: [\"infra/**\", \"modules/**\"]\n", will: WillRun, why: wf + " runs for modules/gpu-pool/main.tf"},
		"a negated path comes back": {
			on: "on:\n  pull_request:\n    paths: [\"modules/**\", \"!modules/**/*.tf\", \"modules/gpu-pool/*.tf\"]\n", will: WillRun, why: wf + " runs for modules/gpu-pool/main.tf"},
		"* does not cross /": {
			on: "on:\n  pull_request:\n    paths: [\"modules/*\"]\n", will: WillNotRun,
			why: "the paths filter of " + wf + " (modules/*) matches none of the 1 file(s) this pull request changes"},
		"paths-ignore that ignores everything": {
			on: "on:\n  pull_request:\n    paths-ignore: [\"modules/**\"]\n", will: WillNotRun,
			why: "the paths-ignore filter of " + wf + " (modules/**) ignores every file this pull request changes"},
		"twin: paths-ignore that leaves a file": {
			on: "on:\n  pull_request:\n    paths-ignore: [\"docs/**\"]\n", will: WillRun, why: wf + " runs for modules/gpu-pool/main.tf"},
		"branches that exclude the base": {
			on: "on:\n  pull_request:\n    branches: [main, \"release/*\"]\n", base: "dev", will: WillNotRun,
			why: wf + " runs on pull requests into main, release/*; this one is into dev"},
		"twin: branches that include the base": {
			on: "on:\n  pull_request:\n    branches: [main, \"release/*\"]\n", base: "release/2026", will: WillRun, why: wf + " runs on pull requests into release/2026"},
		"branches-ignore": {
			on: "on:\n  pull_request:\n    branches-ignore: [\"lax-*\"]\n", base: "lax-1", will: WillNotRun,
			why: wf + " ignores pull requests into lax-1 (branches-ignore: lax-*)"},
		"types without synchronize": {
			on: "on:\n  pull_request:\n    types: [opened]\n", will: WillNotRun, why: wf + " runs on pull request activity opened, not synchronize"},
		"twin: the same types on opening": {
			on: "on:\n  pull_request:\n    types: [opened]\n", action: "opened", will: WillRun, why: wf + " runs on pull requests into main"},
		"a retarget (edited) starts no run": {
			on: "on: pull_request\n", action: "edited", will: WillNotRun, why: wf + " runs on pull requests that are opened, pushed to or reopened, not edited"},
		"an expression in a filter": {
			on: "on:\n  pull_request:\n    paths: [\"${{ vars.PATHS }}\"]\n", will: CannotTell, why: "the pull_request filter paths of " + wf + " is not a list of patterns"},
		"both paths and paths-ignore": {
			on: "on:\n  pull_request:\n    paths: [a]\n    paths-ignore: [b]\n", will: CannotTell, why: wf + " sets both paths and paths-ignore on pull_request, which GitHub refuses"},
		"more files than GitHub's path filters read": {
			on: "on:\n  pull_request:\n    paths: [\"infra/**\"]\n", ch: Changes{Complete: true, Files: manyFiles(301)}, will: CannotTell,
			why: "GitHub's path filters of " + wf + " read at most 300 changed files, and this pull request changes more"},
		"a pattern GitHub refuses": {
			on: "on:\n  pull_request:\n    paths: [\"+x\"]\n", will: CannotTell, why: wf + `: paths: pattern "+x" starts with +, which applies to the character before it`},
		"the pull request changes the workflow itself": {
			on: "on: pull_request\n", ch: Changes{Complete: true, Files: []string{wf}}, will: CannotTell, why: "this pull request changes " + wf + ", and GitHub runs its version of it"},
		"not YAML": {
			on: "on: [\n", will: CannotTell, why: wf + " cannot be read as YAML"},
		"dispatch mode needs workflow_dispatch": {
			cfg: disp, on: "on:\n  pull_request:\n    paths: [\"infra/**\"]\n", will: WillNotRun,
			why: wf + " has no workflow_dispatch trigger, so planwarden cannot start it (plan_source: dispatch)"},
		"twin: dispatch mode with workflow_dispatch ignores the paths": {
			cfg: disp, on: "on:\n  pull_request:\n    paths: [\"infra/**\"]\n  workflow_dispatch:\n", will: WillRun, why: "planwarden dispatches " + wf + " for every push"},
	}
	for name, tc := range tests {
		cfg, base, ch := tc.cfg, tc.base, tc.ch
		if cfg == nil {
			cfg = art
		}
		if base == "" {
			base = "main"
		}
		if ch.Files == nil {
			ch = tf
		}
		got := PlanWorkflowForecast(cfg, wf, []byte(tc.on), base, ch, tc.action)
		if got.Will != tc.will || got.Why != tc.why || got.Workflow != wf {
			t.Errorf("%s: forecast %d %q, want %d %q", name, got.Will, got.Why, tc.will, tc.why)
		}
	}
}

func manyFiles(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "infra/f" + string(rune('a'+i%26)) + ".tf"
	}
	return out
}

// Of several plan workflows, one that will run decides; else one that
// cannot be told keeps the check waiting; only when none will run does
// the check fail at once.
func TestAnyWillRun(t *testing.T) {
	t.Parallel()
	run, cannot, not := Forecast{Workflow: "a", Will: WillRun}, Forecast{Workflow: "b", Will: CannotTell}, Forecast{Workflow: "c", Will: WillNotRun}
	tests := map[string]struct {
		in   []Forecast
		want Will
		n    int
	}{
		"one runs":              {[]Forecast{not, run, cannot}, WillRun, 1},
		"one cannot be told":    {[]Forecast{not, cannot}, CannotTell, 1},
		"none runs":             {[]Forecast{not, not}, WillNotRun, 2},
		"no plan workflow read": {nil, WillNotRun, 0},
	}
	for name, tc := range tests {
		w, by := AnyWillRun(tc.in)
		if w != tc.want || len(by) != tc.n {
			t.Errorf("%s: AnyWillRun = %d by %d, want %d by %d", name, w, len(by), tc.want, tc.n)
		}
	}
}
