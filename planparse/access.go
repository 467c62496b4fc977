package planparse

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// Before returns the sanitized prior value of the change (null for a
// create), a view of the plan's bytes (see Value).
func (c *Change) Before() Value { return c.before }

// After returns the sanitized planned value (null for a delete). Attributes
// known only after apply read as UnknownText.
func (c *Change) After() Value { return c.after }

// AfterUnknown reports whether the value at path is known only after apply.
func (c *Change) AfterUnknown(path ...any) bool { return c.After().Get(path...).IsUnknown() }

// pathString renders a path with identifier keys as .name and other map
// keys as ["key"], lists as [i].
func pathString(path []any) string {
	var b strings.Builder
	for _, s := range path {
		switch t := s.(type) {
		case string:
			if isIdent(t) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(t)
			} else {
				q, _ := json.Marshal(t)
				b.WriteString("[" + string(q) + "]")
			}
		case int:
			b.WriteString("[" + strconv.Itoa(t) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '-')) {
			return false
		}
	}
	return true
}

// StateResource is one resource instance from prior_state or planned_values.
type StateResource struct {
	Address string
	Mode    Mode
	Type    string
	Name    string
	Values  Value
}

// Expr is one attribute expression from the plan's configuration: a
// constant (sanitized like any value) or references to other objects.
// Nested blocks hold a list of expression maps.
type Expr struct {
	Constant    Value
	HasConstant bool
	References  []string
	Blocks      []Exprs
}

// Exprs maps attribute names to their expressions.
type Exprs map[string]*Expr

// ConfigResource is a resource block of the configuration. Address is
// module-qualified without instance keys (module.gpu.azurerm_kubernetes_cluster_node_pool.this).
type ConfigResource struct {
	Address     string
	Mode        Mode
	Type        string
	Name        string
	ProviderKey string
	Expressions Exprs
}

// ProviderConfig is a provider block of the configuration.
type ProviderConfig struct {
	Key           string // as in provider_config: "aws", "aws.west", "module.x:aws"
	Name          string
	FullName      string
	Alias         string
	ModuleAddress string
	Expressions   Exprs
}

type lazyPlan struct {
	configuration json.RawMessage
	variables     []byte // the plan's root variables, as in its "variables"
	secrets       *secret.Set

	prior, planned stateIndex

	configOnce  sync.Once
	providers   map[string]*ProviderConfig
	resources   []*ConfigResource
	resourceIdx map[string]*ConfigResource
	moduleCalls []ModuleCall
}

// PriorResources lists prior_state's resources, root module first, then
// child modules breadth first. It decodes every resource's values; prefer
// PriorResourcesOfType or PriorResource on large plans.
func (p *Plan) PriorResources() []*StateResource { return p.lazy.prior.all() }

// PlannedResources lists planned_values' resources in the same order.
func (p *Plan) PlannedResources() []*StateResource { return p.lazy.planned.all() }

// PriorResourcesOfType lists prior_state's resources of one type, in the
// order of PriorResources, decoding the values of those only.
func (p *Plan) PriorResourcesOfType(typ string) []*StateResource { return p.lazy.prior.ofType(typ) }

// PlannedResourcesOfType lists planned_values' resources of one type (see
// PriorResourcesOfType).
func (p *Plan) PlannedResourcesOfType(typ string) []*StateResource {
	return p.lazy.planned.ofType(typ)
}

// PriorResourcesWith lists prior_state's resources of type typ whose
// string attribute field (at the top of their values) equals value in any
// case (strings.ToLower of both; an empty value matches nothing), in the
// order of PriorResources. For field "id" or "name" it reads only the
// resources whose value Parse recorded a matching hash of, not every
// resource of the type: on a large plan whose state pages were released
// (SparseRanges), prefer it to filtering PriorResourcesOfType.
func (p *Plan) PriorResourcesWith(typ, field, value string) []*StateResource {
	return p.lazy.prior.with(typ, field, value)
}

// PlannedResourcesWith is PriorResourcesWith for planned_values.
func (p *Plan) PlannedResourcesWith(typ, field, value string) []*StateResource {
	return p.lazy.planned.with(typ, field, value)
}

