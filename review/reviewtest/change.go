package reviewtest

import (
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// Change makes a report row that reads as row, for tests that need a row
// without a plan: its parsed change carries row's plan facts and, when row
// has a SKU, figure, price region or price note, infra's view carries
// those (PriceRegion is split at commas; PriceNote and Capacity are the
// note and capacity of the after side's one group; PriceBasis approximate
// marks the cost approximate).
func Change(row review.ChangeRow) *review.Change {
	src := &planparse.Change{Address: row.Address, Type: row.Type, Mode: planparse.Mode(row.Mode), Action: planparse.Action(row.Action),
		ReplaceOrder: planparse.ReplaceOrder(row.ReplaceOrder), PreviousAddress: row.PreviousAddress,
		ReplacePaths: row.ReplacePaths, Reason: row.Reason, Deposed: row.Deposed}
	if row.Importing {
		src.Importing = &planparse.Import{}
	}
	c := &review.Change{Source: src, DeferredReason: row.DeferredReason, TriggersActions: row.TriggersActions}
	for _, n := range row.ProviderUpgrades {
		c.ProviderUpgrades = append(c.ProviderUpgrades, review.ProviderUpgrade{Name: n})
	}
	c.SetDiffDigests(row.DiffDigest, row.KnownDiffDigest, row.UnknownPaths)
	res := &infra.Resource{Address: row.Address, Type: row.Type, Cost: infra.Cost{
		HourlyBefore: row.HourlyBefore, HourlyAfter: row.HourlyAfter, ListHourlyBefore: row.ListHourlyBefore, ListHourlyAfter: row.ListHourlyAfter,
		Approximate: row.PriceBasis == infra.BasisApproximate}}
	if row.SKUBefore != "" || row.CountBefore != nil {
		res.Before = &infra.Side{SKU: row.SKUBefore}
	}
	if row.SKUAfter != "" || row.PriceNote != "" || row.Capacity != "" || row.CountAfter != nil {
		res.After = &infra.Side{SKU: row.SKUAfter}
	}
	if row.CountBefore != nil {
		res.Before.Groups = []infra.Group{{Scale: infra.Scale{Expected: *row.CountBefore}}}
	}
	if row.PriceNote != "" || row.Capacity != "" || row.CountAfter != nil {
		g := infra.Group{PriceNote: row.PriceNote, Capacity: row.Capacity}
		if row.CountAfter != nil {
			g.Scale.Expected = *row.CountAfter
		}
		res.After.Groups = []infra.Group{g}
	}
	if row.PriceRegion != "" {
		res.Cost.PriceRegions = strings.Split(row.PriceRegion, ",")
	}
	if res.Before != nil || res.After != nil || res.Cost.PriceRegions != nil ||
		row.HourlyBefore != nil || row.HourlyAfter != nil || row.ListHourlyBefore != nil || row.ListHourlyAfter != nil {
		c.Resource = res
	}
	return c
}
