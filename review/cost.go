package review

import "github.com/planwarden/planwarden/infra"

// projectCost sums the priced parts of a project. An unpriced part is
// listed, never added as zero; a figure with no priced part at all but
// something unpriced is null. The delta counts only resources priced on
// every side they have, so a SKU with no price never looks like a saving.
func projectCost(resources []*infra.Resource) Cost {
	c := Cost{Currency: "USD", Unpriced: []Unpriced{}}
	var before, after, maxAfter, diff sum
	zero := 0.0
	for _, r := range resources {
		b, a := &zero, &zero
		if r.Before != nil {
			b = r.Cost.HourlyBefore
			before.add(b)
		}
		if r.After != nil {
			a = r.Cost.HourlyAfter
			after.add(a)
			m := r.Cost.MaxHourlyAfter
			if m == nil {
				m = a
			}
			maxAfter.add(m)
		}
		if b != nil && a != nil {
			d := *a - *b
			diff.add(&d)
		} else {
			diff.add(nil)
		}
		for _, u := range r.Cost.Unpriced {
			c.Unpriced = append(c.Unpriced, Unpriced{Address: u.Address, SKU: u.SKU, Reason: u.Reason})
		}
	}
	c.HourlyBefore, c.HourlyAfter, c.MaxHourlyAfter = before.value(), after.value(), maxAfter.value()
	c.HourlyDelta = diff.value()
	return c
}

func totals(projects []*Project) Totals {
	var before, after, maxAfter, diff sum
	t := Totals{}
	for _, p := range projects {
		before.add(p.Cost.HourlyBefore)
		after.add(p.Cost.HourlyAfter)
		maxAfter.add(p.Cost.MaxHourlyAfter)
		diff.add(p.Cost.HourlyDelta)
		t.UnpricedCount += len(p.Cost.Unpriced)
	}
	t.HourlyBefore, t.HourlyAfter, t.MaxHourlyAfter = before.value(), after.value(), maxAfter.value()
	t.HourlyDelta = diff.value()
	return t
}

// sum adds known figures and remembers whether any was unknown.
type sum struct {
	total          float64
	known, unknown int
}

func (s *sum) add(v *float64) {
	if v == nil {
		s.unknown++
		return
	}
	s.known++
	s.total += *v
}

// value is the sum of the known figures; nil when only unknown ones were added.
func (s *sum) value() *float64 {
	if s.known == 0 && s.unknown > 0 {
		return nil
	}
	v := round(s.total)
	return &v
}

// round keeps figures to a hundredth of a cent, so sums do not show float noise.
func round(v float64) float64 {
	const q = 10000
	if v < 0 {
		return -float64(int64(-v*q+0.5)) / q
	}
	return float64(int64(v*q+0.5)) / q
}
