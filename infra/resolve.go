package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// related finds another resource of type typ that a change points at: the
// parent AKS cluster of a node pool, the launch template of an ASG, the
// endpoint configuration of a SageMaker endpoint. It matches, in order:
//  1. a change in the plan whose field (on either side) equals val,
//  2. a resource in prior_state (before) or planned_values (after) whose
//     field equals val,
//  3. the configuration's references from the change's expression at
//     exprPath, resolved within the change's module, to a change or a
//     planned/prior resource.
//
// It returns the related resource's values for side w (the other side
// when that one is null) and false when nothing matched.
func (a *analysis) related(c *planparse.Change, w when, typ, field, val string, exprPath ...string) (planparse.Value, bool) {
	if val != "" {
		if v, ok := a.relatedByValue(w, typ, field, val); ok {
			return v, true
		}
	}
	for _, addr := range a.refAddresses(c, typ, exprPath) {
		if o := a.change(addr); o != nil {
			if v := pick(o, w); !v.IsNull() {
				return v, true
			}
		}
		if r := a.p.PlannedResource(addr); r != nil && w == after {
			return r.Values, true
		}
		if r := a.p.PriorResource(addr); r != nil {
			return r.Values, true
		}
	}
	return planparse.Value{}, false
}

// relKey is a lookup of related: side, type, field and value.
type relKey struct {
	w               when
	typ, field, val string
}

// relatedByValue is related's first two steps: a change, else a state
// resource, whose field equals val. Its indexes are made once per type
// and field (valueIndex); callers that ask about the same few values
// thousands of times (a cluster's pools, a template's groups) remember
// what they read from the answer themselves (locations, templates).
func (a *analysis) relatedByValue(w when, typ, field, val string) (planparse.Value, bool) {
	x := a.valueIndex(typ, field)
	lower := strings.ToLower(val)
	for _, o := range x.changesWith(a, lower) {
		if v := pick(o, w); !v.IsNull() {
			return v, true
		}
	}
	// Decoding prior_state and planned_values is the costly step of a
	// large plan: only a value that can name such a resource gets there.
	if plausible(typ, field, val) {
		if v, ok := x.stateWith(a, w, lower); ok {
			return v, true
		}
	}
	return planparse.Value{}, false
}

// plausible reports whether val can be the field of a resource of typ:
// an AKS cluster id names a managedClusters resource, a launch template id
// starts with lt-.
func plausible(typ, field, val string) bool {
	switch {
	case typ == "azurerm_kubernetes_cluster" && field == "id":
		return strings.Contains(strings.ToLower(val), "/providers/microsoft.containerservice/managedclusters/")
	case typ == "aws_launch_template" && field == "id":
		return strings.HasPrefix(val, "lt-")
	}
	return true
}

// pick returns side w of a change, or the other side when w's is null
// (a parent being created has no before; one being deleted no after).
func pick(c *planparse.Change, w when) planparse.Value {
	v := w.of(c)
	if v.IsNull() {
		if w == before {
			v = c.After()
		} else {
			v = c.Before()
		}
	}
	return v
}

func (a *analysis) change(addr string) *planparse.Change {
	if a.byAddr == nil {
		a.byAddr = make(map[string]*planparse.Change, len(a.p.Changes))
		for _, c := range a.p.Changes {
			if c.Deposed == "" {
				a.byAddr[c.Address] = c
			}
		}
	}
	return a.byAddr[addr]
}

// instances lists the addresses of the changes whose address without
// instance keys is addr, indexing every change once on first use.
func (a *analysis) instances(addr string) []string {
	if a.byBase == nil {
		a.byBase = map[string][]string{}
		for _, c := range a.p.Changes {
			if c.Deposed == "" {
				k := planparse.StripInstanceKeys(c.Address)
				a.byBase[k] = append(a.byBase[k], c.Address)
			}
		}
	}
	return a.byBase[addr]
}

// changesOfType lists the managed changes of a resource type in plan
// order, finding them on the type's first use (a plan asks about a few
// types: an index of every change by type cost more than the scans).
func (a *analysis) changesOfType(typ string) []*planparse.Change {
	if l, ok := a.byType[typ]; ok {
		return l
	}
	var l []*planparse.Change
	for _, c := range a.p.Changes {
		if c.Type == typ && c.Mode == planparse.ModeManaged {
			l = append(l, c)
		}
	}
	if a.byType == nil {
		a.byType = map[string][]*planparse.Change{}
	}
	a.byType[typ] = l
	return l
}

// fieldKey is a resource type and a string field of it.
type fieldKey struct{ typ, field string }

// valueIndex indexes the changes and the state resources of one type by
// one string field (its value in lower case), each part on first use.
type valueIndex struct {
	typ, field string
	changes    map[string][]*planparse.Change // either side's value, in plan order; nil until made
	state      [2]map[string]planparse.Value  // prior_state, planned_values: the first resource of each value
	stateDone  bool
}

