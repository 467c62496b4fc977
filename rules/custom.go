package rules

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

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
	placeholder  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z_]+\}`) })
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
	out := s.spare()
	for _, sub := range s.subjects() {
		fire, err := cr.eval(sub.vars, project)
		switch {
		case err != nil:
			out = append(out, draft{
				address:  sub.address,
				severity: SeverityWarn,
				message:  fmt.Sprintf("custom rule %s could not be evaluated here: %s", code(cr.def.ID), planparse.ShownProse(err.Error())), // CEL may quote a value
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
	seen := make(map[string]bool, len(s.changes))
	out := make([]celSubject, 0, len(s.changes))
	shared := &sharedVars{reads: s.cfg.customReads(), skus: map[skuVarsKey]map[string]any{}}
	for _, ch := range s.changes {
		if ch.Action == planparse.ActionNoop {
			continue
		}
		seen[ch.Address] = true
		out = append(out, celSubject{ch.Address, shared.changeVars(ch, s.resourceOf(ch))})
	}
	for _, r := range s.resources {
		if r != nil && !seen[r.Address] {
			out = append(out, celSubject{r.Address, shared.changeVars(nil, r)})
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
		"{type}", planparse.ShownName(fmt.Sprint(vars["type"])),
		"{action}", fmt.Sprint(vars["action"]),
		"{name}", planparse.ShownName(fmt.Sprint(vars["name"])),
		"{sku}", planparse.ShownName(fmt.Sprint(sku["name"])),
		"{project}", s.project.Name,
		"{environment}", s.env,
	)
	return r.Replace(cr.def.Message)
}

// varsRead says which costly parts of changeVars the custom rules read:
// the attribute values (before, after), the tags and the labels. Only
// those are decoded for every change; the others read as {}. On a
// 20,000-change plan those decodes are most of a custom rule's cost.
type varsRead struct{ values, tags, labels bool }

// customReads reports which costly parts of changeVars any custom rule
// mentions. The test is on the expression's text, so it errs towards
// decoding.
func (c *Config) customReads() varsRead {
	var r varsRead
	for _, cr := range c.custom {
		w := cr.def.When
		r.values = r.values || strings.Contains(w, "before") || strings.Contains(w, "after")
		r.tags = r.tags || strings.Contains(w, "tags")
		r.labels = r.labels || strings.Contains(w, "labels")
	}
	return r
}

// sharedVars holds what the subjects of one project may share, since
// custom rules only read them: the empty map and list, and the SKU facts
// (a large plan has thousands of resources on a few SKUs).
type sharedVars struct {
	reads varsRead
	skus  map[skuVarsKey]map[string]any
}

// skuVarsKey is everything skuVars reads of a side.
type skuVarsKey struct {
	sku    infra.SKU
	name   string
	hasGPU bool
}

// emptyVars and noPaths are the shared {} and [] of changeVars.
var (
	emptyVars = map[string]any{}
	noPaths   = []any{}
)

// changeVarsKeys is how many keys changeVars sets.
const changeVarsKeys = 21

// changeVars is what a custom rule sees as `change`. Every key is always
// present except the cost figures, which are absent when unknown (test
// them with has()). before and after are {} for a create and a delete,
// and for every change when no rule reads them; so are tags and labels.
func (sh *sharedVars) changeVars(ch *planparse.Change, r *infra.Resource) map[string]any {
	m := make(map[string]any, changeVarsKeys)
	m["address"], m["type"], m["name"], m["mode"], m["action"] = "", "", "", string(planparse.ModeManaged), ""
	m["replace_order"], m["reason"], m["replace_paths"], m["previous_address"] = "", "", noPaths, ""
	m["importing"], m["before"], m["after"] = false, emptyVars, emptyVars
	m["kind"], m["region"], m["tags"], m["labels"] = "", "", emptyVars, emptyVars
	m["gpus"], m["gpus_max"] = 0.0, 0.0
	if ch != nil {
		m["address"], m["type"], m["mode"], m["action"] = ch.Address, ch.Type, string(ch.Mode), string(ch.Action)
		m["name"] = addressName(ch.Address)
		m["replace_order"], m["reason"], m["previous_address"] = string(ch.ReplaceOrder), ch.Reason, ch.PreviousAddress
		m["importing"] = ch.Importing != nil
		if len(ch.ReplacePaths) > 0 {
			paths := make([]any, len(ch.ReplacePaths))
			for i, p := range ch.ReplacePaths {
				paths[i] = p
			}
			m["replace_paths"] = paths
		}
		if sh.reads.values {
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
			if sh.reads.tags {
				m["tags"] = stringMap(side.Tags())
			}
			if sh.reads.labels {
				m["labels"] = stringMap(side.Labels())
			}
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
		m["sku_before"] = sh.skuVars(r.Before)
	} else {
		m["cost"] = emptyVars
		m["sku_before"] = sh.skuVars(nil)
	}
	m["sku"] = sh.skuVars(side)
	return m
}

func stringMap(in map[string]string) map[string]any {
	if len(in) == 0 {
		return emptyVars
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// skuVars are a side's primary SKU facts; a missing side reads as an
// unknown SKU without GPUs. Sides alike in those facts share one map.
func (sh *sharedVars) skuVars(s *infra.Side) map[string]any {
	k := primary(s)
	key := skuVarsKey{k, skuName(s), s.HasGPU()}
	if m, ok := sh.skus[key]; ok {
		return m
	}
	m := map[string]any{
		"name":           key.name,
		"family":         k.Family,
		"vcpu":           int64(k.VCPU),
		"memory_gib":     k.MemoryGiB,
		"gpu_count":      k.GPUCount,
		"gpu_model":      k.GPUModel,
		"gpu_memory_gib": k.GPUMemoryGiB,
		"accelerator":    string(k.Accelerator),
		"has_gpu":        key.hasGPU,
		"known":          k.Known,
		"retired":        k.Retired,
	}
	sh.skus[key] = m
	return m
}
