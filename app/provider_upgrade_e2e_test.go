package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/review/reviewtest"
)

const upgradeConfig = "version: 1\nprojects:\n  - {name: gpu, directory: infra/gpu, environment: staging}\n"

const lockOf = `provider "registry.terraform.io/hashicorp/azurerm" {
  version     = "%s"
  constraints = ">= 3.0.0"
}
`

const versionsOf = `terraform {
  required_providers {
    azurerm = {
      source  = "hashicorp/azurerm"
      version = "%s"
    }
  }
}
`

// upgradePlan replaces a GPU pool (vm_size forces it) and scales another.
func upgradePlan() []byte {
	pool := func(name string, count int, size string) map[string]any {
		return map[string]any{"name": name, "vm_size": size, "node_count": count, "mode": "User",
			"node_taints": []any{"nvidia.com/gpu=present:NoSchedule"}, "tags": map[string]any{"cost-center": "ml"}}
	}
	replaced := reviewtest.PlanChange{Address: "azurerm_kubernetes_cluster_node_pool.gpu", Actions: []string{"delete", "create"},
		Before: pool("gpu", 2, "Standard_NC24ads_A100_v4"), After: pool("gpu", 2, "Standard_NC24ads_A100_v4"), ReplacePaths: [][]any{{"vm_size"}}}
	scaled := reviewtest.PlanChange{Address: "azurerm_kubernetes_cluster_node_pool.batch",
		Before: pool("batch", 2, "Standard_NC24ads_A100_v4"), After: pool("batch", 3, "Standard_NC24ads_A100_v4")}
	return reviewtest.Plan([]reviewtest.PlanChange{replaced, scaled})
}

// The App reads a project's lock file at the base branch and at the head
// when the pull request changes it (else the required_providers versions
// of the Terraform files it changes), and every replacement of that
// project says which providers the pull request moves, and the project's
// note names the file they were read from; a pull request that moves none
// says nothing of it.
func TestAppNamesTheProviderUpgradeOnEveryReplacement(t *testing.T) {
	t.Parallel()
	const note = "this PR also moves azurerm %s; a replacement can come from the upgrade, not from the code"
	tests := map[string]struct {
		files map[string][2]string // path -> base, head content
		says  string               // the moves; "" for no note
		from  string               // the project note's source of the moves
	}{
		"the lock file moves azurerm": {map[string][2]string{"infra/gpu/.terraform.lock.hcl": {fmt.Sprintf(lockOf, "3.116.0"), fmt.Sprintf(lockOf, "4.2.0")}},
			"3.116.0 → 4.2.0", "(`infra/gpu/.terraform.lock.hcl`)"},
		"required_providers moves azurerm": {map[string][2]string{"infra/gpu/versions.tf": {fmt.Sprintf(versionsOf, "~> 3.116"), fmt.Sprintf(versionsOf, "~> 4.2")}},
			`\~\> 3.116 → \~\> 4.2`, "(`required_providers` in `infra/gpu/versions.tf`)"}, // (escaped for markdown)
		"the lock file keeps azurerm": {map[string][2]string{"infra/gpu/.terraform.lock.hcl": {fmt.Sprintf(lockOf, "3.116.0"), fmt.Sprintf(lockOf, "3.116.0")}},
			"", ""},
		"no lock file, no provider change": {map[string][2]string{"infra/gpu/main.tf": {`resource "null_resource" "a" {}`, `resource "null_resource" "b" {}`}},
			"", ""},
		"another project's lock file": {map[string][2]string{"infra/other/.terraform.lock.hcl": {fmt.Sprintf(lockOf, "3.116.0"), fmt.Sprintf(lockOf, "4.2.0")}},
			"", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gh.SetFile(owner, repo, "main", ".github/planwarden.yml", []byte(upgradeConfig))
			var changed []string
			for p, sides := range tc.files {
				changed = append(changed, p)
				h.gh.SetFile(owner, repo, "main", p, []byte(sides[0]))
				h.gh.SetFile(owner, repo, sha1, p, []byte(sides[1]))
			}
			h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: 7, HeadSHA: sha1, Files: githubtest.Changed(changed...)})
			if code := h.deliver("pull_request", "pr-7", pullRequestEvent("opened", 7, sha1)); code != http.StatusAccepted {
				t.Fatalf("pull_request delivery: status %d", code)
			}
			h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", upgradePlan()}, metadata("gpu", "staging")), runOpt{})
			comments := h.gh.Comments(owner, repo, 7)
			if len(comments) != 1 {
				t.Fatalf("%d comments, want 1", len(comments))
			}
			body := comments[0].Body
			if tc.says == "" {
				if strings.Contains(body, "also moves") || strings.Contains(body, "This pull request moves") {
					t.Errorf("the comment names an upgrade the pull request does not make:\n%s", body)
				}
				return
			}
			if want := fmt.Sprintf(note, tc.says); !strings.Contains(body, want) {
				t.Errorf("the comment does not say %q:\n%s", want, body)
			}
			// The project's note names the file the moves were read from,
			// and no other.
			if want := "This pull request moves azurerm " + tc.says + " " + tc.from + ":"; !strings.Contains(body, want) {
				t.Errorf("the project note does not say %q:\n%s", want, body)
			}
			if strings.Contains(tc.from, "required_providers") && strings.Contains(body, "terraform.lock.hcl") {
				t.Errorf("the moves come from required_providers, but the comment names a lock file:\n%s", body)
			}
		})
	}
}
