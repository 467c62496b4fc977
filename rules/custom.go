package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// customRule is a compiled CustomRule.
type customRule struct {
	def CustomRule
	// eval runs the rule's when expression over one change.
	eval func(change, project map[string]any) (bool, error)
}

// placeholders are what a custom rule's message may refer to.
var (
	placeholders = []string{"{address}", "{type}", "{action}", "{name}", "{sku}", "{project}", "{environment}"}
	placeholder  = regexp.MustCompile(`\{[A-Za-z_]+\}`)
)

// check runs the rule over every change of the project except no-ops
// (and over every resource when the project has no plan). A change the
// expression cannot be evaluated on (a missing key, a type mismatch) gets
// a warning that says so, never silence, whatever the rule's severity.
func (cr *customRule) check(s *scope) []draft {
	sev := cr.def.Severity
	if sev == "" {
		sev = SeverityWarn
	}
	if v, ok := cr.def.Environments[s.env]; ok && v != "" {
		sev = v
	}
	if sev == SeverityOff {
		return nil
	}
	project := map[string]any{"name": s.project.Name, "environment": s.env, "protected": s.protected}
	var out []draft
	for _, sub := range s.subjects() {
		fire, err := cr.eval(sub.vars, project)
		switch {
		case err != nil:
			out = append(out, draft{
				address:  sub.address,
				severity: SeverityWarn,
				message:  fmt.Sprintf("custom rule %s could not be evaluated here: %v", code(cr.def.ID), err),
				remedy:   fmt.Sprintf("Guard the expression of custom rule %s with has(...) or a type check so it holds for every change.", cr.def.ID),
			})
		case fire:
			out = append(out, draft{address: sub.address, severity: sev, message: cr.fill(sub.vars, s), remedy: cr.def.Remedy})
		}
	}
	return out
}

// celSubject is one change as custom rules see it.
type celSubject struct {
	address string
	vars    map[string]any
}

// subjects returns what custom rules run over: every change of the
// project except no-ops, then every resource without a change (a project
// built without a plan). It is computed once per project and shared by
// every custom rule, which only read it.
func (s *scope) subjects() []celSubject {
	if s.custom != nil {
		return s.custom
	}
	seen := map[string]bool{}
	out := []celSubject{}
	values := s.cfg.customReadsValues()
	for _, ch := range s.changes {
		if ch.Action == planparse.ActionNoop {
			continue
		}
		seen[ch.Address] = true
		out = append(out, celSubject{ch.Address, changeVars(ch, s.resourceOf(ch), values)})
	}
	for _, r := range s.resources {
		if r != nil && !seen[r.Address] {
			out = append(out, celSubject{r.Address, changeVars(nil, r, false)})
		}
	}
	s.custom = out
	return out
}

// fill replaces the placeholders of the rule's message.
func (cr *customRule) fill(vars map[string]any, s *scope) string {
	sku, _ := vars["sku"].(map[string]any)
	r := strings.NewReplacer(
		"{address}", fmt.Sprint(vars["address"]),
		"{type}", fmt.Sprint(vars["type"]),
		"{action}", fmt.Sprint(vars["action"]),
		"{name}", fmt.Sprint(vars["name"]),
		"{sku}", fmt.Sprint(sku["name"]),
		"{project}", s.project.Name,
		"{environment}", s.env,
	)
	return r.Replace(cr.def.Message)
}

// customReadsValues reports whether any custom rule mentions before or
// after. Only then are the attribute values of every change decoded for
// them: on a 20,000-change plan that decode is most of a custom rule's cost.
// The test is on the expression's text, so it errs towards decoding.
func (c *Config) customReadsValues() bool {
	for _, cr := range c.custom {
		if strings.Contains(cr.def.When, "before") || strings.Contains(cr.def.When, "after") {
			return true
		}
	}
	return false
}

