package trust

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

// Shapes that hide a step's files from a naive reader: YAML anchors, a
// checkout at a path, the runner's own path of the checkout, trap, a
// program on the command line. Each is placed or reported; the twins show
// the plain shapes read as before.
func TestReadPlanWorkflowsEdges(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files      map[string]string
		used       []string
		unreadable []string
	}{
		"a step from a YAML anchor and a merge key": {
			files: map[string]string{planWF: `on: pull_request
x-plan: &plan
  run: ./ci/anchored.sh
x-base: &base
  shell: bash
jobs:
  plan:
    steps:
      - *plan
      - <<: *base
        run: ./ci/merged.sh
`},
			used: []string{"ci/anchored.sh", "ci/merged.sh"},
		},
		"a checkout at a path moves the repository": {
			files: map[string]string{planWF: job("      - uses: actions/checkout@v4\n        with:\n          path: src\n      - uses: actions/checkout@v4\n        with:\n          repository: hashicorp/tools\n          path: tools\n      - run: ./src/ci/plan.sh && ./tools/bin/x\n      - uses: ./src/.github/actions/a\n")},
			used:  []string{"ci/plan.sh", ".github/actions/a", ".github/actions/a/action.yml", ".github/actions/a/action.yaml"},
		},
		"this repository by its name, at a path": {
			files: map[string]string{planWF: job("      - uses: actions/checkout@v4\n        with:\n          repository: Octo/Infra\n          path: src\n      - run: ./src/ci/plan.sh\n")},
			used:  []string{"ci/plan.sh"},
		},
		"a checkout at a path from an expression": {
			files:      map[string]string{planWF: job("      - uses: actions/checkout@v4\n        with:\n          path: ${{ inputs.where }}\n      - run: ./ci/plan.sh\n")},
			unreadable: []string{"${{ inputs.where }}: it checks the repository out where planwarden cannot tell"},
		},
		"the checkout by the runner's path": {
			files:      map[string]string{planWF: job("      - run: /home/runner/work/infra/infra/ci/plan.sh\n")},
			unreadable: []string{"/home/runner/work/infra/infra/ci/plan.sh: " + whyLostCwd},
		},
		"twin: the checkout by $GITHUB_WORKSPACE": {
			files: map[string]string{planWF: job("      - run: \"$GITHUB_WORKSPACE/ci/plan.sh\"\n      - run: ${{ github.workspace }}/ci/other.sh\n")},
			used:  []string{"ci/plan.sh", "ci/other.sh"},
		},
		"a trap": {
			files: map[string]string{planWF: job("      - run: trap './ci/cleanup.sh' EXIT; terraform plan\n")},
			used:  []string{"ci/cleanup.sh"},
		},
		"a Python program on the command line imports a module": {
			files: map[string]string{planWF: job("      - run: python -c \"import tools.plan; tools.plan.main()\"\n")},
			used:  []string{"tools", "tools.py"},
		},
		"a Node program on the command line requires a file": {
			files: map[string]string{planWF: job("      - run: node -e \"require('./ci/plan.js')()\"\n")},
			used:  []string{"ci/plan.js"},
		},
		"a job on Windows": {
			files:      map[string]string{planWF: "on: pull_request\njobs:\n  plan:\n    runs-on: windows-latest\n    steps:\n      - run: .\\ci\\plan.ps1\n"},
			unreadable: []string{"runs-on: the job may run on Windows, where a step's default shell is PowerShell, which planwarden does not read; give the step shell: bash"},
		},
		"twin: a job on Windows whose step says bash": {
			files: map[string]string{planWF: "on: pull_request\njobs:\n  plan:\n    runs-on: windows-latest\n    steps:\n      - run: ./ci/plan.sh\n        shell: bash\n"},
			used:  []string{"ci/plan.sh"},
		},
		"a runner from a matrix of systems": {
			files:      map[string]string{planWF: "on: pull_request\njobs:\n  plan:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n    steps:\n      - run: ./ci/plan.sh\n"},
			unreadable: []string{"runs-on: the job may run on Windows, where a step's default shell is PowerShell, which planwarden does not read; give the step shell: bash"},
		},
		"twin: a matrix of Linux runners": {
			files: map[string]string{planWF: "on: pull_request\njobs:\n  plan:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, ubuntu-24.04-arm]\n    steps:\n      - run: ./ci/plan.sh\n"},
			used:  []string{"ci/plan.sh"},
		},
		"a script written for GITHUB_ENV": {
			files:      map[string]string{planWF: job("      - run: cat settings.env >> \"$GITHUB_ENV\"\n")},
			unreadable: []string{"cat: it writes what planwarden cannot read to GITHUB_ENV"},
		},
		"twin: a plain variable for GITHUB_ENV": {
			files: map[string]string{planWF: job("      - run: echo \"TF_IN_AUTOMATION=1\" >> \"$GITHUB_ENV\"\n")},
		},
		"a step shell that sources a file": {
			files:      map[string]string{planWF: job("      - run: terraform plan\n        shell: bash --rcfile ./ci/rc {0}\n")},
			unreadable: []string{"bash --rcfile ./ci/rc {0}: planwarden reads bash and sh steps only"},
		},
		"twin: a step shell with options": {
			files: map[string]string{planWF: job("      - run: ./ci/plan.sh\n        shell: bash --noprofile --norc -eo pipefail {0}\n")},
			used:  []string{"ci/plan.sh"},
		},
		"$GITHUB_ACTION_PATH in a composite action": {
			files: map[string]string{planWF: job("      - uses: ./act\n"), "act/action.yml": "runs:\n  using: composite\n  steps:\n    - run: $GITHUB_ACTION_PATH/go.sh\n      shell: bash\n"},
			used:  []string{"act", "act/action.yml", "act/action.yaml", "act/go.sh"},
		},
		"${{ env.X }} from the workflow's env": {
			files:      map[string]string{planWF: "on: pull_request\nenv:\n  PLAN: ci/plan.sh\n  DYN: ${{ inputs.x }}\njobs:\n  plan:\n    steps:\n      - run: ./${{ env.PLAN }} && ./$PLAN.d/x.sh\n      - run: ./${{ env.DYN }}\n"},
			used:       []string{"ci/plan.sh", "ci/plan.sh.d/x.sh"},
			unreadable: []string{"./${{ env.DYN }}: " + whyCommand},
		},
		"BASH_ENV for later steps": {
			files: map[string]string{planWF: job("      - run: echo \"BASH_ENV=$GITHUB_WORKSPACE/ci/env.sh\" >> \"$GITHUB_ENV\"\n")},
			used:  []string{"ci/env.sh"},
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

// errFS fails every read but of the files it holds.
type errFS struct{ files fstest.MapFS }

func (f errFS) Open(name string) (fs.File, error) {
	if _, ok := f.files[name]; ok {
		return f.files.Open(name)
	}
	return nil, errors.New("GitHub answered 502")
}

// A read that fails (not a missing file) is an error for the app to retry,
// never a reading without the file; a chain of scripts longer than the
// reader follows is reported, not cut short.
func TestReadPlanWorkflowsLimits(t *testing.T) {
	t.Parallel()
	_, err := ReadPlanWorkflows(rules.DefaultConfig(), "octo/infra", errFS{fstest.MapFS{planWF: {Data: []byte(job("      - run: ./ci/plan.sh\n"))}}})
	if err == nil || !strings.Contains(err.Error(), "read ci/plan.sh") {
		t.Errorf("a failing read: err = %v, want one naming ci/plan.sh", err)
	}
	files := map[string]string{planWF: job("      - run: ./ci/s0.sh\n")}
	for i := 0; i < maxScriptDepth+2; i++ {
		files["ci/s"+string(rune('0'+i))+".sh"] = "./ci/s" + string(rune('1'+i)) + ".sh\n"
	}
	r := readRepo(t, rules.DefaultConfig(), files)
	if got := unreadableWords(r); len(got) != 1 || !strings.Contains(got[0], "scripts run scripts deeper than planwarden follows") {
		t.Errorf("a deep chain: unreadable %v", got)
	}
	many := map[string]string{planWF: job("      - run: |\n" + strings.Repeat("          ./ci/x.sh\n", 1))}
	for i := 0; i < maxReadFiles+5; i++ {
		many[planWF] += "          ./ci/f" + strings.Repeat("x", i) + ".sh\n"
	}
	r = readRepo(t, rules.DefaultConfig(), many)
	if got := unreadableWords(r); len(got) != 1 || !strings.Contains(got[0], "more than planwarden follows") {
		t.Errorf("too many files: unreadable %v", got)
	}
}
