package lockfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const base = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/azurerm" {
  version     = "3.116.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:0123456789abcdef0123456789abcdef0123456789a=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.3"
}
`

const head = `provider "registry.terraform.io/hashicorp/azurerm" {
  version     = "4.2.0"
  constraints = "~> 4.0"
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.3"
}

provider "registry.opentofu.org/hashicorp/kubernetes" {
  version = "2.33.0"
}
`

func TestMovesListsTheProvidersAPullRequestUpgrades(t *testing.T) {
	t.Parallel()
	b, err := Parse("base.lock.hcl", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	h, err := Parse("head.lock.hcl", []byte(head))
	if err != nil {
		t.Fatal(err)
	}
	want := []Move{
		{Source: "registry.opentofu.org/hashicorp/kubernetes", Name: "kubernetes", After: "2.33.0"},
		{Source: "registry.terraform.io/hashicorp/azurerm", Name: "azurerm", Before: "3.116.0", After: "4.2.0"},
	}
	if diff := cmp.Diff(want, Moves(b, h)); diff != "" {
		t.Errorf("Moves (-want +got):\n%s", diff)
	}
	if got := Moves(b, b); len(got) != 0 {
		t.Errorf("a lock file against itself moves %v", got)
	}
	removed := Moves(h, b)
	if len(removed) != 2 || removed[0].Name != "kubernetes" || removed[0].After != "" || removed[0].Before != "2.33.0" {
		t.Errorf("a removed provider: %+v", removed)
	}
}

func TestParseRefusesWhatIsNoLockFile(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ src, says string }{
		"not HCL":          {"provider \"x\" {\n  version = \n", "x.hcl:"},
		"no version":       {"provider \"registry.terraform.io/hashicorp/aws\" {\n  constraints = \"~> 5.0\"\n}\n", "version"},
		"version not text": {"provider \"registry.terraform.io/hashicorp/aws\" {\n  version = 5\n}\n", `x.hcl:2: provider "registry.terraform.io/hashicorp/aws": version must be a version string`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.hcl", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Parse: %v; want an error saying %q", err, tc.says)
			}
		})
	}
	// The honest twin: the same block with its version reads.
	if l, err := Parse("x.hcl", []byte("provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"5.0.1\"\n}\n")); err != nil || l["registry.terraform.io/hashicorp/aws"] != "5.0.1" {
		t.Errorf("Parse of a good lock file: %v, %v", l, err)
	}
}
