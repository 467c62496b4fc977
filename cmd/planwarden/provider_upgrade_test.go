package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/review/reviewtest"
)

const lockAzurerm = `provider "registry.terraform.io/hashicorp/azurerm" {
  version     = "%s"
  constraints = ">= 3.0.0"
}
`

// upgradeProject writes a project directory: a plan that replaces a GPU
// pool and updates a bucket, and its head lock file at azurerm head.
func upgradeProject(t *testing.T, head string) (plan, base string) {
	t.Helper()
	dir := t.TempDir()
	replaced := scaleGPU(2, 2, a100)
	replaced.Actions = []string{"delete", "create"}
	replaced.ReplacePaths = [][]any{{"vm_size"}}
	plan = filepath.Join(dir, "plan.json")
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(plan, string(reviewtest.Plan([]reviewtest.PlanChange{replaced, scaleGPU(2, 3, a100)})))
	if head != "" {
		write(filepath.Join(dir, ".terraform.lock.hcl"), strings.Replace(lockAzurerm, "%s", head, 1))
	}
	base = filepath.Join(t.TempDir(), "base.lock.hcl")
	write(base, strings.Replace(lockAzurerm, "%s", "3.116.0", 1))
	return plan, base
}

func TestReviewNamesTheProviderUpgradeOnEveryReplacement(t *testing.T) {
	t.Parallel()
	const sentence = "this PR also moves azurerm 3.116.0 → 4.2.0; a replacement can come from the upgrade, not from the code"
	tests := map[string]struct {
		head string
		says bool
	}{
		"azurerm upgraded": {"4.2.0", true},
		"the same azurerm": {"3.116.0", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			plan, base := upgradeProject(t, tc.head)
			code, md, stderr := runCLI(t, "", "review", "--lockfile-base", base, plan)
			if code == exitUsage {
				t.Fatalf("review: %s", stderr)
			}
			if strings.Contains(md, sentence) != tc.says {
				t.Errorf("the comment says %q: %v, want %v\n%s", sentence, !tc.says, tc.says, md)
			}
			if tc.says && strings.Count(md, sentence) != 1 {
				t.Errorf("the sentence is on %d rows; only the replacement (not the update) says it", strings.Count(md, sentence))
			}
			code, js, _ := runCLI(t, "", "review", "--format", "json", "--lockfile-base", base, plan)
			if code == exitUsage {
				t.Fatal("review --format json failed")
			}
			var doc struct {
				Projects []struct {
					ProviderUpgrades []struct{ Provider, Name, Before, After string } `json:"provider_upgrades"`
					Changes          []struct {
						Action           string   `json:"action"`
						ProviderUpgrades []string `json:"provider_upgrades"`
					} `json:"changes"`
				} `json:"projects"`
			}
			if err := json.Unmarshal([]byte(js), &doc); err != nil {
				t.Fatal(err)
			}
			p := doc.Projects[0]
			if !tc.says {
				if len(p.ProviderUpgrades) != 0 || len(p.Changes[0].ProviderUpgrades) != 0 {
					t.Errorf("no upgrade, yet the report lists %+v", p)
				}
				return
			}
			if len(p.ProviderUpgrades) != 1 || p.ProviderUpgrades[0].Provider != "registry.terraform.io/hashicorp/azurerm" || p.ProviderUpgrades[0].Before != "3.116.0" || p.ProviderUpgrades[0].After != "4.2.0" {
				t.Errorf("provider_upgrades = %+v", p.ProviderUpgrades)
			}
			for _, c := range p.Changes {
				if got := strings.Join(c.ProviderUpgrades, ","); (c.Action == "replace") != (got == "azurerm") {
					t.Errorf("the %s row's provider_upgrades = %q", c.Action, got)
				}
			}
		})
	}
}

func TestReviewRefusesAMissingOrBadLockFile(t *testing.T) {
	t.Parallel()
	plan, base := upgradeProject(t, "")
	bad := filepath.Join(t.TempDir(), "bad.hcl")
	if err := os.WriteFile(bad, []byte("provider \"registry.terraform.io/hashicorp/azurerm\" {\n  version = \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		args []string
		says string
	}{
		"no head lock file beside the plan": {[]string{"--lockfile-base", base, plan}, ".terraform.lock.hcl"},
		"a lock file that is not HCL":       {[]string{"--lockfile-base", bad, "--lockfile", base, plan}, "bad.hcl:2"},
		"--lockfile alone":                  {[]string{"--lockfile", base, plan}, "--lockfile needs --lockfile-base"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", append([]string{"review"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stderr %q; want 2 saying %q", code, stderr, tc.says)
			}
		})
	}
}
