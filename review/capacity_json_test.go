package review_test

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// A change row says how its capacity is bought when not on demand: spot,
// a capacity reservation, a Capacity Block; an on-demand row says nothing.
func TestChangeRowCapacity(t *testing.T) {
	t.Parallel()
	inst := func(name string, extra map[string]any) reviewtest.PlanChange {
		after := map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a"}
		for k, v := range extra {
			after[k] = v
		}
		return reviewtest.PlanChange{Address: "aws_instance." + name, Actions: []string{"create"}, After: after}
	}
	plan := reviewtest.Plan([]reviewtest.PlanChange{
		inst("spot", map[string]any{"instance_market_options": []any{map[string]any{"market_type": "spot"}}}),
		inst("block", map[string]any{"instance_market_options": []any{map[string]any{"market_type": "capacity-block"}}}),
		inst("reserved", map[string]any{"capacity_reservation_specification": []any{map[string]any{
			"capacity_reservation_target": []any{map[string]any{"capacity_reservation_id": "cr-1"}}}}}),
		inst("plain", nil),
	})
	p, err := planparse.Parse("capacity.json", plan)
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "train", Plan: p}}, review.Options{})
	want := map[string]string{"aws_instance.spot": "spot", "aws_instance.block": "capacity-block",
		"aws_instance.reserved": "capacity-reservation", "aws_instance.plain": ""}
	for _, c := range r.Projects[0].Changes {
		if got := c.Row().Capacity; got != want[c.Address()] {
			t.Errorf("%s: capacity %q, want %q", c.Address(), got, want[c.Address()])
		}
	}
	if n := len(r.Projects[0].Changes); n != 4 {
		t.Errorf("%d changes, want 4", n)
	}
}
