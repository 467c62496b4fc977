package planparse

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"

	gojson "github.com/goccy/go-json"
)

// Before returns the sanitized prior value of the change (null for a create).
// Values are decoded on first use; a malformed value reads as null and is
// reported by Diff.
func (c *Change) Before() Value { return c.decode().before }

// After returns the sanitized planned value (null for a delete). Attributes
// known only after apply read as UnknownText.
func (c *Change) After() Value { return c.decode().after }

// AfterUnknown reports whether the value at path is known only after apply.
func (c *Change) AfterUnknown(path ...any) bool { return c.After().Get(path...).IsUnknown() }

// decode returns the change's sanitized values, decoding them on first use.
func (c *Change) decode() values {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.decoded || c.raw == nil {
		return c.vals
	}
	b, err := decodeValue(c.raw.before, c.raw.beforeSensitive, nil, c.secrets)
	if err != nil {
		c.vals.err = err
	}
	a, err := decodeValue(c.raw.after, c.raw.afterSensitive, c.raw.afterUnknown, c.secrets)
	if err != nil {
		c.vals.err = err
	}
	c.vals.before, c.vals.after = b, a
	c.decoded = true
	return c.vals
}

// DropValueCache forgets the decoded values of every change, keeping the
// raw JSON they come from: a later Before, After or Diff decodes again.
// It bounds memory when a large plan has been read once by infra and the
// rules and only a few diffs will be rendered.
func (p *Plan) DropValueCache() {
	for _, list := range [][]*Change{p.Changes, p.Drift} {
		for _, c := range list {
			c.DropValueCache()
		}
	}
	for _, d := range p.Deferred {
		d.Change.DropValueCache()
	}
}

// DropValueCache forgets this change's decoded values (see Plan.DropValueCache).
func (c *Change) DropValueCache() {
	c.mu.Lock()
	c.vals, c.decoded = values{}, false
	c.mu.Unlock()
}

