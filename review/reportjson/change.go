package reportjson

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/planwarden/planwarden/review"
)

// changeKeys are the fields writeChange writes, in ChangeRow's order, with
// omitempty marked by a trailing ",". Change rows are most of a large
// report, so they are written without reflection; when ChangeRow's fields
// no longer match this list, rows go through Change.MarshalJSON like
// everything else (and TestChangeRowsMatchReflection fails, to have the
// list updated).
var changeKeys = []string{
	"address", "type", "mode", "action", "replace_order,", "previous_address", "importing",
	"replace_paths", "reason", "deferred_reason,", "triggers_actions,", "sku_before", "sku_after",
	"hourly_before", "hourly_after", "price_basis,", "price_region,", "list_hourly_before",
	"list_hourly_after", "price_note,", "capacity,", "deposed,", "count_before,", "count_after,", "diff_digest,", "known_diff_digest,", "unknown_paths,", "provider_upgrades,",
}

var changeType = reflect.TypeFor[*review.Change]()

// changeRowsFast reports whether writeChange knows every field of ChangeRow.
var changeRowsFast = sync.OnceValue(func() bool {
	t := reflect.TypeFor[review.ChangeRow]()
	fs, ok := fieldsOf(t)
	if m := (&encoder{marshals: map[reflect.Type]marshaling{}}).marshaling(t); !ok || len(fs) != len(changeKeys) || m.self || m.viaPointer {
		return false
	}
	for i, f := range fs {
		name, omit := strings.CutSuffix(changeKeys[i], ",")
		key, _ := json.Marshal(name)
		if f.key != string(key)+": " || f.omitEmpty != omit {
			return false
		}
	}
	return true
})

// finite reports whether every figure is nil or finite (encoding/json
// refuses the others: the reflection path returns its error).
func finite(figures ...*float64) bool {
	for _, f := range figures {
		if f != nil && (math.IsInf(*f, 0) || math.IsNaN(*f)) {
			return false
		}
	}
	return true
}

// writeChange writes one change row as the reflection path would.
func (e *encoder) writeChange(c *review.Change, prefix string) {
	inner := deeper(prefix)
	first := true
	key := func(k string) {
		if !first {
			e.byte(',')
		}
		first = false
		e.newline(inner)
		e.string(k)
	}
	str := func(k, s string) { key(k); e.str(s) }
	opt := func(k, s string) {
		if s != "" {
			str(k, s)
		}
	}
	num := func(k string, f *float64) {
		key(k)
		if f == nil {
			e.string("null")
			return
		}
		e.float(*f)
	}
	list := func(l []string) {
		if l == nil {
			e.string("null")
			return
		}
		if len(l) == 0 {
			e.string("[]")
			return
		}
		e.byte('[')
		in := deeper(inner)
		for i, s := range l {
			if i > 0 {
				e.byte(',')
			}
			e.newline(in)
			e.str(s)
		}
		e.newline(inner)
		e.byte(']')
	}
	e.byte('{')
	str(`"address": `, c.Address())
	str(`"type": `, c.Type())
	str(`"mode": `, c.Mode())
	str(`"action": `, c.Action())
	opt(`"replace_order": `, c.ReplaceOrder())
	str(`"previous_address": `, c.PreviousAddress())
	key(`"importing": `)
	e.string(strconv.FormatBool(c.Importing()))
	key(`"replace_paths": `)
	list(c.ReplacePaths())
	str(`"reason": `, c.Reason())
	opt(`"deferred_reason": `, c.DeferredReason)
	if len(c.TriggersActions) > 0 {
		key(`"triggers_actions": `)
		list(c.TriggersActions)
	}
	str(`"sku_before": `, c.SKUBefore())
	str(`"sku_after": `, c.SKUAfter())
	num(`"hourly_before": `, c.HourlyBefore())
	num(`"hourly_after": `, c.HourlyAfter())
	opt(`"price_basis": `, c.PriceBasis())
	opt(`"price_region": `, c.PriceRegion())
	num(`"list_hourly_before": `, c.ListHourlyBefore())
	num(`"list_hourly_after": `, c.ListHourlyAfter())
	opt(`"price_note": `, c.PriceNote())
	opt(`"capacity": `, c.Capacity())
	// The fields verify reads, from one ChangeID.
	id := c.ID()
	opt(`"deposed": `, id.Deposed)
	for _, n := range []struct {
		k string
		v *int
	}{{`"count_before": `, id.CountBefore}, {`"count_after": `, id.CountAfter}} {
		if n.v != nil {
			key(n.k)
			e.out = strconv.AppendInt(e.out, int64(*n.v), 10)
		}
	}
	opt(`"diff_digest": `, id.DiffDigest)
	opt(`"known_diff_digest": `, id.KnownDiffDigest)
	if len(id.UnknownPaths) > 0 {
		key(`"unknown_paths": `)
		list(id.UnknownPaths)
	}
	if len(c.ProviderUpgrades) > 0 {
		key(`"provider_upgrades": `)
		names := make([]string, len(c.ProviderUpgrades))
		for i, u := range c.ProviderUpgrades {
			names[i] = u.Name
		}
		list(names)
	}
	e.newline(prefix)
	e.byte('}')
}