// PriorResourceWith is the first resource PriorResourcesWith lists, or
// nil; it reads no resource after that one.
func (p *Plan) PriorResourceWith(typ, field, value string) *StateResource {
	return p.lazy.prior.first(typ, field, value)
}

// PlannedResourceWith is PriorResourceWith for planned_values.
func (p *Plan) PlannedResourceWith(typ, field, value string) *StateResource {
	return p.lazy.planned.first(typ, field, value)
}

// Variable returns the value the plan gives the root module's variable
// name (null when it gives none), sanitized like every value: a variable
// the configuration declares sensitive, or whose name says it holds a
// secret, reads as sensitive.
func (p *Plan) Variable(name string) Value {
	v, ok := jsonscan.Lookup(p.lazy.variables, name)
	if !ok {
		return Value{}
	}
	if v, ok = jsonscan.Lookup(v, "value"); !ok {
		return Value{}
	}
	z := &sanitizer{secrets: p.lazy.secrets}
	return z.resolve(v, nil, nil, name)
}

// PriorResource returns the prior_state resource at address, or nil.
func (p *Plan) PriorResource(address string) *StateResource { return p.lazy.prior.at(address) }

// PlannedResource returns the planned_values resource at address, or nil.
func (p *Plan) PlannedResource(address string) *StateResource { return p.lazy.planned.at(address) }

func (p *Plan) config() *lazyPlan {
	l := p.lazy
	l.configOnce.Do(func() {
		l.providers = map[string]*ProviderConfig{}
		l.resourceIdx = map[string]*ConfigResource{}
		var c struct {
			ProviderConfig map[string]struct {
				Name          string          `json:"name"`
				FullName      string          `json:"full_name"`
				Alias         string          `json:"alias"`
				ModuleAddress string          `json:"module_address"`
				Expressions   json.RawMessage `json:"expressions"`
			} `json:"provider_config"`
			RootModule json.RawMessage `json:"root_module"`
		}
		if len(l.configuration) == 0 || json.Unmarshal(l.configuration, &c) != nil {
			return
		}
		for k, pc := range c.ProviderConfig {
			l.providers[k] = &ProviderConfig{Key: k, Name: pc.Name, FullName: pc.FullName, Alias: pc.Alias,
				ModuleAddress: pc.ModuleAddress, Expressions: decodeExprs(pc.Expressions, l.secrets)}
		}
		l.walkConfigModule("", c.RootModule)
		l.configuration = nil
	})
	return l
}

