package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// What planwarden init writes: the repo config and the plan workflow.

// yamlString quotes s for YAML (a JSON string is a YAML double-quoted
// scalar), so a glob's * is never an alias.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// renderConfig is .github/planwarden.yml declaring the projects.
func renderConfig(ps []foundProject) string {
	var b strings.Builder
	b.WriteString(`# planwarden's repo config, written by planwarden init; docs/config.md
# has every key. Check it with: planwarden validate
# The App reads it from a pull request's base branch: it applies once merged.
version: 1

# Each project is a root module (or Bicep entry point) and the files that
# belong to it: its directory and the local modules it calls. A pull
# request that changes none of them needs no plan.
projects:
`)
	dev := false
	for _, p := range ps {
		fmt.Fprintf(&b, "  - name: %s\n", yamlString(p.name))
		if p.dir != "" {
			fmt.Fprintf(&b, "    directory: %s\n", yamlString(p.dir))
		}
		if p.envGuessed {
			b.WriteString("    # environment: prod # its path names no environment: set the one it deploys to\n")
			b.WriteString("    # (prod, staging, or one declared under environments); until then it is\n    # judged as strictly as prod.\n")
		} else {
			fmt.Fprintf(&b, "    environment: %s # from its path\n", p.env)
		}
		dev = dev || p.env == "dev"
		b.WriteString("    paths:\n")
		for _, g := range p.paths() {
			fmt.Fprintf(&b, "      - %s\n", yamlString(g))
		}
	}
	if dev {
		b.WriteString(`
# prod (protected: the strictest severities) and staging (/destroy-staging)
# are built in; dev is declared because a project names it.
environments:
  dev: {}
`)
	}
	return b.String()
}

// The pinned actions the workflow uses (the same as examples/workflows).
const (
	checkoutAction       = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
	setupTerraformAction = "hashicorp/setup-terraform@b9cd54a3c349d3f38e8881555d616ced269862dd # v3.1.2"
	setupGoAction        = "actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0"
	uploadAction         = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2"
	azureLoginAction     = "azure/login@a457da9ea143d694b1b9c7c869ebb04ebe844ef5 # v2.3.0"
)

