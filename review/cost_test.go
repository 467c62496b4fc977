package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

func f(v float64) *float64 { return &v }

func TestProjectCost(t *testing.T) {
	side := &infra.Side{SKU: "x"}
	tests := map[string]struct {
		resources []*infra.Resource
		want      Cost
	}{
		"create and delete": {
			resources: []*infra.Resource{
				{Address: "a", After: side, Cost: infra.Cost{HourlyAfter: f(3.5), MaxHourlyAfter: f(7)}},
				{Address: "b", Before: side, Cost: infra.Cost{HourlyBefore: f(1.25)}},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(1.25), HourlyAfter: f(3.5), HourlyDelta: f(2.25), MaxHourlyAfter: f(7), Unpriced: []Unpriced{}},
		},
		"unpriced after side is not a saving": {
			resources: []*infra.Resource{
				{Address: "pool", Before: side, After: side, Cost: infra.Cost{HourlyBefore: f(6.12),
					Unpriced: []infra.Unpriced{{Address: "pool", SKU: "Standard_Mystery_v9", Reason: "not in the catalog"}}}},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(6.12), HourlyAfter: nil, HourlyDelta: nil, MaxHourlyAfter: nil,
				Unpriced: []Unpriced{{Address: "pool", SKU: "Standard_Mystery_v9", Reason: "not in the catalog"}}},
		},
		"priced parts still sum beside an unpriced one": {
			resources: []*infra.Resource{
				{Address: "a", After: side, Cost: infra.Cost{HourlyAfter: f(2)}},
				{Address: "b", After: side, Cost: infra.Cost{Unpriced: []infra.Unpriced{{Address: "b", SKU: "y", Reason: "no price in region"}}}},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(2), HourlyDelta: f(2), MaxHourlyAfter: f(2),
				Unpriced: []Unpriced{{Address: "b", SKU: "y", Reason: "no price in region"}}},
		},
		"nothing to price": {
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(0), HourlyDelta: f(0), MaxHourlyAfter: f(0), Unpriced: []Unpriced{}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, projectCost(tc.resources)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTotalsKeepUnknownsUnknown(t *testing.T) {
	got := totals([]*Project{
		{Cost: Cost{HourlyBefore: f(1), HourlyAfter: f(2), HourlyDelta: f(1), MaxHourlyAfter: f(4)}},
		{Cost: Cost{HourlyBefore: f(10), HourlyAfter: nil, HourlyDelta: nil, MaxHourlyAfter: nil, Unpriced: []Unpriced{{Address: "x"}}}},
	})
	want := Totals{HourlyBefore: f(11), HourlyAfter: f(2), HourlyDelta: f(1), MaxHourlyAfter: f(4), UnpricedCount: 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
