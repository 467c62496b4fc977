package lockfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequiredReadsTheVersionConstraints(t *testing.T) {
	t.Parallel()
	const tf = `terraform {
  required_version = ">= 1.6"
  required_providers {
    azurerm = {
      source  = "hashicorp/azurerm"
      version = "~> 4.2"
    }
    gpu = {
      source  = "registry.example.com/acme/gpu"
      version = "1.0.0"
    }
    random = {
      version = "3.6.3"
    }
    unpinned = {
      source = "acme/unpinned"
    }
  }
}

resource "azurerm_resource_group" "rg" {
  name     = "ml"
  location = "eastus"
}
`
	got, err := Required("versions.tf", []byte(tf))
	if err != nil {
		t.Fatal(err)
	}
	want := Locks{
		"registry.terraform.io/hashicorp/azurerm": "~> 4.2",
		"registry.example.com/acme/gpu":           "1.0.0",
		"registry.terraform.io/hashicorp/random":  "3.6.3",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Required (-want +got):\n%s", d)
	}
	moves := Moves(Locks{"registry.terraform.io/hashicorp/azurerm": "~> 3.116"}, Locks{"registry.terraform.io/hashicorp/azurerm": "~> 4.2"})
	if len(moves) != 1 || moves[0].Name != "azurerm" || moves[0].Before != "~> 3.116" || moves[0].After != "~> 4.2" {
		t.Errorf("Moves of the constraints = %+v", moves)
	}
	if _, err := Required("main.tf", []byte("terraform {\n  required_providers {\n")); err == nil || !strings.Contains(err.Error(), "main.tf:") {
		t.Errorf("a broken file: %v, want an error naming main.tf and the line", err)
	}
}
