package trust

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

const planWF = rules.DefaultPlanWorkflow

// readRepo reads the default plan workflow of a repository made of files.
func readRepo(t *testing.T, cfg *rules.Config, files map[string]string) Reading {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, body := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(body)}
	}
	r, err := ReadPlanWorkflows(cfg, "octo/infra", fsys)
	if err != nil {
		t.Fatalf("ReadPlanWorkflows: %v", err)
	}
	return r
}

func usedPaths(r Reading) []string {
	var out []string
	for _, u := range r.Used {
		out = append(out, u.Path)
	}
	return out
}

func unreadableWords(r Reading) []string {
	var out []string
	for _, u := range r.Unreadable {
		out = append(out, u.Word+": "+u.Why)
	}
	return out
}

// job wraps run: steps into a plan workflow.
func job(steps string) string {
	return "on: pull_request\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    steps:\n" + steps
}

// Each shape a plan workflow runs a repository file through is placed:
// the file is used, so a pull request changing it gets
// plan-workflow-changed. want lists the used paths (in order);
// unreadable must be empty: these shapes are all readable.
func TestReadPlanWorkflowsPlacesEveryShape(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []string
	}{
		"working-directory from the matrix (the bundled example's shape)": {
			files: map[string]string{planWF: `on: pull_request
jobs:
  plan:
    strategy:
      matrix:
        include:
          - {project: gpu, dir: infra/gpu}
          - {project: ml, dir: infra/ml}
    steps:
      - working-directory: ${{ matrix.dir }}
        run: ./plan.sh "${{ matrix.project }}"
`},
			want: []string{"infra/gpu/plan.sh", "infra/ml/plan.sh"},
		},
		"a matrix of lists": {
			files: map[string]string{planWF: job("      - run: ci/${{ matrix.cloud }}/plan.sh\n") + "    strategy:\n      matrix:\n        cloud: [aws, azure]\n"},
			want:  []string{"ci/aws/plan.sh", "ci/azure/plan.sh"},
		},
		"timeout": {
			files: map[string]string{planWF: job("      - run: timeout 900 ci/tf-plan\n      - run: timeout --kill-after=5 -s TERM 15m ./ci/b\n")},
			want:  []string{"ci/tf-plan", "ci/b"},
		},
		"sudo, env, nice, time, nohup, exec": {
			files: map[string]string{planWF: job("      - run: |\n          sudo -E ./ci/plan\n          env -i X=1 Y=2 ./ci/env-plan\n          nice -n 10 ./ci/nice\n          time ./ci/timed\n          nohup ./ci/bg &\n          exec ./ci/last\n")},
			want:  []string{"ci/plan", "ci/env-plan", "ci/nice", "ci/timed", "ci/bg", "ci/last"},
		},
		"bash -c and sh -c": {
			files: map[string]string{planWF: job("      - run: bash -c \"./ci/plan\"\n      - run: sh -ec 'cd infra && ./x.sh'\n      - run: /bin/bash -o pipefail -c \"./ci/y\"\n")},
			want:  []string{"ci/plan", "infra/x.sh", "ci/y"},
		},
		"a script given to a shell": {
			files: map[string]string{planWF: job("      - run: bash ci/plan\n      - run: sh -x ./ci/other.sh arg\n")},
			want:  []string{"ci/plan", "ci/other.sh"},
		},
		"python -m and a python script": {
			files: map[string]string{planWF: job("      - run: python -m tools.plan --check\n      - run: python3 -u tools/check.py\n")},
			want:  []string{"tools", "tools.py", "tools/check.py"},
		},
		"go run of a local package": {
			files: map[string]string{planWF: job("      - run: go run ./tools/x -flag\n      - run: go install github.com/planwarden/planwarden/cmd/planwarden@latest\n")},
			want:  []string{"tools/x", "go.mod", "go.sum"},
		},
		"go run of this module's package by import path": {
			files: map[string]string{planWF: job("      - run: go run example.com/infra/tools/plan\n"), "go.mod": "module example.com/infra\n\ngo 1.26\n"},
			want:  []string{"go.mod", "go.sum", "tools/plan"},
		},
		"node scripts": {
			files: map[string]string{planWF: job("      - run: node scripts/x.js\n      - run: node -r ./scripts/hook.cjs scripts/y.mjs\n")},
			want:  []string{"scripts/x.js", "scripts/hook.cjs", "scripts/y.mjs"},
		},
		"npm run and what the script runs": {
			files: map[string]string{
				planWF:         job("      - run: npm ci\n      - run: npm run plan\n"),
				"package.json": `{"scripts": {"postinstall": "node tools/patch.js", "plan": "./ci/plan.sh && make -C infra"}}`,
				"ci/plan.sh":   "#!/bin/bash\n./ci/inner.sh\n",
			},
			want: []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", ".npmrc", ".yarnrc.yml",
				"tools/patch.js", "ci/plan.sh", "ci/inner.sh", "infra/GNUmakefile", "infra/makefile", "infra/Makefile"},
		},
		"make and the recipe of its target": {
			files: map[string]string{
				planWF:     job("      - run: make plan\n"),
				"Makefile": "TF ?= terraform\nSCRIPTS := ./scripts\n\nall: lint\n\nplan: init\n\t@$(SCRIPTS)/plan.sh $@\n\t$(TF) plan\n\ninit:\n\t./scripts/init.sh\n\nlint:\n\t./scripts/lint.sh\n",
			},
			want: []string{"GNUmakefile", "makefile", "Makefile", "scripts/plan.sh", "scripts/init.sh"},
		},
		"scripts sourced by scripts, followed in turn": {
			files: map[string]string{
				planWF:       job("      - run: ./ci/plan.sh\n"),
				"ci/plan.sh": "#!/usr/bin/env bash\nset -euo pipefail\nsource \"$(dirname \"$0\")/lib.sh\"\n. ./ci/env.sh\nHERE=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n\"$HERE/run.sh\"\n",
				"ci/lib.sh":  "deep() { ./ci/deep.sh; }\n",
				"ci/env.sh":  "export TF_IN_AUTOMATION=1\n",
			},
			want: []string{"ci/plan.sh", "ci/lib.sh", "ci/deep.sh", "ci/env.sh", "ci/run.sh"},
		},
		"uses: ./ (an action at the repository root)": {
			files: map[string]string{
				planWF:       job("      - uses: ./\n"),
				"action.yml": "runs:\n  using: composite\n  steps:\n    - run: ./ci/act.sh\n      shell: bash\n",
			},
			want: []string{"action.yml", "action.yaml", "ci/act.sh"},
		},
		"a local composite action and github.action_path": {
			files: map[string]string{
				planWF:                             job("      - uses: ./.github/actions/plan\n"),
				".github/actions/plan/action.yaml": "runs:\n  using: composite\n  steps:\n    - run: ${{ github.action_path }}/run.sh\n      shell: bash\n    - run: python ci/outside.py\n      shell: bash\n",
			},
			want: []string{".github/actions/plan", ".github/actions/plan/action.yml", ".github/actions/plan/action.yaml", ".github/actions/plan/run.sh", "ci/outside.py"},
		},
		"a JavaScript action at the root": {
			files: map[string]string{
				planWF:       job("      - uses: ./\n"),
				"action.yml": "runs:\n  using: node20\n  main: dist/index.js\n  post: dist/post.js\n",
			},
			want: []string{"action.yml", "action.yaml", "dist/index.js", "dist/post.js"},
		},
		"actions/github-script requiring a repository file": {
			files: map[string]string{planWF: job("      - uses: actions/github-script@v7\n        with:\n          script: |\n            const check = require('./scripts/check.js')\n            const fs = require('fs')\n            await check({github, context})\n")},
			want:  []string{"scripts/check.js"},
		},
		"a reusable workflow of the repository": {
			files: map[string]string{
				planWF:                        "on: pull_request\njobs:\n  plan:\n    uses: ./.github/workflows/reuse.yml\n",
				".github/workflows/reuse.yml": job("      - run: ./ci/reused.sh\n"),
			},
			want: []string{".github/workflows/reuse.yml", "ci/reused.sh"},
		},
		"a directory put on PATH, and BASH_ENV": {
			files: map[string]string{planWF: job("      - run: echo \"$GITHUB_WORKSPACE/bin\" >> \"$GITHUB_PATH\"\n      - run: tf-plan\n        env:\n          BASH_ENV: ./ci/bashenv.sh\n")},
			want:  []string{"bin", "ci/bashenv.sh"},
		},
		"cd, pushd and defaults": {
			files: map[string]string{planWF: "on: pull_request\ndefaults:\n  run:\n    working-directory: infra\njobs:\n  plan:\n    steps:\n      - run: |\n          pushd gpu\n          ./plan.sh\n          popd\n          cd ../ml && ./plan.sh\n"},
			want:  []string{"infra/gpu/plan.sh", "ml/plan.sh"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := readRepo(t, rules.DefaultConfig(), tc.files)
			if len(r.Unreadable) > 0 {
				t.Errorf("unreadable: %v", unreadableWords(r))
			}
			if diff := cmp.Diff(tc.want, usedPaths(r)); diff != "" {
				t.Errorf("used (-want +got):\n%s", diff)
			}
		})
	}
}

