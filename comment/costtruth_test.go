package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// TestCostTruth holds the figures issue 11 found wrong, one assertion each,
// on testdata/cost-truth.json (its golden file shows them in place).
func TestCostTruth(t *testing.T) {
	t.Parallel()
	r, opt := loadCase(t, "testdata/cost-truth.json")
	md := Render(r, opt)
	gpuRows := func(prefix string) []string {
		var out []string
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "| `"+prefix) && strings.Contains(l, "NVIDIA") {
				out = append(out, l)
			}
		}
		return out
	}
	tests := map[string]struct {
		ok   bool
		want string
	}{
		"one GPU row per endpoint, none for its configuration": {
			len(gpuRows("aws_sagemaker_endpoint.")) == 1 && len(gpuRows("aws_sagemaker_endpoint_configuration")) == 0, "1 endpoint row, 0 configuration rows"},
		"autoscaling target 1..10 sets the endpoint's max": {
			strings.Contains(md, "1 / 1 / 1 → 1 / 3 / 10") && strings.Contains(md, "4 → 12 (at max 4 → 40)"), "1 / 3 / 10 and 40 GPUs at max"},
		"a forgotten pool keeps its GPUs and says so": {
			strings.Contains(md, "| 2 → 2 (no longer managed by Terraform; keeps running and billing) |"), "2 → 2, keeps running"},
		"min_count 0 reads \\$0 to max, not a bare \\$0.00": {
			strings.Contains(md, `| — → \$0.00 to \$36.73 |`), `— → \$0.00 to \$36.73`},
		"the headline gives the delta at maximum scale too": {
			strings.Contains(md, `**Cost:** +\$14.56 per hour (+\$10,631.72 per month); at maximum scale +\$100.92 per hour (up to \$115.36)`), "both deltas"},
		"the caption says what the totals include": {
			strings.Contains(md, "of the 4 resources planwarden prices in this plan, changed or unchanged") && !strings.Contains(md, "what this plan touches"), "4 resources, changed or unchanged"},
		"hourly resources planwarden does not estimate are listed once": {
			strings.Count(md, "`aws_db_instance.features` (database)") == 1, "aws_db_instance.features listed once"},
		"an approximate price says so": {
			strings.Contains(md, "≈ Approximate: `aws_instance.etl`: priced at the `us-east-1` list price"), "the etl instance at the us-east-1 list price"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if !tc.ok {
				t.Errorf("want %s in:\n%s", tc.want, md)
			}
		})
	}
	p := r.Projects[0]
	if n := len(p.Cost.NotEstimated); n != 1 || p.Cost.ApproximateResources != 1 {
		t.Errorf("JSON cost: %d not estimated, %d approximate; want 1 and 1", n, p.Cost.ApproximateResources)
	}
	for _, c := range p.Changes {
		if c.Address() == "aws_instance.etl" && (c.PriceBasis() != infra.BasisApproximate || c.PriceRegion() != "us-east-1") {
			t.Errorf("aws_instance.etl: price_basis %q, price_region %q; want approximate us-east-1", c.PriceBasis(), c.PriceRegion())
		}
	}
}
