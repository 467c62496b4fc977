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
}

// Discount takes a fraction off the list price of the SKUs it matches:
// those whose name matches SKU (a shell pattern, case-insensitive), or
// every SKU of Cloud when SKU is empty.
type Discount struct {
	Cloud, SKU string
	// Fraction is the share taken off: 0.28 pays 72% of list.
	Fraction float64
}

// IsZero reports whether the pricing leaves list prices as they are.
func (p Pricing) IsZero() bool { return len(p.Prices) == 0 && len(p.Discounts) == 0 }

// apply returns your price for one instance of a SKU whose list price is
// list, and how it was found ("" when it is the list price).
func (p Pricing) apply(cloud, sku string, list float64) (float64, string) {
	for name, v := range p.Prices {
		if strings.EqualFold(name, sku) {
			return v, "your price"
		}
	}
	lower := strings.ToLower(sku)
	for _, d := range p.Discounts {
		if d.SKU != "" {
			if ok, _ := path.Match(strings.ToLower(d.SKU), lower); !ok {
				continue
			}
		} else if d.Cloud != cloud {
			continue
		}
		return round6(list * (1 - d.Fraction)), strconv.FormatFloat(round6(100*d.Fraction), 'f', -1, 64) + "% discount"
	}
	return list, ""
}
