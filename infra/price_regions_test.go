package infra

import (
	"slices"
	"testing"
)

// A resource's PriceRegions lists, sorted, every region one of its sides
// is priced in: an instance that moves from us-west-2 to us-east-1 (a
// replacement) is priced in both, and one that stays lists its region once.
func TestPriceRegionsListsEverySidesRegion(t *testing.T) {
	t.Parallel()
	inst := func(az string) map[string]any {
		return map[string]any{"instance_type": "g5.xlarge", "availability_zone": az}
	}
	for name, tc := range map[string]struct {
		before, after map[string]any
		actions       []string
		want          []string
	}{
		"moved to another region": {before: inst("us-west-2a"), after: inst("us-east-1a"), actions: []string{"delete", "create"},
			want: []string{"us-east-1", "us-west-2"}},
		"moved within a region": {before: inst("us-east-1a"), after: inst("us-east-1b"), actions: []string{"delete", "create"},
			want: []string{"us-east-1"}},
	} {
		r := analyze(t, tplan{changes: []rc{{addr: "aws_instance.a", actions: tc.actions, before: tc.before, after: tc.after}}}, Options{})[0]
		if !slices.Equal(r.Cost.PriceRegions, tc.want) || len(r.Cost.Unpriced) != 0 {
			t.Errorf("%s: priced in %q, unpriced %v; want priced in %q, nothing unpriced", name, r.Cost.PriceRegions, r.Cost.Unpriced, tc.want)
		}
	}
}