// valueIndex returns the index of type typ by field.
func (a *analysis) valueIndex(typ, field string) *valueIndex {
	k := fieldKey{typ, field}
	if x, ok := a.indexes[k]; ok {
		return x
	}
	if a.indexes == nil {
		a.indexes = map[fieldKey]*valueIndex{}
	}
	x := &valueIndex{typ: typ, field: field}
	a.indexes[k] = x
	return x
}

// changesWith lists the changes of a type whose field (on either side)
// is val, in lower case. Only changes of that type are decoded.
func (a *analysis) changesWith(typ, field, val string) []*planparse.Change {
	return a.valueIndex(typ, field).changesWith(a, strings.ToLower(val))
}

func (x *valueIndex) changesWith(a *analysis, lower string) []*planparse.Change {
	if x.changes == nil {
		l := a.changesOfType(x.typ)
		x.changes = make(map[string][]*planparse.Change, len(l))
		for _, c := range l {
			for _, v := range [2]planparse.Value{c.Before(), c.After()} {
				if s, ok := v.Get(x.field).Str(); ok && s != "" {
					k := strings.ToLower(s)
					if l := x.changes[k]; len(l) == 0 || l[len(l)-1] != c {
						x.changes[k] = append(l, c)
					}
				}
			}
		}
	}
	return x.changes[lower]
}

// stateWith searches prior_state (before) or planned_values (after), then
// the other, for a resource of a type whose field equals val. Each
// section is indexed once per type and field, on first use, decoding the
// resources of that type only.
func (a *analysis) stateWith(w when, typ, field, val string) (planparse.Value, bool) {
	return a.valueIndex(typ, field).stateWith(a, w, strings.ToLower(val))
}

func (x *valueIndex) stateWith(a *analysis, w when, lower string) (planparse.Value, bool) {
	if x.field == "id" || x.field == "name" {
		// Parse recorded hashes of these: only the resources of a matching
		// hash are read, not every resource of the type.
		for i := range 2 {
			var r *planparse.StateResource
			if (i == 0) == (w == before) {
				r = a.p.PriorResourceWith(x.typ, x.field, lower)
			} else {
				r = a.p.PlannedResourceWith(x.typ, x.field, lower)
			}
			if r != nil {
				return r.Values, true
			}
		}
		return planparse.Value{}, false
	}
	if !x.stateDone {
		x.stateDone = true
		for i, l := range [2][]*planparse.StateResource{a.p.PriorResourcesOfType(x.typ), a.p.PlannedResourcesOfType(x.typ)} {
			m := make(map[string]planparse.Value, len(l))
			for _, r := range l {
				if r.Type != x.typ {
					continue
				}
				if s := strAt(r.Values, x.field); s != "" {
					k := strings.ToLower(s)
					if _, dup := m[k]; !dup {
						m[k] = r.Values
					}
				}
			}
			x.state[i] = m
		}
	}
	order := [2]int{0, 1}
	if w == after {
		order = [2]int{1, 0}
	}
	for _, i := range order {
		if v, ok := x.state[i][lower]; ok {
			return v, true
		}
	}
	return planparse.Value{}, false
}

// refAddresses resolves the configuration references of the expression at
// exprPath (an attribute, or block then attribute) to resource addresses
// of type typ in the change's module. An address with instance keys is
// tried as written and, when the plan has exactly one instance of the
// resource, as that instance.
func (a *analysis) refAddresses(c *planparse.Change, typ string, exprPath []string) []string {
	if len(exprPath) == 0 {
		return nil
	}
	cr := a.p.ConfigResource(c.Address)
	if cr == nil {
		return nil
	}
	e := cr.Expressions[exprPath[0]]
	for _, step := range exprPath[1:] {
		if e == nil || len(e.Blocks) == 0 {
			return nil
		}
		e = e.Blocks[0][step]
	}
	if e == nil {
		return nil
	}
	prefix := ""
	if c.ModuleAddress != "" {
		prefix = c.ModuleAddress + "."
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, ref := range e.References {
		if !strings.HasPrefix(ref, typ+".") {
			continue
		}
		addr := resourcePart(ref)
		add(prefix + addr)
		if addr == planparse.StripInstanceKeys(addr) {
			// The plan may key the instance: take it when there is only one.
			if l := a.instances(prefix + addr); len(l) == 1 {
				add(l[0])
			}
		}
	}
	return out
}

// resourcePart cuts a reference (aws_launch_template.gpu[0].id) to its
// resource address (aws_launch_template.gpu[0]).
func resourcePart(ref string) string {
	steps := planparse.AddressSteps(ref)
	return strings.Join(steps[:min(2, len(steps))], ".")
}