// Diff returns the attribute-level differences of the change, sorted by
// path. Leaves are compared; a list or map that appears or disappears is
// one entry. Sensitive values stay redacted: a changed secret shows as a
// change from SensitiveText to SensitiveText.
func (c *Change) Diff() []AttrDiff {
	if c.whatIf != nil {
		return c.whatIf.attrDiffs() // whatif.go: ARM's delta
	}
	v := c.decode()
	var out []AttrDiff
	diffWalk(nil, v.before.v, v.after.v, &out)
	for i := range out {
		out[i].ForcesReplacement = c.forces(out[i].Path)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func (c *Change) forces(path string) bool {
	for _, rp := range c.ReplacePaths {
		if path == rp || strings.HasPrefix(path, rp+".") || strings.HasPrefix(path, rp+"[") {
			return true
		}
	}
	return false
}

func diffWalk(path []any, a, b any, out *[]AttrDiff) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			diffWalk(append(path[:len(path):len(path)], k), am[k], bm[k], out)
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList && bIsList {
		n := max(len(al), len(bl))
		for i := 0; i < n; i++ {
			var x, y any
			if i < len(al) {
				x = al[i]
			}
			if i < len(bl) {
				y = bl[i]
			}
			diffWalk(append(path[:len(path):len(path)], i), x, y, out)
		}
		return
	}
	if aIsMap && b == nil {
		for _, k := range sortedKeys(am) {
			diffWalk(append(path[:len(path):len(path)], k), am[k], nil, out)
		}
		return
	}
	if bIsMap && a == nil {
		for _, k := range sortedKeys(bm) {
			diffWalk(append(path[:len(path):len(path)], k), nil, bm[k], out)
		}
		return
	}
	_, as := a.(sensitive)
	_, bs := b.(sensitive)
	_, bu := b.(unknown)
	if equal(a, b) {
		return
	}
	if isEmpty(a) && isEmpty(b) {
		return
	}
	*out = append(*out, AttrDiff{
		Path: pathString(path), Before: Value{a}, After: Value{b},
		Unknown: bu, Sensitive: as || bs,
	})
}

func isEmpty(x any) bool {
	switch t := x.(type) {
	case nil:
		return true
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
	priorState, plannedValues, configuration json.RawMessage
	secrets                                  secretSet

	priorOnce, plannedOnce, configOnce sync.Once
	prior, planned                     []*StateResource
	priorIdx, plannedIdx               map[string]*StateResource
	providers                          map[string]*ProviderConfig
	resources                          []*ConfigResource
	resourceIdx                        map[string]*ConfigResource
}

// PriorResources lists prior_state's resources, root module first.
func (p *Plan) PriorResources() []*StateResource {
	l := p.lazy
	l.priorOnce.Do(func() {
		var s struct {
			Values json.RawMessage `json:"values"`
		}
		if len(l.priorState) > 0 && gojson.Unmarshal(l.priorState, &s) == nil {
			l.prior = stateResources(s.Values, l.secrets)
		}
		l.priorIdx = index(l.prior)
		l.priorState = nil
	})
	return l.prior
}

// PlannedResources lists planned_values' resources, root module first.
func (p *Plan) PlannedResources() []*StateResource {
	l := p.lazy
	l.plannedOnce.Do(func() {
		l.planned = stateResources(l.plannedValues, l.secrets)
		l.plannedIdx = index(l.planned)
		l.plannedValues = nil
	})
	return l.planned
}

// PriorResource returns the prior_state resource at address, or nil.
func (p *Plan) PriorResource(address string) *StateResource {
	p.PriorResources()
	return p.lazy.priorIdx[address]
}

// PlannedResource returns the planned_values resource at address, or nil.
func (p *Plan) PlannedResource(address string) *StateResource {
	p.PlannedResources()
	return p.lazy.plannedIdx[address]
}

func index(rs []*StateResource) map[string]*StateResource {
	m := make(map[string]*StateResource, len(rs))
	for _, r := range rs {
		m[r.Address] = r
	}
	return m
}

type wireModule struct {
	Resources []struct {
		Address         string          `json:"address"`
		Mode            string          `json:"mode"`
		Type            string          `json:"type"`
		Name            string          `json:"name"`
		Values          json.RawMessage `json:"values"`
		SensitiveValues json.RawMessage `json:"sensitive_values"`
	} `json:"resources"`
	ChildModules []json.RawMessage `json:"child_modules"`
}

func stateResources(values json.RawMessage, secrets secretSet) []*StateResource {
	var sv struct {
		RootModule json.RawMessage `json:"root_module"`
	}
	if len(values) == 0 || gojson.Unmarshal(values, &sv) != nil || len(sv.RootModule) == 0 {
		return nil
	}
	var out []*StateResource
	queue := []json.RawMessage{sv.RootModule}
	for len(queue) > 0 {
		var m wireModule
		if gojson.Unmarshal(queue[0], &m) != nil {
			queue = queue[1:]
			continue
		}
		queue = append(queue[1:], m.ChildModules...)
		for _, r := range m.Resources {
			v, err := decodeValue(r.Values, r.SensitiveValues, nil, secrets)
			if err != nil {
				continue
			}
			mode := Mode(r.Mode)
			if mode == "" {
				mode = ModeManaged
			}
			out = append(out, &StateResource{Address: sanitizer{secrets: secrets}.redactAddress(r.Address), Mode: mode, Type: r.Type, Name: r.Name, Values: v})
		}
	}
	return out
}

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
		if len(l.configuration) == 0 || gojson.Unmarshal(l.configuration, &c) != nil {
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
			Module json.RawMessage `json:"module"`
		} `json:"module_calls"`
	}
	if len(raw) == 0 || gojson.Unmarshal(raw, &m) != nil {
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
		l.walkConfigModule(prefix+"module."+n+".", m.ModuleCalls[n].Module)
	}
}

func decodeExprs(raw json.RawMessage, secrets secretSet) Exprs {
	var m map[string]json.RawMessage
	if len(raw) == 0 || gojson.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := make(Exprs, len(m))
	for k, v := range m {
		out[k] = decodeExpr(k, v, secrets)
	}
	return out
}

func decodeExpr(name string, raw json.RawMessage, secrets secretSet) *Expr {
	raw = bytes.TrimSpace(raw)
	e := &Expr{}
	if len(raw) > 0 && raw[0] == '[' {
		var blocks []json.RawMessage
		if gojson.Unmarshal(raw, &blocks) == nil {
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
	if gojson.Unmarshal(raw, &w) != nil {
		return e
	}
	e.References = w.References
	if len(w.ConstantValue) > 0 {
		e.HasConstant = true
		var v any
		if decodeNumber(w.ConstantValue, &v) == nil {
			v = sanitizer{secrets: secrets}.constant(name, v)
		}
		e.Constant = Value{v}
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
	var b strings.Builder
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
