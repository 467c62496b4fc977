package comment

import (
	"path"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/review"
)

// upgradeList names the provider moves: "azurerm 3.116.0 → 4.2.0",
// joined with commas, as plain text (its callers escape the sentence
// whole, so a version is not escaped as a list item's number).
func upgradeList(ups []review.ProviderUpgrade) string {
	parts := make([]string, 0, len(ups))
	for _, u := range ups {
		switch {
		case u.Before == "":
			parts = append(parts, u.Name+" (added, "+u.After+")")
		case u.After == "":
			parts = append(parts, u.Name+" (removed, was "+u.Before+")")
		default:
			parts = append(parts, u.Name+" "+u.Before+" → "+u.After)
		}
	}
	return strings.Join(parts, ", ")
}

// upgradeNote is what a replacement's row says when the pull request
// moves providers.
func upgradeNote(ups []review.ProviderUpgrade) string {
	return text("this PR also moves " + upgradeList(ups) + "; a replacement can come from the upgrade, not from the code")
}

// upgradeProjectNote is the project section's line about the moves,
// naming the files they were read from (upgradeSources).
func upgradeProjectNote(ups []review.ProviderUpgrade) string {
	return text("This pull request moves "+upgradeList(ups)) + " (" + upgradeSources(ups) + "): each replacement below can come from the upgrade, not from the code."
}

// lockFileName is Terraform's dependency lock file.
const lockFileName = ".terraform.lock.hcl"

// upgradeSources names where the moves were read from, each file once in
// the moves' order: a lock file by its path, a Terraform file as
// "required_providers in" its path; a move of no known file (a lock file
// given by hand) as .terraform.lock.hcl.
func upgradeSources(ups []review.ProviderUpgrade) string {
	var seen []string
	var parts []string
	for _, u := range ups {
		if slices.Contains(seen, u.From) {
			continue
		}
		seen = append(seen, u.From)
		switch {
		case u.From == "":
			parts = append(parts, code(lockFileName))
		case path.Base(u.From) == lockFileName:
			parts = append(parts, code(u.From))
		default:
			parts = append(parts, code("required_providers")+" in "+code(u.From))
		}
	}
	return strings.Join(parts, ", ")
}