// changeVars is what a custom rule sees as `change`. Every key is always
// present except the cost figures, which are absent when unknown (test
// them with has()). before and after are {} for a create and a delete,
// and for every change when values is false (no rule reads them).
func changeVars(ch *planparse.Change, r *infra.Resource, values bool) map[string]any {
	m := map[string]any{
		"address": "", "type": "", "name": "", "mode": string(planparse.ModeManaged), "action": "",
		"replace_order": "", "reason": "", "replace_paths": []any{}, "previous_address": "",
		"importing": false, "before": map[string]any{}, "after": map[string]any{},
		"kind": "", "region": "", "tags": map[string]any{}, "labels": map[string]any{},
		"gpus": 0.0, "gpus_max": 0.0,
	}
	if ch != nil {
		m["address"], m["type"], m["mode"], m["action"] = ch.Address, ch.Type, string(ch.Mode), string(ch.Action)
		m["name"] = addressName(ch.Address)
		m["replace_order"], m["reason"], m["previous_address"] = string(ch.ReplaceOrder), ch.Reason, ch.PreviousAddress
		m["importing"] = ch.Importing != nil
		paths := make([]any, len(ch.ReplacePaths))
		for i, p := range ch.ReplacePaths {
			paths[i] = p
		}
		m["replace_paths"] = paths
		if values {
			if v, ok := ch.Before().Interface().(map[string]any); ok {
				m["before"] = v
			}
			if v, ok := ch.After().Interface().(map[string]any); ok {
				m["after"] = v
			}
		}
	}
	var side *infra.Side
	if r != nil {
		if ch == nil {
			m["address"], m["type"], m["name"] = r.Address, r.Type, addressName(r.Address)
			switch {
			case r.Before == nil:
				m["action"] = string(planparse.ActionCreate)
			case r.After == nil:
				m["action"] = string(planparse.ActionDelete)
			default:
				m["action"] = string(planparse.ActionUpdate)
			}
		}
		m["kind"] = string(r.Kind)
		m["name"] = displayName(r)
		side = r.After
		if side == nil {
			side = r.Before
		}
		m["gpus"], m["gpus_max"] = side.GPUs(false), side.GPUs(true)
		if side != nil {
			m["region"] = side.Region
			m["tags"] = stringMap(side.Tags())
			m["labels"] = stringMap(side.Labels())
		}
		cost := map[string]any{}
		put := func(k string, v *float64) {
			if v != nil {
				cost[k] = *v
			}
		}
		put("hourly_before", r.Cost.HourlyBefore)
		put("hourly_after", r.Cost.HourlyAfter)
		put("max_hourly_before", r.Cost.MaxHourlyBefore)
		put("max_hourly_after", r.Cost.MaxHourlyAfter)
		a, _ := m["action"].(string)
		if d, ok := hourlyDelta(r, planparse.Action(a)); ok {
			cost["hourly_delta"] = d
		}
		if d, ok := maxHourlyDelta(r, planparse.Action(a)); ok {
			cost["max_hourly_delta"] = d
		}
		m["cost"] = cost
		m["sku_before"] = skuVars(r.Before)
	} else {
		m["cost"] = map[string]any{}
		m["sku_before"] = skuVars(nil)
	}
	m["sku"] = skuVars(side)
	return m
}

func stringMap(in map[string]string) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// skuVars are a side's primary SKU facts; a missing side reads as an
// unknown SKU without GPUs.
func skuVars(s *infra.Side) map[string]any {
	k := primary(s)
	return map[string]any{
		"name":           skuName(s),
		"family":         k.Family,
		"vcpu":           int64(k.VCPU),
		"memory_gib":     k.MemoryGiB,
		"gpu_count":      k.GPUCount,
		"gpu_model":      k.GPUModel,
		"gpu_memory_gib": k.GPUMemoryGiB,
		"accelerator":    string(k.Accelerator),
		"has_gpu":        s.HasGPU(),
		"known":          k.Known,
		"retired":        k.Retired,
	}
}
