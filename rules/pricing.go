package rules

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// PricingConfig is what the organisation pays instead of list prices.
// Figures priced under it read "your price" in the comment; the JSON
// report keeps the list price beside them.
type PricingConfig struct {
	Prices     map[string]float64 `yaml:"prices,omitempty" doc:"Your USD per hour for one on-demand instance of a SKU (a negotiated rate), by SKU name, in every region; wins over discounts. For spot capacity it is only the ceiling: give spot rates under spot_prices." keys:"sku"`
	Discounts  []DiscountConfig   `yaml:"discounts,omitempty" doc:"Discounts off the list price (enterprise agreements, savings plans); the first that matches a SKU wins, so list SKU patterns before clouds."`
	SpotPrices map[string]float64 `yaml:"spot_prices,omitempty" doc:"Your observed USD per hour for one spot, preemptible or low-priority instance of a SKU, by SKU name; wins over discounts with capacity spot. Spot capacity with neither is shown at most at its on-demand price, never priced at it." keys:"sku"`
}

// DiscountConfig is one discount: by SKU pattern, or for a whole cloud.
type DiscountConfig struct {
	Cloud    string  `yaml:"cloud,omitempty" doc:"Every SKU of this cloud (aws is EC2; SageMaker is aws-sagemaker)." enum:"azure,aws,aws-sagemaker,gcp"`
	SKU      string  `yaml:"sku,omitempty" doc:"SKU name or shell pattern (Standard_NC*), case-insensitive."`
	Discount float64 `yaml:"discount" doc:"Share off the list price, from 0 to 1: 0.28 pays 72% of list." required:"true" min:"0"`
	Capacity string  `yaml:"capacity,omitempty" doc:"Which capacity the discount prices: on-demand (the default) or spot (spot, preemptible and low-priority capacity, as a share off the on-demand list price: 0.7 pays 30% of it)." enum:"on-demand,spot"`
}

// InfraPricing is the pricing in infra's terms (zero when none is set).
func (c *Config) InfraPricing() infra.Pricing {
	var p infra.Pricing
	if len(c.Pricing.Prices) > 0 {
		p.Prices = make(map[string]float64, len(c.Pricing.Prices))
		for k, v := range c.Pricing.Prices {
			p.Prices[k] = v
		}
	}
	for _, d := range c.Pricing.Discounts {
		p.Discounts = append(p.Discounts, infra.Discount{Cloud: d.Cloud, SKU: d.SKU, Fraction: d.Discount, Spot: d.Capacity == "spot"})
	}
	if len(c.Pricing.SpotPrices) > 0 {
		p.SpotPrices = make(map[string]float64, len(c.Pricing.SpotPrices))
		for k, v := range c.Pricing.SpotPrices {
			p.SpotPrices[k] = v
		}
	}
	return p
}

// checkPricing reports discounts that cannot apply and prices that are not
// prices.
func (ps *problems) checkPricing(c *Config) {
	for i, d := range c.Pricing.Discounts {
		p := "pricing.discounts[" + strconv.Itoa(i) + "]"
		switch {
		case d.Cloud == "" && d.SKU == "":
			ps.at(p, "a discount needs cloud or sku to say what it applies to")
		case d.Cloud != "" && d.SKU != "":
			ps.at(p, "give cloud or sku, not both (a SKU pattern names its cloud's SKUs)")
		}
		if d.Discount < 0 || d.Discount >= 1 {
			ps.at(p+".discount", "expected a share from 0 to below 1 (0.28 for 28%%), got %v", d.Discount)
		}
		if _, err := path.Match(d.SKU, ""); err != nil {
			ps.at(p+".sku", "%q is not a valid pattern: %v", d.SKU, err)
		}
	}
	ps.checkPrices("pricing.prices", c.Pricing.Prices)
	ps.checkPrices("pricing.spot_prices", c.Pricing.SpotPrices)
}

// checkPrices reports prices that are not prices and SKUs priced twice.
func (ps *problems) checkPrices(at string, prices map[string]float64) {
	names := make([]string, 0, len(prices))
	for k := range prices {
		names = append(names, k)
	}
	sort.Strings(names)
	seen := map[string]string{}
	for _, k := range names {
		p := joinPath(at, k)
		if v := prices[k]; !(v > 0) {
			ps.at(p, "expected your USD per hour, above 0, got %v", v)
		}
		if o, dup := seen[strings.ToLower(k)]; dup {
			ps.at(p, "priced twice (SKU names match case-insensitively: %s)", o)
		}
		seen[strings.ToLower(k)] = k
	}
}
