package infra

import "testing"

// A region is read only when it is a name by planparse's allow-list:
// folding text that is not one ("us-central1 <password>") would make a
// token of it, shown wherever the region is.
func TestNormalizeRegionKeepsOnlyNames(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"us-central1":            "us-central1",
		"West Europe":            "westeurope",
		" eastus2 ":              "eastus2",
		"us-central1 Qx7pQ2mK9v": "",
		"eu-west-1?token=abc":    "",
		"":                       "",
	}
	for in, want := range tests {
		if got := NormalizeRegion(in); got != want {
			t.Errorf("NormalizeRegion(%q) = %q, want %q", in, got, want)
		}
	}
}
