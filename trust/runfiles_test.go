package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

// A plan workflow's run: steps (WorkflowUses' second list) execute repository files a pull request can
// change: each must be found, read against the right directory, and
// nothing that is not a file the step runs (a Terraform directory, a
// variable, an absolute path) may count.
func TestRunFiles(t *testing.T) {
	t.Parallel()
	wf := `
on: pull_request
defaults:
  run:
    working-directory: infra
jobs:
  plan:
    runs-on: ubuntu-latest
    steps:
      - run: ./scripts/plan.sh gpu
      - run: |
          set -e
          AWS_REGION=us-east-1 python tools/check_plan.py --strict
          terraform -chdir=prod plan -out tfplan && terraform show -json tfplan > plan.json
          bash -e "hooks/pre.bash" \
            --verbose
      - run: make -C ../build plan; . ./env.sh
        working-directory: infra/gpu
      - run: |
          cd modules/a && ./render
          cd $GITHUB_WORKSPACE/x && ./lost.sh
      - run: /usr/local/bin/tool.sh ${{ inputs.script }} ../../../escape.sh "$HOME/x.sh" scripts/*.sh
  other:
    defaults:
      run:
        working-directory: svc
    steps:
      - run: make
      - run: sudo ./setup.sh && make --file=ci.mk
`
	_, got, err := WorkflowUses([]byte(wf))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"infra/scripts/plan.sh",
		"infra/tools/check_plan.py",
		"infra/hooks/pre.bash",
		"infra/build/GNUmakefile", "infra/build/makefile", "infra/build/Makefile",
		"infra/gpu/env.sh",
		"infra/modules/a/render",
		"svc/GNUmakefile", "svc/makefile", "svc/Makefile",
		"svc/setup.sh",
		"svc/ci.mk",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WorkflowUses run files (-want +got):\n%s", diff)
	}
}

// A run: step's script WorkflowUses finds counts like a local action: the
// PR that changes it gets plan-workflow-changed, and so does a PR that
// changes a file plan_workflow_inputs names; a Terraform file does not.
func TestWorkflowChangesRunFilesAndInputs(t *testing.T) {
	t.Parallel()
	cfg := config(t, "version: 1\nplan_workflow_inputs: [\"ci/**\", Makefile]\n")
	used := []Used{{Path: "scripts/plan.sh", Via: "run by a step of .github/workflows/planwarden-plan.yml"}}
	ch := Changes{Complete: true, Files: []string{"infra/main.tf", "scripts/plan.sh", "ci/tf/wrapper.py", "Makefile", "docs/Makefile"}}
	var got []string
	for _, f := range WorkflowChanges(cfg, ch, used, "") {
		if f.Rule != rules.RulePlanWorkflowChanged || f.Severity != rules.SeverityBlock {
			t.Errorf("finding %+v", f)
		}
		got = append(got, f.Address+": "+f.Message)
	}
	want := []string{
		"scripts/plan.sh: this pull request changes scripts/plan.sh, run by a step of .github/workflows/planwarden-plan.yml, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.",
		"ci/tf/wrapper.py: this pull request changes ci/tf/wrapper.py, which the config's plan_workflow_inputs says the plan workflows run, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.",
		"Makefile: this pull request changes Makefile, which the config's plan_workflow_inputs says the plan workflows run, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