// What planwarden cannot place is reported, never dropped; each case's
// twin (the same step with the word written out) is in the test above or
// here with want empty.
func TestReadPlanWorkflowsReportsWhatItCannotPlace(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []string // Word: Why
	}{
		"a command in a variable": {
			files: map[string]string{planWF: job("      - run: $TOOL plan\n")},
			want:  []string{"$TOOL: " + whyCommand},
		},
		"a command from an expression": {
			files: map[string]string{planWF: job("      - run: ${{ inputs.script }} --plan\n")},
			want:  []string{"${{ inputs.script }}: " + whyCommand},
		},
		"twin: an expression in an argument": {
			files: map[string]string{planWF: job("      - run: echo ${{ inputs.pr }}; terraform plan -var pr=${{ inputs.pr }}\n")},
		},
		"a path built at run time": {
			files: map[string]string{planWF: job("      - run: ./ci/$STAGE.sh\n")},
			want:  []string{"./ci/$STAGE.sh: " + whyCommand},
		},
		"a working-directory from a matrix planwarden cannot read": {
			files: map[string]string{planWF: job("      - working-directory: ${{ matrix.dir }}\n        run: ./plan.sh\n") + "    strategy:\n      matrix: ${{ fromJSON(needs.list.outputs.dirs) }}\n"},
			want:  []string{"${{ matrix.dir }}: the job's strategy.matrix is an expression planwarden cannot read"},
		},
		"a working-directory from an input": {
			files: map[string]string{planWF: job("      - working-directory: ${{ inputs.dir }}\n        run: terraform plan\n")},
			want:  []string{"${{ inputs.dir }}: its working-directory holds an expression planwarden cannot expand"},
		},
		"a relative path after a cd planwarden cannot follow": {
			files: map[string]string{planWF: job("      - run: cd \"$DIR\" && ./plan.sh\n")},
			want:  []string{"./plan.sh: " + whyLostCwd},
		},
		"twin: a bare command after that cd": {
			files: map[string]string{planWF: job("      - run: cd \"$DIR\" && terraform plan\n")},
		},
		"bash -c of a variable": {
			files: map[string]string{planWF: job("      - run: bash -c \"$CMD\"\n")},
			want:  []string{"\"$CMD\": the shell runs a script planwarden cannot read (-c with a variable or an expression)"},
		},
		"a script piped into a shell": {
			files: map[string]string{planWF: job("      - run: cat ci/plan.sh | bash\n")},
			want:  []string{"the shell: the shell reads the script it runs from a pipe, which planwarden cannot read"},
		},
		"eval": {
			files: map[string]string{planWF: job("      - run: eval \"$PLAN_CMD\"\n")},
			want:  []string{"\"$PLAN_CMD\": eval runs a script planwarden cannot read"},
		},
		"a wrapper option planwarden does not know": {
			files: map[string]string{planWF: job("      - run: timeout --weird 900 ./ci/plan\n")},
			want:  []string{"--weird: it passes timeout an option planwarden does not know, so it cannot tell which word is the command"},
		},
		"xargs running what it reads": {
			files: map[string]string{planWF: job("      - run: ls ci/*.sh | xargs -n1 bash\n")},
			want:  []string{"(the words xargs reads): it passes the shell a word planwarden cannot place"},
		},
		"find -exec of what it finds": {
			files: map[string]string{planWF: job("      - run: find ci -name '*.sh' -exec {} \\;\n")},
			want:  []string{"{}: " + whyCommand},
		},
		"a sourced script named by a variable": {
			files: map[string]string{planWF: job("      - run: source \"$ENV_FILE\"\n")},
			want:  []string{"\"$ENV_FILE\": it runs or sources a script planwarden cannot place"},
		},
		"python -m of a variable": {
			files: map[string]string{planWF: job("      - run: python -m \"$MOD\"\n")},
			want:  []string{"\"$MOD\": it runs a module planwarden cannot place"},
		},
		"npm run of a variable": {
			files: map[string]string{planWF: job("      - run: npm run \"$TARGET\"\n"), "package.json": `{"scripts": {}}`},
			want:  []string{"\"$TARGET\": it gives npm a word planwarden cannot place"},
		},
		"a PowerShell step": {
			files: map[string]string{planWF: job("      - run: ./ci/plan.ps1\n        shell: pwsh\n")},
			want:  []string{"pwsh: planwarden reads bash and sh steps only"},
		},
		"a directory planwarden cannot place put on PATH": {
			files: map[string]string{planWF: job("      - run: echo \"$TOOLS_DIR\" >> $GITHUB_PATH\n")},
			want:  []string{"\"$TOOLS_DIR\": it sets PATH, which decides what programs run, to a value planwarden cannot place"},
		},
		"github-script requiring a computed path": {
			files: map[string]string{planWF: job("      - uses: actions/github-script@v7\n        with:\n          script: require(process.env.CHECK)(github)\n")},
			want:  []string{"process.env.CHECK: actions/github-script requires a module whose name is built at run time"},
		},
		"a Docker action at the root": {
			files: map[string]string{planWF: job("      - uses: ./\n"), "action.yml": "runs:\n  using: docker\n  image: Dockerfile\n"},
			want:  []string{"Dockerfile: a Docker action at the repository root builds its image from the whole repository"},
		},
		"terragrunt runs what its files say": {
			files: map[string]string{planWF: job("      - run: terragrunt run-all plan\n        working-directory: live\n")},
			want:  []string{"terragrunt: it runs the commands terragrunt.hcl names, which planwarden does not read"},
		},
		"go generate": {
			files: map[string]string{planWF: job("      - run: go generate ./...\n")},
			want:  []string{"go generate: it runs the commands the //go:generate lines of the package's files name, which planwarden does not read"},
		},
		"a make recipe running a variable from the environment": {
			files: map[string]string{planWF: job("      - run: make plan\n"), "Makefile": "plan:\n\t$(PLAN_TOOL) plan\n"},
			want:  []string{"$(PLAN_TOOL): " + whyCommand},
		},
		"a script that does not parse": {
			files: map[string]string{planWF: job("      - run: ./ci/plan.sh\n"), "ci/plan.sh": "#!/bin/bash\nif then fi (\n"},
			want:  []string{"#!/bin/bash: planwarden's shell parser cannot read it"},
		},
		"a plan workflow that is not YAML": {
			files: map[string]string{planWF: "on: [\n"},
			want:  []string{planWF + ": it is not a YAML mapping"},
		},
		"twin: a plain readable workflow": {
			files: map[string]string{planWF: job("      - uses: actions/checkout@v4\n      - run: |\n          terraform init -input=false\n          terraform plan -out=tfplan\n          terraform show -json tfplan > plan.json\n")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := readRepo(t, rules.DefaultConfig(), tc.files)
			if diff := cmp.Diff(tc.want, unreadableWords(r)); diff != "" {
				t.Errorf("unreadable (-want +got):\n%s", diff)
			}
		})
	}
}

