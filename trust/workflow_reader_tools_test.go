package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

// The tools' own ways of naming what they run: each option that moves
// the directory or names the command is read; the twins (a tool that
// runs nothing from the repository) give nothing.
func TestReadPlanWorkflowsToolOptions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files      map[string]string
		used       []string
		unreadable []string
	}{
		"env -C moves the command's directory": {
			files: map[string]string{planWF: job("      - run: env -C infra ./plan.sh\n")},
			used:  []string{"infra/plan.sh"},
		},
		"env -S splits its command": {
			files: map[string]string{planWF: job("      - run: env -S \"./ci/plan --fast\"\n")},
			used:  []string{"ci/plan"},
		},
		"sudo -u and stdbuf -oL": {
			files: map[string]string{planWF: job("      - run: sudo -u runner stdbuf -oL ./ci/plan\n")},
			used:  []string{"ci/plan"},
		},
		"twin: command -v runs nothing": {
			files: map[string]string{planWF: job("      - run: command -v ./ci/plan\n")},
		},
		"xargs -I running what it reads": {
			files:      map[string]string{planWF: job("      - run: echo a | xargs -I{} ./ci/{}.sh\n")},
			unreadable: []string{"./ci/{}.sh: " + whyCommand},
		},
		"a heredoc into bash": {
			files: map[string]string{planWF: job("      - run: |\n          bash <<'EOF'\n          ./ci/inner.sh\n          EOF\n")},
			used:  []string{"ci/inner.sh"},
		},
		"a script on bash's standard input": {
			files: map[string]string{planWF: job("      - run: bash < ci/plan.sh\n"), "ci/plan.sh": "./ci/next.sh\n"},
			used:  []string{"ci/plan.sh", "ci/next.sh"},
		},
		"the directory of a script by ${BASH_SOURCE%/*}": {
			files: map[string]string{planWF: job("      - run: ci/plan.sh\n"), "ci/plan.sh": "\"${BASH_SOURCE%/*}/lib/run.sh\"\n"},
			used:  []string{"ci/plan.sh", "ci/lib/run.sh"},
		},
		"PATH extended with the checkout and with $HOME": {
			files: map[string]string{planWF: job("      - run: |\n          export PATH=\"$PWD/tools/bin:$HOME/.local/bin:$PATH\"\n          echo \"$(go env GOPATH)/bin\" >> \"$GITHUB_PATH\"\n          tf-plan\n")},
			used:  []string{"tools/bin"},
		},
		"PATH from a variable planwarden cannot read": {
			files:      map[string]string{planWF: job("      - run: export PATH=\"$TOOLS:$PATH\"\n")},
			unreadable: []string{"PATH=\"$TOOLS:$PATH\": it sets PATH, which decides what programs run, to a value planwarden cannot place"},
		},
		"make -C with -f and an include": {
			files: map[string]string{
				planWF:            job("      - run: make -C infra -f ci.mk plan TF=tofu\n"),
				"infra/ci.mk":     "include common.mk\nplan:\n\t$(TF) plan && $(RUNNER) x\n",
				"infra/common.mk": "RUNNER := ./scripts/run.sh\n",
			},
			used: []string{"infra/ci.mk", "infra/common.mk", "infra/scripts/run.sh"},
		},
		"twin: make of a target whose recipe runs tools only": {
			files: map[string]string{planWF: job("      - run: make fmt\n"), "Makefile": "fmt:\n\tterraform fmt -check\n"},
			used:  []string{"GNUmakefile", "makefile", "Makefile"},
		},
		"yarn runs a script by its name, pnpm with run and a directory": {
			files: map[string]string{
				planWF:             job("      - run: yarn plan\n      - run: pnpm --dir web run build\n"),
				"package.json":     `{"scripts": {"plan": "node ci/plan.js"}}`,
				"web/package.json": `{"scripts": {"prebuild": "./gen.sh", "build": "tsc"}}`,
			},
			used: []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", ".npmrc", ".yarnrc.yml", "ci/plan.js",
				"web/package.json", "web/package-lock.json", "web/npm-shrinkwrap.json", "web/yarn.lock", "web/pnpm-lock.yaml", "web/bun.lockb", "web/bun.lock", "web/.npmrc", "web/.yarnrc.yml", "web/gen.sh"},
		},
		"npm of a workspace": {
			files:      map[string]string{planWF: job("      - run: npm run plan --workspace infra\n")},
			unreadable: []string{"npm --workspace: it runs scripts of other packages of a workspace, which planwarden does not read"},
		},
		"go -C and a whole tree": {
			files: map[string]string{planWF: job("      - run: go -C tools run ./plan/...\n")},
			used:  []string{"tools/plan", "tools/go.mod", "tools/go.sum", "go.mod", "go.sum"},
		},
		"go build with -toolexec": {
			files:      map[string]string{planWF: job("      - run: go build -toolexec=./ci/wrap ./cmd/x\n")},
			unreadable: []string{"-toolexec=./ci/wrap: go runs every compiled program through a command it names"},
		},
		"go test of the whole repository": {
			files:      map[string]string{planWF: job("      - run: go test ./...\n")},
			unreadable: []string{"./...: it compiles the whole repository as Go code"},
		},
		"twin: go install of a released tool": {
			files: map[string]string{planWF: job("      - run: go install github.com/terraform-linters/tflint@v0.50.0\n")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := readRepo(t, rules.DefaultConfig(), tc.files)
			if diff := cmp.Diff(tc.unreadable, unreadableWords(r)); diff != "" {
				t.Errorf("unreadable (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.used, usedPaths(r)); diff != "" {
				t.Errorf("used (-want +got):\n%s", diff)
			}
		})
	}
}
