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
			strings.Contains(md, "| — → \\$0.00 to \\$36.73 in `eastus` |"), `— → \$0.00 to \$36.73`},
		"the headline gives the range from minimum to maximum scale too": {
			strings.Contains(md, `**Cost:** +\$14.56 per hour (+\$10,631.72 per month), +\$100.92 per hour at maximum scale; after it: \$14.82–\$115.36 per hour (expected \$29.00)`), "expected, minimum and maximum"},
		"the headline leads with the GPUs": {
			strings.Contains(md, "**GPUs:** 6 → 14 (A10G, A100 PCIe; at maximum scale 6 → 52) · **Plan:**"), "GPUs first"},
		"the caption says what the totals include": {
			strings.Contains(md, "of the 4 resources planwarden prices in this plan, changed or unchanged") && !strings.Contains(md, "what this plan touches"), "4 resources, changed or unchanged"},
		"hourly resources planwarden does not estimate are listed once": {
			strings.Count(md, "1 × `aws_db_instance` (database)") == 1, "aws_db_instance listed once"},
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
	// The database, and the OS disks of the two A100 pools, whose size the
	// plan does not give.
	if n := len(p.Cost.NotEstimated); n != 3 || p.Cost.ApproximateResources != 1 {
		t.Errorf("JSON cost: %d not estimated, %d approximate; want 3 and 1", n, p.Cost.ApproximateResources)
	}
	for _, c := range p.Changes {
		if c.Address() == "aws_instance.etl" && (c.PriceBasis() != infra.BasisApproximate || c.PriceRegion() != "us-east-1") {
			t.Errorf("aws_instance.etl: price_basis %q, price_region %q; want approximate us-east-1", c.PriceBasis(), c.PriceRegion())
		}
	}
}
