package comment

import (
	"testing"

	"github.com/planwarden/planwarden/infra"
)

// The per-node accelerator cell of the GPU table says "unknown" whenever
// planwarden cannot tell, never "none".
func TestPerNodeCell(t *testing.T) {
	tests := map[string]struct {
		s    *infra.Side
		want string
	}{
		"a SKU not in the catalog":        {&infra.Side{SKU: "Standard_ZZ9_v9", Groups: []infra.Group{{SKU: infra.SKU{Name: "Standard_ZZ9_v9"}}}}, "unknown (SKU not in the catalog)"},
		"no SKU in the plan":              {&infra.Side{Groups: []infra.Group{{}}}, "unknown"},
		"a known CPU SKU":                 {&infra.Side{SKU: "Standard_D4s_v5", Groups: []infra.Group{{SKU: infra.SKU{Name: "Standard_D4s_v5", Known: true}}}}, "none"},
		"no groups and no SKU":            {&infra.Side{}, "unknown"},
		"no groups, a SKU the plan names": {&infra.Side{SKU: "Standard_D4s_v5"}, "none"},
		"no side (created or deleted)":    {nil, "—"},
		"a serverless SageMaker variant":  {&infra.Side{Groups: []infra.Group{{Serverless: true}}}, "serverless"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := perNode(tc.s); got != tc.want {
				t.Errorf("perNode = %q, want %q", got, tc.want)
			}
		})
	}
}

// A fleet's hourly cell shows what autoscaling can reach: "(up to ...)"
// from a non-zero expected cost at the minimum, "(min ..., max ...)" when
// the minimum is below it, "... to ..." from a pool expected at zero.
func TestHourlyRangeCell(t *testing.T) {
	tests := map[string]struct {
		exp, lo, hi *float64
		want        string
	}{
		"30 cents expected, up to $3.00": {f64(0.3), f64(0.3), f64(3), `\$0.30 (up to \$3.00)`},
		"a minimum below the expected":   {f64(0.3), f64(0), f64(3), `\$0.30 (min \$0.00, max \$3.00)`},
		"expected at zero nodes":         {f64(0), f64(0), f64(3), `\$0.00 to \$3.00`},
		"no autoscaling":                 {f64(0.3), f64(0.3), f64(0.3), `\$0.30`},
		"unknown":                        {nil, nil, nil, "unknown"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := hourlyRange(tc.exp, tc.lo, tc.hi, false); got != tc.want {
				t.Errorf("hourlyRange = %q, want %q", got, tc.want)
			}
		})
	}
}
