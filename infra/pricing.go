package infra

import (
	"path"
	"strconv"
	"strings"
)

// Pricing is what an organisation pays instead of list prices: its own
// hourly price for some SKUs (a negotiated rate), and discounts by SKU
// pattern or by cloud (an enterprise agreement, a savings plan). Figures
// priced under it are "your price"; the list price stays beside them.
type Pricing struct {
	// Prices are your USD per hour for one instance of a SKU, by SKU name
	// (matched case-insensitively), in every region. They win over
	// Discounts.
	Prices map[string]float64
	// Discounts apply to the list price; the first that matches wins, so
	// put SKU patterns before whole clouds.
	Discounts []Discount
	// SpotPrices are your observed USD per hour for one spot (preemptible,
	// low-priority) instance of a SKU, by SKU name; they win over spot
	// discounts. Spot capacity with neither has no expected price.
	SpotPrices map[string]float64
}

// Discount takes a fraction off the list price of the SKUs it matches:
// those whose name matches SKU (a shell pattern, case-insensitive), or
// every SKU of Cloud when SKU is empty.
type Discount struct {
	Cloud, SKU string
	// Fraction is the share taken off: 0.28 pays 72% of list.
	Fraction float64
	// Spot makes the discount one off the on-demand list price for spot
	// capacity only (0.7 pays 30% of on-demand); other discounts apply to
	// on-demand capacity only.
	Spot bool
}

// IsZero reports whether the pricing leaves list prices as they are.
func (p Pricing) IsZero() bool {
	return len(p.Prices) == 0 && len(p.Discounts) == 0 && len(p.SpotPrices) == 0
}

// apply returns your price for one instance of a SKU whose list price is
// list, and how it was found ("" when it is the list price).
func (p Pricing) apply(cloud, sku string, list float64) (float64, string) {
	v, how, _ := p.find(cloud, sku, list, false)
	return v, how
}

// spot returns your price for one spot instance of a SKU whose on-demand
// list price is list, how it was found, and false when the pricing gives
// none.
func (p Pricing) spot(cloud, sku string, list float64) (float64, string, bool) {
	return p.find(cloud, sku, list, true)
}

// find is apply (spot false) or spot: a price of your own, else the first
// matching discount of the capacity, else the list price and false.
func (p Pricing) find(cloud, sku string, list float64, spot bool) (float64, string, bool) {
	prices, what := p.Prices, "your price"
	if spot {
		prices, what = p.SpotPrices, "your spot price"
	}
	for name, v := range prices {
		if strings.EqualFold(name, sku) {
			return v, what, true
		}
	}
	lower := strings.ToLower(sku)
	for _, d := range p.Discounts {
		if d.Spot != spot {
			continue
		}
		if d.SKU != "" {
			if ok, _ := path.Match(strings.ToLower(d.SKU), lower); !ok {
				continue
			}
		} else if d.Cloud != cloud {
			continue
		}
		how := strconv.FormatFloat(round6(100*d.Fraction), 'f', -1, 64) + "% discount"
		if spot {
			how = strconv.FormatFloat(round6(100*d.Fraction), 'f', -1, 64) + "% spot discount off on-demand"
		}
		return round6(list * (1 - d.Fraction)), how, true
	}
	return list, "", false
}

// SpotUnpriced is why spot capacity has no expected price: the market
// sets it. Its ceiling (the on-demand price) is Group.SpotCeiling.
const SpotUnpriced = "spot capacity: its price moves with the market and the config gives no spot price"

// spot prices a spot group from its on-demand list price and your
// on-demand price (the ceiling): your spot price when the pricing has one,
// else unpriced with SpotUnpriced.
func (a *analysis) spot(g *Group, list, onDemand float64) {
	g.Capacity = CapacitySpot
	ceiling := onDemand
	g.SpotCeiling = &ceiling
	price, how, ok := a.opt.Pricing.spot(g.SKU.Cloud, g.SKU.Name, list)
	if !ok {
		g.Unpriced = SpotUnpriced
		return
	}
	g.ListHourly, g.Hourly, g.PriceNote = &list, &price, how
}

// SpotCeiling is the most a side can cost an hour at its minimum,
// expected and maximum scale when what leaves it unpriced is spot
// capacity only: each spot group with no spot price at its ceiling (the
// on-demand price, Group.SpotCeiling), every other group and its disks as
// priced. ok is false when the side has no such spot group, or when
// anything else on it is unpriced. The figures are a bound, never the
// expected cost.
func (s *Side) SpotCeiling() (lo, exp, hi float64, ok bool) {
	if s == nil {
		return 0, 0, 0, false
	}
	disks, gaps := diskHourly(s)
	if gaps > 0 {
		return 0, 0, 0, false
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		var h float64
		switch {
		case g.Hourly != nil:
			h = *g.Hourly
		case g.Capacity == CapacitySpot && g.SpotCeiling != nil && !g.Scale.Unknown:
			h, ok = *g.SpotCeiling, true
		default:
			return 0, 0, 0, false
		}
		if i == 0 {
			h += disks
		}
		lo += h * float64(g.Scale.Min)
		exp += h * float64(g.Scale.Expected)
		hi += h * float64(g.Scale.Max)
	}
	if !ok {
		return 0, 0, 0, false
	}
	return round6(lo), round6(exp), round6(hi), true
}
