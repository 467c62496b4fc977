package infra

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// rc is one resource_changes entry of a test plan.
type rc struct {
	addr    string   // type.name, optionally module-qualified
	actions []string // ["create"], ["delete","create"], ...
	before  any
	after   any
	// unknown is after_unknown.
	unknown  map[string]any
	replace  [][]any
	provider string // provider_name; derived from the type when empty
}

// tplan is a test plan: changes plus the optional plan sections.
type tplan struct {
	changes []rc
	// prior and planned are root-module resources: address -> values.
	prior, planned map[string]map[string]any
	// providers is configuration.provider_config.
	providers map[string]any
	// config is configuration.root_module.resources.
	config []map[string]any
}

func typeOf(addr string) (typ, name, module string) {
	parts := strings.Split(planparse.StripInstanceKeys(addr), ".")
	n := len(parts)
	return parts[n-2], parts[n-1], moduleOf(addr)
}

func moduleOf(addr string) string {
	parts := strings.Split(addr, ".")
	if len(parts) <= 2 || parts[0] != "module" {
		return ""
	}
	return strings.Join(parts[:len(parts)-2], ".")
}

func providerOf(typ string) string {
	p, _, _ := strings.Cut(typ, "_")
	return "registry.terraform.io/hashicorp/" + p
}

func stateSection(m map[string]map[string]any) map[string]any {
	var rs []any
	for addr, v := range m {
		typ, name, _ := typeOf(addr)
		rs = append(rs, map[string]any{"address": addr, "mode": "managed", "type": typ, "name": name,
			"provider_name": providerOf(typ), "values": v})
	}
	return map[string]any{"root_module": map[string]any{"resources": rs}}
}

// parse builds the plan JSON and parses it with planparse.
func (tp tplan) parse(t testing.TB) *planparse.Plan {
	t.Helper()
	var changes []any
	for _, c := range tp.changes {
		typ, name, module := typeOf(c.addr)
		prov := c.provider
		if prov == "" {
			prov = providerOf(typ)
		}
		ch := map[string]any{"actions": c.actions, "before": c.before, "after": c.after}
		if c.unknown != nil {
			ch["after_unknown"] = c.unknown
		}
		if c.replace != nil {
			ch["replace_paths"] = c.replace
		}
		m := map[string]any{"address": c.addr, "mode": "managed", "type": typ, "name": name,
			"provider_name": prov, "change": ch}
		if module != "" {
			m["module_address"] = module
		}
		changes = append(changes, m)
	}
	doc := map[string]any{"format_version": "1.2", "terraform_version": "1.9.5", "resource_changes": changes}
	if tp.prior != nil {
		doc["prior_state"] = map[string]any{"format_version": "1.0", "values": stateSection(tp.prior)}
	}
	if tp.planned != nil {
		doc["planned_values"] = stateSection(tp.planned)
	}
	if tp.providers != nil || tp.config != nil {
		doc["configuration"] = map[string]any{"provider_config": tp.providers,
			"root_module": map[string]any{"resources": tp.config}}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("test.json", b)
	if err != nil {
		t.Fatalf("parse test plan: %v", err)
	}
	return p
}

func awsProvider(region string) map[string]any {
	return map[string]any{"aws": map[string]any{"name": "aws", "full_name": "registry.terraform.io/hashicorp/aws",
		"expressions": map[string]any{"region": map[string]any{"constant_value": region}}}}
}

func analyze(t testing.TB, tp tplan, opt Options) []*Resource {
	t.Helper()
	return Analyze(tp.parse(t), DefaultCatalog(), opt)
}

func f(v float64) *float64 { return &v }

func fmtPtr(p *float64) string {
	if p == nil {
		return "nil"
	}
	b, _ := json.Marshal(*p)
	return string(b)
}
