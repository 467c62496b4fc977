package rules

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// TestSameSKUKey: unpriced-sku says a SKU and region once per resource;
// two items are the same when SKU + NUL + region reads the same.
func TestSameSKUKey(t *testing.T) {
	tests := map[string]struct {
		a, b infra.Unpriced
		want bool
	}{
		"same SKU and region":      {infra.Unpriced{SKU: "x", Region: "eu"}, infra.Unpriced{SKU: "x", Region: "eu"}, true},
		"same SKU, another region": {infra.Unpriced{SKU: "x", Region: "eu"}, infra.Unpriced{SKU: "x", Region: "us"}, false},
		"another SKU, same region": {infra.Unpriced{SKU: "x", Region: "eu"}, infra.Unpriced{SKU: "y", Region: "eu"}, false},
		"the region's start moved": {infra.Unpriced{SKU: "xe", Region: "u"}, infra.Unpriced{SKU: "x", Region: "eu"}, false},
		"a NUL making one text":    {infra.Unpriced{SKU: "a\x00b", Region: ""}, infra.Unpriced{SKU: "a", Region: "b\x00"}, true},
		"a NUL, other bytes":       {infra.Unpriced{SKU: "a\x00b", Region: ""}, infra.Unpriced{SKU: "a", Region: "c\x00"}, false},
		"both empty":               {infra.Unpriced{}, infra.Unpriced{}, true},
		"lengths differ":           {infra.Unpriced{SKU: "x"}, infra.Unpriced{SKU: "xx"}, false},
	}
	for name, tt := range tests {
		if got := sameSKUKey(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: sameSKUKey = %v, want %v", name, got, tt.want)
		}
	}
}