// renderWorkflow is .github/workflows/planwarden-plan.yml: on each pull
// request (and on /plan), each project planned in a matrix and its
// redacted plan uploaded as planwarden-<project>, the artifact the config
// expects.
func renderWorkflow(ps []foundProject) string {
	var tf, bicep []foundProject
	for _, p := range ps {
		if p.tool == toolBicep {
			bicep = append(bicep, p)
		} else {
			tf = append(tf, p)
		}
	}
	var b strings.Builder
	b.WriteString(`# planwarden's plan workflow, written by planwarden init. On each pull request
# it plans every project of .github/planwarden.yml and uploads each redacted
# plan as an artifact named planwarden-<project>; planwarden reads them when
# the run completes. It never runs Terraform and never sees cloud
# credentials: this workflow does, with its own OIDC login (add it below).
#
# /plan [project...] dispatches it with the inputs pr, projects and
# correlation_id (it must declare them; the run-name carries the id).
# A pull request that changes this file fails the check with
# plan-workflow-changed: its plan was made by the changed workflow.
name: planwarden plan
run-name: "${{ inputs.correlation_id && format('planwarden plan #{0} {1}', inputs.pr, inputs.correlation_id) || github.event.pull_request.title }}"

on:
  pull_request:
  workflow_dispatch:
    inputs:
      pr:
        description: "Pull request number (set by /plan)"
        required: true
      projects:
        description: "Projects to plan, separated by spaces; empty for all (set by /plan)"
        required: false
        default: ""
      correlation_id:
        description: "planwarden's id of the /plan command; goes into the run-name"
        required: false
        default: ""

permissions: {}

concurrency:
  group: planwarden-plan-${{ github.event.pull_request.number || inputs.pr }}
  cancel-in-progress: true

jobs:
`)
	if len(tf) > 0 {
		b.WriteString(`  plan:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      id-token: write # OIDC to the cloud: CI holds the credentials, the bot does not
    strategy:
      fail-fast: false
      matrix:
        include:
`)
		writeMatrix(&b, tf)
		b.WriteString(`    env:
      PROJECTS: ${{ inputs.projects }}
      PROJECT: ${{ matrix.project }}
    steps:
      - name: Skip a project /plan did not ask for
        id: wanted
        run: |
          if [ -z "$PROJECTS" ] || [[ " $PROJECTS " == *" $PROJECT "* ]]; then
            echo "plan=true" >> "$GITHUB_OUTPUT"
          fi
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + checkoutAction + `
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + setupTerraformAction + `
        with:
          terraform_version: 1.14.1 # pin: the plan JSON format follows the CLI
          terraform_wrapper: false # the wrapper's text would break the plan JSON
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + setupGoAction + `
        with:
          go-version: stable
      - name: Install planwarden (for planwarden redact)
        if: steps.wanted.outputs.plan == 'true'
        run: go install github.com/planwarden/planwarden/cmd/planwarden@latest # pin the release you reviewed
      # Cloud login goes here (azure/login or aws-actions/configure-aws-credentials with OIDC), read-only.
      - name: Plan
        if: steps.wanted.outputs.plan == 'true'
        working-directory: ${{ matrix.dir }}
        run: |
          terraform init -input=false
          terraform plan -input=false -lock=false -out=tfplan
          # The raw JSON holds sensitive values in clear text: redact it, then delete it.
          terraform show -json tfplan > plan.raw.json
          planwarden redact plan.raw.json > plan.json
          rm -f plan.raw.json tfplan
          printf '{"project":"%s"}\n' "$PROJECT" > planwarden-metadata.json
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + uploadAction + `
        with:
          name: planwarden-${{ matrix.project }}
          path: |
            ${{ matrix.dir }}/plan.json
            ${{ matrix.dir }}/planwarden-metadata.json
          retention-days: 7
`)
	}
	if len(bicep) > 0 {
		if len(tf) > 0 {
			b.WriteString("\n")
		}
		b.WriteString(`  # Bicep: az deployment group what-if, uploaded like a plan. Set the
  # repository variable AZURE_RESOURCE_GROUP and the OIDC secrets.
  whatif:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      id-token: write
    strategy:
      fail-fast: false
      matrix:
        include:
`)
		writeMatrix(&b, bicep)
		b.WriteString(`    env:
      PROJECTS: ${{ inputs.projects }}
      PROJECT: ${{ matrix.project }}
      RESOURCE_GROUP: ${{ vars.AZURE_RESOURCE_GROUP }}
    steps:
      - name: Skip a project /plan did not ask for
        id: wanted
        run: |
          if [ -z "$PROJECTS" ] || [[ " $PROJECTS " == *" $PROJECT "* ]]; then
            echo "plan=true" >> "$GITHUB_OUTPUT"
          fi
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + checkoutAction + `
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + setupGoAction + `
        with:
          go-version: stable
      - name: Install planwarden (for planwarden redact)
        if: steps.wanted.outputs.plan == 'true'
        run: go install github.com/planwarden/planwarden/cmd/planwarden@latest # pin the release you reviewed
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + azureLoginAction + `
        with:
          client-id: ${{ secrets.AZURE_CLIENT_ID }}
          tenant-id: ${{ secrets.AZURE_TENANT_ID }}
          subscription-id: ${{ secrets.AZURE_SUBSCRIPTION_ID }}
      - name: What-if
        if: steps.wanted.outputs.plan == 'true'
        working-directory: ${{ matrix.dir }}
        run: |
          az deployment group what-if --resource-group "$RESOURCE_GROUP" --template-file main.bicep \
            --result-format FullResourcePayloads --no-pretty-print --output json > whatif.raw.json
          planwarden redact whatif.raw.json > whatif.json
          rm -f whatif.raw.json
          printf '{"project":"%s"}\n' "$PROJECT" > planwarden-metadata.json
      - if: steps.wanted.outputs.plan == 'true'
        uses: ` + uploadAction + `
        with:
          name: planwarden-${{ matrix.project }}
          path: |
            ${{ matrix.dir }}/whatif.json
            ${{ matrix.dir }}/planwarden-metadata.json
          retention-days: 7
`)
	}
	return b.String()
}

func writeMatrix(b *strings.Builder, ps []foundProject) {
	for _, p := range ps {
		dir := p.dir
		if dir == "" {
			dir = "."
		}
		fmt.Fprintf(b, "          - project: %s\n            dir: %s\n", yamlString(p.name), yamlString(dir))
	}
}
