package comment

import (
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

// upgradeProjectNote is the project section's line about the moves.
func upgradeProjectNote(ups []review.ProviderUpgrade) string {
	return text("This pull request moves "+upgradeList(ups)) + " (`.terraform.lock.hcl`): each replacement below can come from the upgrade, not from the code."
}
