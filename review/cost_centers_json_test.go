package review_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

// The JSON report's roll-up by cost center spans every project of the
// pull request: one row per value of the first cost-allocation tag a
// resource carries, (untagged) its own row, GPUs by model at the expected
// and the maximum scale, the center's budget, and rows that add up to the
// totals.
func TestCostCentersInTheJSONReport(t *testing.T) {
	t.Parallel()
	vm := func(addr, size string, tags map[string]any) reviewtest.PlanChange {
		return reviewtest.PlanChange{Address: addr, Actions: []string{"create"},
			After: map[string]any{"name": "v", "size": size, "location": "eastus", "tags": tags}}
	}
	azure := reviewtest.Plan([]reviewtest.PlanChange{
		vm("azurerm_linux_virtual_machine.a", "Standard_NC24ads_A100_v4", map[string]any{"team": "nlp"}),
		vm("azurerm_linux_virtual_machine.b", "Standard_D4s_v5", nil),
	})
	aws := reviewtest.Plan([]reviewtest.PlanChange{{Address: "aws_instance.p5", Actions: []string{"create"},
		After: map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a", "tags": map[string]any{"cost-center": "nlp", "team": "other"}}}})
	var in []review.Input
	for name, b := range map[string][]byte{"azure": azure, "aws": aws} {
		p, err := planparse.Parse(name+".json", b)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, review.Input{Name: name, Environment: "prod", Plan: p})
	}
	cfg, err := rules.ParseConfig("planwarden.yml", []byte("version: 1\ncost_allocation:\n  tags: [cost-center, team]\n  monthly_budget:\n    nlp: {warn: 100000}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := reportjson.Write(&buf, review.Build(in, review.Options{Config: cfg})); err != nil {
		t.Fatal(err)
	}
	reviewtest.ValidateReport(t, "cost centers", buf.Bytes())
	var got struct {
		Totals struct {
			HourlyAfter float64 `json:"hourly_after"`
		} `json:"totals"`
		Tags []string `json:"cost_center_tags"`
		Rows []struct {
			Value       string  `json:"value"`
			HourlyAfter float64 `json:"hourly_after"`
			GPUsAfter   []struct {
				Model  string  `json:"model"`
				Count  float64 `json:"count"`
				AtMost float64 `json:"at_most"`
			} `json:"gpus_after"`
			Budget *struct {
				Warn float64 `json:"warn"`
			} `json:"monthly_budget"`
		} `json:"cost_centers"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 || got.Rows[0].Value != "nlp" || got.Rows[1].Value != "(untagged)" {
		t.Fatalf("rows %+v, want nlp and (untagged)", got.Rows)
	}
	nlp := got.Rows[0]
	// The A100 VM by its team tag, the p5 by its cost-center tag (the first key wins).
	if len(nlp.GPUsAfter) != 2 || nlp.GPUsAfter[0].Count != 1 || nlp.GPUsAfter[1].AtMost != 8 {
		t.Errorf("nlp GPUs after %+v, want 1 A100 and 8 H100", nlp.GPUsAfter)
	}
	if nlp.Budget == nil || nlp.Budget.Warn != 100000 || got.Rows[1].Budget != nil {
		t.Errorf("budgets %+v, %+v; want nlp's warn 100000 and none for (untagged)", nlp.Budget, got.Rows[1].Budget)
	}
	if sum := nlp.HourlyAfter + got.Rows[1].HourlyAfter; math.Abs(sum-got.Totals.HourlyAfter) > 0.0001 {
		t.Errorf("rows add up to %v, totals.hourly_after is %v", sum, got.Totals.HourlyAfter)
	}
	if len(got.Tags) != 2 || got.Tags[0] != "cost-center" {
		t.Errorf("cost_center_tags %v", got.Tags)
	}
}
