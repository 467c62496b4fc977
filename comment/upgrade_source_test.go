package comment_test

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// The project's note about provider moves names the file they were read
// from: a lock file by its path, a Terraform file's required_providers by
// the file, each file once; a lock file given by hand (the CLI's) as
// .terraform.lock.hcl. A move read from required_providers never says
// it came from a lock file.
func TestProviderUpgradeNoteNamesItsFile(t *testing.T) {
	t.Parallel()
	azurerm := review.ProviderUpgrade{Provider: "registry.terraform.io/hashicorp/azurerm", Name: "azurerm", Before: "~> 3.116", After: "~> 4.2"}
	with := func(u review.ProviderUpgrade, from string) review.ProviderUpgrade { u.From = from; return u }
	random := review.ProviderUpgrade{Provider: "registry.terraform.io/hashicorp/random", Name: "random", Before: "~> 3.5", After: "~> 3.6"}
	tests := map[string]struct {
		ups       []review.ProviderUpgrade
		says, not string
	}{
		"required_providers": {[]review.ProviderUpgrade{with(azurerm, "infra/gpu/versions.tf")},
			"(`required_providers` in `infra/gpu/versions.tf`):", "lock.hcl"},
		"required_providers in two files": {[]review.ProviderUpgrade{with(azurerm, "infra/gpu/versions.tf"), with(random, "infra/gpu/main.tf")},
			"(`required_providers` in `infra/gpu/versions.tf`, `required_providers` in `infra/gpu/main.tf`):", "lock.hcl"},
		"twin: the project's lock file": {[]review.ProviderUpgrade{with(azurerm, "infra/gpu/.terraform.lock.hcl"), with(random, "infra/gpu/.terraform.lock.hcl")},
			"(`infra/gpu/.terraform.lock.hcl`):", "required_providers"},
		"twin: a lock file given by hand": {[]review.ProviderUpgrade{azurerm},
			"(`.terraform.lock.hcl`):", "required_providers"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := reviewtest.Change(review.ChangeRow{Address: "azurerm_kubernetes_cluster_node_pool.gpu", Type: "azurerm_kubernetes_cluster_node_pool", Action: "replace"})
			c.ProviderUpgrades = tc.ups
			r := &review.Report{Verdict: "pass", Projects: []*review.Project{{Name: "gpu", Changes: []*review.Change{c}, ProviderUpgrades: tc.ups,
				Summary: review.Summary{Replace: 1}}}}
			md := comment.Render(r, comment.Options{})
			line := ""
			for _, l := range strings.Split(md, "\n") {
				if strings.Contains(l, "This pull request moves") {
					line = l
				}
			}
			if !strings.Contains(line, tc.says) || strings.Contains(line, tc.not) {
				t.Errorf("the project note should say %q and not %q: %q", tc.says, tc.not, line)
			}
		})
	}
}