func (l *lazyPlan) walkConfigModule(prefix string, raw json.RawMessage) {
	var m struct {
		Resources []struct {
			Address           string          `json:"address"`
			Mode              string          `json:"mode"`
			Type              string          `json:"type"`
			Name              string          `json:"name"`
			ProviderConfigKey string          `json:"provider_config_key"`
			Expressions       json.RawMessage `json:"expressions"`
		} `json:"resources"`
		ModuleCalls map[string]struct {
			Source string          `json:"source"`
			Module json.RawMessage `json:"module"`
		} `json:"module_calls"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, r := range m.Resources {
		mode := Mode(r.Mode)
		if mode == "" {
			mode = ModeManaged
		}
		cr := &ConfigResource{Address: prefix + r.Address, Mode: mode, Type: r.Type, Name: r.Name,
			ProviderKey: r.ProviderConfigKey, Expressions: decodeExprs(r.Expressions, l.secrets)}
		l.resources = append(l.resources, cr)
		l.resourceIdx[cr.Address] = cr
	}
	names := make([]string, 0, len(m.ModuleCalls))
	for n := range m.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		l.moduleCalls = append(l.moduleCalls, moduleCall(prefix, n, m.ModuleCalls[n].Source))
		l.walkConfigModule(prefix+"module."+n+".", m.ModuleCalls[n].Module)
	}
}

func decodeExprs(raw json.RawMessage, secrets *secret.Set) Exprs {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := make(Exprs, len(m))
	for k, v := range m {
		out[k] = decodeExpr(k, v, secrets)
	}
	return out
}

func decodeExpr(name string, raw json.RawMessage, secrets *secret.Set) *Expr {
	raw = bytes.TrimSpace(raw)
	e := &Expr{}
	if len(raw) > 0 && raw[0] == '[' {
		var blocks []json.RawMessage
		if json.Unmarshal(raw, &blocks) == nil {
			for _, b := range blocks {
				e.Blocks = append(e.Blocks, decodeExprs(b, secrets))
			}
		}
		return e
	}
	var w struct {
		ConstantValue json.RawMessage `json:"constant_value"`
		References    []string        `json:"references"`
	}
	if json.Unmarshal(raw, &w) != nil {
		return e
	}
	e.References = w.References
	if len(w.ConstantValue) > 0 {
		e.HasConstant = true
		var v any
		if decodeNumber(w.ConstantValue, &v) == nil {
			v = sanitizer{secrets: secrets}.constant(name, v)
		}
		e.Constant = Value{v: v}
	}
	if len(w.ConstantValue) == 0 && len(w.References) == 0 {
		// A nested block written as an object (single nested block).
		if sub := decodeExprs(raw, secrets); len(sub) > 0 {
			e.Blocks = []Exprs{sub}
		}
	}
	return e
}

// ConfigResources lists the configuration's resource blocks, root module first.
func (p *Plan) ConfigResources() []*ConfigResource { return p.config().resources }

// ConfigResource returns the configuration block for a resource address,
// with or without instance keys, or nil when the plan has no configuration for it.
func (p *Plan) ConfigResource(address string) *ConfigResource {
	return p.config().resourceIdx[StripInstanceKeys(address)]
}

// ProviderConfigs returns provider blocks by key.
func (p *Plan) ProviderConfigs() map[string]*ProviderConfig { return p.config().providers }

// ProviderConfigFor returns the provider block that configures a change:
// the resource's provider_config_key, else the unaliased block of the
// change's provider in its module or the root. Nil when none is in the plan.
func (p *Plan) ProviderConfigFor(c *Change) *ProviderConfig {
	l := p.config()
	if cr := l.resourceIdx[StripInstanceKeys(c.Address)]; cr != nil && cr.ProviderKey != "" {
		if pc := l.providers[cr.ProviderKey]; pc != nil {
			return pc
		}
	}
	short := c.Provider
	if i := strings.LastIndexByte(short, '/'); i >= 0 {
		short = short[i+1:]
	}
	if pc := l.providers[short]; pc != nil {
		return pc
	}
	for _, pc := range l.providers {
		if (pc.FullName == c.Provider || pc.Name == short) && pc.Alias == "" {
			return pc
		}
	}
	return nil
}

// AddressSteps splits an address or a reference at its top-level dots:
// module.a["x.y"].aws_instance.b[0].id gives module, a["x.y"], aws_instance,
// b[0], id. Instance keys stay with their step; quoted keys may hold dots,
// brackets and escaped quotes.
func AddressSteps(address string) []string {
	var steps []string
	start := 0
	scanAddress(address, func(i int, r rune, topLevel bool) {
		if topLevel && r == '.' {
			steps = append(steps, address[start:i])
			start = i + 1
		}
	})
	return append(steps, address[start:])
}

// StripInstanceKeys removes count and for_each keys from an address:
// module.a[0].aws_instance.b["x"] becomes module.a.aws_instance.b.
// Quoted keys may hold brackets and dots; they are skipped whole.
func StripInstanceKeys(address string) string {
	if strings.IndexByte(address, '[') < 0 && utf8.ValidString(address) {
		return address // nothing to strip (invalid UTF-8 is rewritten below)
	}
	var b strings.Builder
	b.Grow(len(address))
	scanAddress(address, func(_ int, r rune, topLevel bool) {
		if topLevel && r != '[' {
			b.WriteRune(r)
		}
	})
	return b.String()
}

// scanAddress calls visit for every rune of an address, saying whether it
// stands outside instance keys (an opening bracket counts as inside).
func scanAddress(address string, visit func(i int, r rune, topLevel bool)) {
	depth, inStr, esc := 0, false, false
	for i, r := range address {
		top := false
		switch {
		case inStr:
			if esc {
				esc = false
			} else if r == '\\' {
				esc = true
			} else if r == '"' {
				inStr = false
			}
		case r == '"' && depth > 0:
			inStr = true
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		default:
			top = depth == 0
		}
		visit(i, r, top)
	}
}
