package comment

import (
	"math"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// The figures a reviewer acts on, one story each, on the golden cases
// (testdata/<case>.json; the .md files show them in place).
func TestCostFiguresReviewersActOn(t *testing.T) {
	t.Parallel()
	type story struct {
		// want are lines (or parts of lines) of the comment; never must
		// not appear; title is part of the check run's title.
		want, never []string
		title       string
		check       func(t *testing.T, r *review.Report)
	}
	tests := map[string]story{
		"min-0 A100 pool: the headline gives the range, gpu-increase warns": {
			want: []string{
				`**Cost:** no change at the expected scale; after it: \$0.00–\$36.73 per hour (expected \$0.00)`,
				"- `gpu-increase` on `azurerm_kubernetes_cluster_node_pool.burst`: node pool `burst` can add 10 GPUs at maximum scale (0 -\\> 10 A100 PCIe)",
				"| `ml-research` | none | none → 10 × A100 PCIe |",
			},
			never: []string{`**Cost:** \$0.00 per hour`, "| none → 0 × A100"},
			check: func(t *testing.T, r *review.Report) {
				if f := findingOf(r, rules.RuleGPUIncrease); f == nil || f.Severity != rules.SeverityWarn {
					t.Errorf("gpu-increase finding %+v, want a warning", f)
				}
			},
		},
		"spot pools with no spot price: at most the on-demand ceiling, labelled, one line": {
			want: []string{
				`**Cost:** spot, at most +\$220.38 per hour (the on-demand price as a ceiling, not the expected cost; 30 resources have no spot price)`,
				"| `azurerm_kubernetes_cluster_node_pool.spot1` | — → `Standard_NC24ads_A100_v4` | — → NVIDIA A100 80GB PCIe × 1 | — → 0 / 2 / 8 | 0 → 2 (at max 0 → 8) | — → spot, at most \\$7.35 (the on-demand ceiling; up to \\$29.38 at maximum scale) |",
				`| Hourly at most, spot at the on-demand price | \$0.00 | at most \$220.38 | at most +\$220.38 |`,
				"| Hourly | unknown | unknown | unknown |",
			},
			never: []string{`→ \$7.35 in`, `**Cost:** +\$220.38`},
			title: "GPUs 0 → 60 (A100 PCIe; at maximum scale 0 → 240); cost at most +$220.38/h (spot at on-demand)",
			check: func(t *testing.T, r *review.Report) {
				if r.Totals.HourlyAfter != nil {
					t.Errorf("JSON hourly_after %v, want null: spot with no spot price has no expected cost", *r.Totals.HourlyAfter)
				}
				if n := countFindings(r, rules.RuleUnpricedSKU); n != 1 {
					t.Errorf("%d unpriced-sku findings for 30 pools of one SKU, want 1", n)
				}
			},
		},
		"its twin: the same pools with a spot price are priced at it": {
			want: []string{
				`**Cost:** +\$66.00 per hour (+\$48,180.00 per month); after it: \$0.00–\$264.00 per hour (expected \$66.00)`,
				"— → \\$2.20 (min \\$0.00, max \\$8.80) (your spot price) in `eastus` |",
				`at on-demand list prices the change is +\$220.38 per hour`,
			},
			never: []string{"spot, at most", "not priced"},
			check: func(t *testing.T, r *review.Report) {
				if n := countFindings(r, rules.RuleUnpricedSKU); n != 0 {
					t.Errorf("%d unpriced-sku findings with a spot price, want 0", n)
				}
			},
		},
		"five firewalls: listed as not estimated, never a ✅": {
			want: []string{
				"## ☑️ No findings, but 5 resources are left out of the cost estimate",
				"**Cost:** not estimated (5 resources that bill, listed under Cost)",
				"- Not estimated, left out of the figures: 5 × `azurerm_firewall` (firewall).",
			},
			never: []string{"✅", "no priced resources"},
			check: func(t *testing.T, r *review.Report) {
				if r.Totals.NotEstimatedCount != 5 || r.Totals.HourlyAfter != nil {
					t.Errorf("JSON not_estimated_count %d, hourly_after %v; want 5 and null", r.Totals.NotEstimatedCount, r.Totals.HourlyAfter)
				}
			},
		},
		"the typo: GPUs lead the headline and the title, so a GPU loss never reads as a saving": {
			want: []string{
				`**GPUs:** 2 → 0 (V100; at maximum scale 4 → 0) · **Plan:** 1 to replace · **Cost:** -\$5.81 per hour (-\$4,238.38 per month)`,
			},
			title: "GPUs 2 → 0 (V100; at maximum scale 4 → 0); cost -$5.81/h",
		},
		"a VM with a 1 TB Premium OS disk: the disk is priced and named": {
			want: []string{
				"| create | `azurerm_linux_virtual_machine.trainer` | `azurerm_linux_virtual_machine` | SKU `Standard_NC24ads_A100_v4`; with OS disk `Premium_LRS` P30, 1,024 GiB: \\$135.17 a month; priced in `eastus` |",
				"| `azurerm_linux_virtual_machine.trainer` | `azure-ml` | — → `Standard_NC24ads_A100_v4` | — → NVIDIA A100 80GB PCIe × 1 | — → 1 / 1 / 1 | 0 → 1 | — → \\$3.86 in `eastus` |",
			},
			check: func(t *testing.T, r *review.Report) {
				// 3.673 the VM + 135.17 / 730 the P30 disk.
				for _, c := range r.Projects[0].Changes {
					if c.Address() == "azurerm_linux_virtual_machine.trainer" {
						if h := c.HourlyAfter(); h == nil || math.Abs(*h-(3.673+135.17/730)) > 0.0001 {
							t.Errorf("trainer hourly_after %v, want the VM and its P30 OS disk, 3.858164", h)
						}
					}
				}
			},
		},
		"two teams: GPUs and dollars by cost center, the rows add up to the totals": {
			want: []string{
				"| `nlp` | none → 2 × A100 PCIe, 8 × H100 | none → 2 × A100 PCIe, 8 × H100 | \\$0.00 | \\$62.44 | +\\$62.44 |",
				"| `vision` | none → 1 × A100 PCIe | none → 1 × A100 PCIe | \\$0.00 | \\$3.86 | +\\$3.86 |",
				"| (untagged) | none | none | \\$0.00 | \\$0.02 | +\\$0.02 | — |",
				`**GPUs:** 0 → 11 (A100 PCIe, H100)`,
				// monthly_budget per cost center: shown beside the row, judged by cost-increase.
				"+\\$62.44 | \\$45,581.78 of warn \\$40,000.00, block \\$80,000.00 |",
				"cost center `nlp` would cost \\$45,581.78 per month after this change",
			},
			never: []string{"cost center `vision` would cost"},
			check: func(t *testing.T, r *review.Report) {
				var before, after, maxAfter, gpus float64
				for _, c := range r.CostCenters {
					before, after, maxAfter = before+c.HourlyBefore, after+c.HourlyAfter, maxAfter+c.MaxHourlyAfter
					for _, g := range c.GPUsAfter {
						gpus += g.Count
					}
				}
				tt := r.Totals
				if len(r.CostCenters) != 3 || !near(before, tt.HourlyBefore) || !near(after, tt.HourlyAfter) || !near(maxAfter, tt.MaxHourlyAfter) || gpus != 11 {
					t.Errorf("%d rows adding up to %v → %v (max %v), %v GPUs; totals %v → %v (max %v), 11 GPUs",
						len(r.CostCenters), before, after, maxAfter, gpus, *tt.HourlyBefore, *tt.HourlyAfter, *tt.MaxHourlyAfter)
				}
			},
		},
		"disks with no price are counted as disks, not as resources left out": {
			want: []string{
				"## ☑️ No findings, but 2 disks are left out of the cost estimate",
				"Left out: 2 disks with no price (listed below).",
				"- Not estimated, left out of the figures: 2 disks (disk size known only after apply, or taken from the image).",
			},
			never: []string{"2 resources are left out", "✅"},
		},
	}
	cases := map[string]string{
		"disks with no price are counted as disks, not as resources left out":                   "your-price",
		"min-0 A100 pool: the headline gives the range, gpu-increase warns":                     "min0-a100-pool",
		"spot pools with no spot price: at most the on-demand ceiling, labelled, one line":      "spot-pools",
		"its twin: the same pools with a spot price are priced at it":                           "spot-pools-priced",
		"five firewalls: listed as not estimated, never a ✅":                                    "five-firewalls",
		"the typo: GPUs lead the headline and the title, so a GPU loss never reads as a saving": "aks-gpu-typo",
		"a VM with a 1 TB Premium OS disk: the disk is priced and named":                        "two-teams",
		"two teams: GPUs and dollars by cost center, the rows add up to the totals":             "two-teams",
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, opt := loadCase(t, "testdata/"+cases[name]+".json")
			md := Render(r, opt)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("want %q in:\n%s", w, md)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(md, n) {
					t.Errorf("%q must not appear in:\n%s", n, md)
				}
			}
			if tc.title != "" {
				if got := CheckOutput(r, opt).Title; !strings.Contains(got, tc.title) {
					t.Errorf("check title %q, want %q in it", got, tc.title)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func near(v float64, want *float64) bool { return want != nil && math.Abs(v-*want) < 0.00015 }

func findingOf(r *review.Report, rule string) *rules.Finding {
	for _, p := range r.Projects {
		for i := range p.Findings {
			if p.Findings[i].Rule == rule {
				return &p.Findings[i]
			}
		}
	}
	return nil
}

func countFindings(r *review.Report, rule string) int {
	n := 0
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			if f.Rule == rule {
				n++
			}
		}
	}
	return n
}