// The bundled example workflows read cleanly: failing closed must not
// turn the workflow planwarden ships into a standing finding.
func TestBundledExampleWorkflowsAreReadable(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"planwarden-plan.yml", "planwarden-whatif.yml"} {
		data, err := os.ReadFile("../examples/workflows/" + f)
		if err != nil {
			t.Fatal(err)
		}
		r := readRepo(t, rules.DefaultConfig(), map[string]string{planWF: string(data)})
		if len(r.Unreadable) > 0 || len(r.Used) > 0 {
			t.Errorf("%s: unreadable %v, used %v; want neither", f, unreadableWords(r), usedPaths(r))
		}
	}
}

// plan_workflow_inputs covers an unreadable step when a glob covers every
// file its word may name; the finding names the file, job and step.
func TestUnreadableFindings(t *testing.T) {
	t.Parallel()
	files := map[string]string{planWF: job("      - name: Plan\n        run: ./ci/$STAGE.sh\n      - run: $TOOL\n")}
	tests := map[string]struct {
		cfg  string
		want []string
	}{
		"no plan_workflow_inputs": {
			cfg: "version: 1\n",
			want: []string{
				planWF + " jobs.plan.steps[0]: step \"Plan\" of job plan in " + planWF + ": planwarden cannot place `./ci/$STAGE.sh`: " + whyCommand + ", so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted.",
				planWF + " jobs.plan.steps[1]: step #2 of job plan in " + planWF + ": planwarden cannot place `$TOOL`: " + whyCommand + ", so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted.",
			},
		},
		"ci/** covers the path, not the bare variable": {
			cfg:  "version: 1\nplan_workflow_inputs: [\"ci/**\"]\n",
			want: []string{planWF + " jobs.plan.steps[1]: step #2 of job plan in " + planWF + ": planwarden cannot place `$TOOL`: " + whyCommand + ", so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted."},
		},
		"twin: a glob of some files covers nothing": {
			cfg: "version: 1\nplan_workflow_inputs: [\"ci/*.py\", \"**/*.sh\"]\n",
			want: []string{
				planWF + " jobs.plan.steps[0]: step \"Plan\" of job plan in " + planWF + ": planwarden cannot place `./ci/$STAGE.sh`: " + whyCommand + ", so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted.",
				planWF + " jobs.plan.steps[1]: step #2 of job plan in " + planWF + ": planwarden cannot place `$TOOL`: " + whyCommand + ", so it cannot tell whether this pull request changes what the plan workflow runs; the plan artifact cannot be trusted.",
			},
		},
		"** covers everything": {cfg: "version: 1\nplan_workflow_inputs: [\"**\"]\n"},
		"dispatch mode: the workflow comes from the default branch": {cfg: "version: 1\nplan_source: dispatch\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := config(t, tc.cfg)
			var got []string
			for _, f := range UnreadableFindings(cfg, readRepo(t, cfg, files), "gpu") {
				if f.Rule != rules.RulePlanWorkflowUnreadable || f.Severity != rules.SeverityBlock || f.Project != "gpu" || !strings.Contains(f.Remedy, "plan_workflow_inputs") {
					t.Errorf("finding %+v", f)
				}
				got = append(got, f.Address+": "+f.Message)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// A file the reading finds is one a pull request may not change without
// plan-workflow-changed: the reader's Used feeds WorkflowChanges.
func TestReadingFeedsWorkflowChanges(t *testing.T) {
	t.Parallel()
	r := readRepo(t, rules.DefaultConfig(), map[string]string{planWF: job("      - run: timeout 900 ci/tf-plan\n")})
	ch := Changes{Complete: true, Files: []string{"ci/tf-plan", "infra/main.tf"}, SHAs: map[string]string{"ci/tf-plan": "abc"}}
	f := WorkflowChanges(rules.DefaultConfig(), ch, r.Used, "gpu")
	if len(f) != 1 || f[0].Address != "ci/tf-plan" || !slices.Equal(f[0].BlobSHAs, []string{"abc"}) {
		t.Errorf("WorkflowChanges = %+v, want one plan-workflow-changed on ci/tf-plan bound to blob abc", f)
	}
}
