package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

func f(v float64) *float64 { return &v }

// priced builds a fully priced cost: before, after, and after at min and max.
func priced(before, after, maxAfter float64) infra.Cost {
	return infra.Cost{HourlyBefore: f(before), HourlyAfter: f(after), MinHourlyAfter: f(after), MaxHourlyAfter: f(maxAfter), MaxHourlyBefore: f(before)}
}

func TestProjectCost(t *testing.T) {
	t.Parallel()
	side := &infra.Side{SKU: "x"}
	tests := map[string]struct {
		resources    []*infra.Resource
		notEstimated []NotEstimated
		want         Cost
	}{
		"create and delete": {
			resources: []*infra.Resource{
				{Address: "a", After: side, Cost: priced(0, 3.5, 7)},
				{Address: "b", Before: side, Cost: priced(1.25, 0, 0)},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(1.25), HourlyAfter: f(3.5), HourlyDelta: f(2.25), MaxHourlyAfter: f(7),
				MaxHourlyBefore: f(1.25), MaxHourlyDelta: f(5.75), Unpriced: []Unpriced{}, PricedResources: 2, NotEstimated: []NotEstimated{}, MinHourlyAfter: f(3.5)},
		},
		"unpriced after side is not a saving": {
			resources: []*infra.Resource{
				{Address: "pool", Before: side, After: side, Cost: infra.Cost{HourlyBefore: f(6.12),
					Unpriced: []infra.Unpriced{{Address: "pool", SKU: "Standard_Mystery_v9", Reason: "not in the catalog", Side: "after"}}}},
			},
			want: Cost{Currency: "USD", UnpricedResources: 1, NotEstimated: []NotEstimated{},
				Unpriced: []Unpriced{{Address: "pool", SKU: "Standard_Mystery_v9", Reason: "not in the catalog", Side: "after"}}},
		},
		"priced parts sum beside an unpriced one": {
			resources: []*infra.Resource{
				{Address: "a", After: side, Cost: priced(0, 2, 2)},
				{Address: "b", After: side, Cost: infra.Cost{HourlyBefore: f(0), Unpriced: []infra.Unpriced{{Address: "b", SKU: "y", Reason: "no price in region"}}}},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(2), HourlyDelta: f(2), MaxHourlyAfter: f(2), PricedResources: 1, UnpricedResources: 1,
				MaxHourlyBefore: f(0), MaxHourlyDelta: f(2), NotEstimated: []NotEstimated{}, MinHourlyAfter: f(2),
				Unpriced: []Unpriced{{Address: "b", SKU: "y", Reason: "no price in region"}}},
		},
		"endpoint configuration billed through its endpoint counts once": {
			resources: []*infra.Resource{
				{Address: "aws_sagemaker_endpoint_configuration.c", After: side, Cost: func() infra.Cost { c := priced(0, 2.4, 2.4); c.BilledVia = "aws_sagemaker_endpoint"; return c }()},
				{Address: "aws_sagemaker_endpoint.e", After: side, Cost: priced(0, 2.4, 2.4)},
			},
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(2.4), HourlyDelta: f(2.4), MaxHourlyAfter: f(2.4), PricedResources: 1, Unpriced: []Unpriced{},
				MaxHourlyBefore: f(0), MaxHourlyDelta: f(2.4), NotEstimated: []NotEstimated{}, MinHourlyAfter: f(2.4)},
		},
		"your price beside the list price": {
			resources: []*infra.Resource{{Address: "pool", After: side, Cost: func() infra.Cost {
				c := priced(0, 2.9, 2.9)
				c.YourPrice, c.ListHourlyBefore, c.ListHourlyAfter = true, f(0), f(3.673)
				return c
			}()}},
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(2.9), HourlyDelta: f(2.9), MaxHourlyAfter: f(2.9), PricedResources: 1,
				MaxHourlyBefore: f(0), MaxHourlyDelta: f(2.9), Unpriced: []Unpriced{}, NotEstimated: []NotEstimated{},
				ListHourlyBefore: f(0), ListHourlyAfter: f(3.673), ListHourlyDelta: f(3.673), YourPriceResources: 1, MinHourlyAfter: f(2.9)},
		},
		"nothing that bills by the hour: 0": {
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(0), HourlyDelta: f(0), MaxHourlyAfter: f(0), Unpriced: []Unpriced{},
				MaxHourlyBefore: f(0), MaxHourlyDelta: f(0), NotEstimated: []NotEstimated{}, MinHourlyAfter: f(0)},
		},
		"only resources planwarden does not estimate: null, not 0": {
			notEstimated: []NotEstimated{{Address: "aws_db_instance.main", Type: "aws_db_instance", Kind: "database", Action: "create"}},
			want: Cost{Currency: "USD", Unpriced: []Unpriced{},
				NotEstimated: []NotEstimated{{Address: "aws_db_instance.main", Type: "aws_db_instance", Kind: "database", Action: "create"}}},
		},
		"an autoscaled pool: the delta at maximum scale beside the expected one": {
			resources: []*infra.Resource{{Address: "pool", After: side, Cost: infra.Cost{HourlyBefore: f(0), HourlyAfter: f(0),
				MinHourlyAfter: f(0), MaxHourlyAfter: f(36.73), MaxHourlyBefore: f(0)}}},
			want: Cost{Currency: "USD", HourlyBefore: f(0), HourlyAfter: f(0), HourlyDelta: f(0), MaxHourlyAfter: f(36.73), PricedResources: 1,
				MaxHourlyBefore: f(0), MaxHourlyDelta: f(36.73), Unpriced: []Unpriced{}, NotEstimated: []NotEstimated{}, MinHourlyAfter: f(0)},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if tc.want.ListHourlyBefore == nil && tc.want.ListHourlyAfter == nil {
				// Without pricing the list figures are the hourly ones.
				tc.want.ListHourlyBefore, tc.want.ListHourlyAfter, tc.want.ListHourlyDelta = tc.want.HourlyBefore, tc.want.HourlyAfter, tc.want.HourlyDelta
			}
			if diff := cmp.Diff(tc.want, projectCost(infra.Sum(tc.resources), tc.notEstimated)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTotalsKeepUnknownsUnknown(t *testing.T) {
	t.Parallel()
	got := totals([]*Project{
		{Cost: Cost{HourlyBefore: f(1), HourlyAfter: f(2), HourlyDelta: f(1), MaxHourlyAfter: f(4)}},
		{Cost: Cost{Unpriced: []Unpriced{{Address: "x"}}}},
	})
	want := Totals{HourlyBefore: f(1), HourlyAfter: f(2), HourlyDelta: f(1), MaxHourlyAfter: f(4), UnpricedCount: 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := totals([]*Project{{Cost: Cost{Unpriced: []Unpriced{{Address: "x"}}}}}); got.HourlyDelta != nil {
		t.Errorf("a wholly unpriced review has delta %v, want null", *got.HourlyDelta)
	}
}
