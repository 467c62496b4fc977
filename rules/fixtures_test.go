package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// SKUs as infra's catalog describes them.
var (
	skuNC6 = infra.SKU{Cloud: "azure", Name: "Standard_NC6s_v3", VCPU: 6, GPUCount: 1, GPUModel: "NVIDIA Tesla V100 16GB",
		Accelerator: infra.AcceleratorNVIDIA, Known: true}
	skuA100 = infra.SKU{Cloud: "azure", Name: "Standard_NC24ads_A100_v4", VCPU: 24, GPUCount: 1, GPUModel: "NVIDIA A100 80GB",
		Accelerator: infra.AcceleratorNVIDIA, Known: true}
	skuD16    = infra.SKU{Cloud: "azure", Name: "Standard_D16s_v5", VCPU: 16, Known: true}
	skuD4     = infra.SKU{Cloud: "azure", Name: "Standard_D4s_v5", VCPU: 4, Known: true}
	skuMystic = infra.SKU{Cloud: "azure", Name: "Standard_ZZ99_v9"}
	skuG5     = infra.SKU{Cloud: "aws-sagemaker", Name: "ml.g5.2xlarge", VCPU: 8, GPUCount: 1, GPUModel: "NVIDIA A10G 24GB",
		Accelerator: infra.AcceleratorNVIDIA, Known: true}
	skuM5 = infra.SKU{Cloud: "aws-sagemaker", Name: "ml.m5.xlarge", VCPU: 4, Known: true}
)

// sideOpt changes a fixture side.
type sideOpt func(*infra.Side)

func named(n string) sideOpt { return func(s *infra.Side) { s.Name = n } }
func labels(kv ...string) sideOpt {
	return func(s *infra.Side) { s.SetLabels(pairs(kv)) }
}
func tags(kv ...string) sideOpt  { return func(s *infra.Side) { s.SetTags(pairs(kv)) } }
func taints(t ...string) sideOpt { return func(s *infra.Side) { s.Taints = t } }
func nodes(min, exp, max int) sideOpt {
	return func(s *infra.Side) {
		s.Groups[0].Scale = infra.Scale{Min: min, Expected: exp, Max: max, Autoscaled: min != max}
	}
}

func pairs(kv []string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func side(k infra.SKU, opts ...sideOpt) *infra.Side {
	s := &infra.Side{SKU: k.Name, Region: "eastus", Groups: []infra.Group{{SKU: k, Scale: infra.Scale{Min: 1, Expected: 1, Max: 1}}}}
	for _, o := range opts {
		o(s)
	}
	return s
}

func usd(v float64) *float64 { return &v }

// pool is an AKS node pool resource.
func pool(addr string, before, after *infra.Side) *infra.Resource {
	return &infra.Resource{Address: addr, Type: "azurerm_kubernetes_cluster_node_pool", Kind: infra.KindNodePool, Before: before, After: after}
}

// vm is an Azure Linux VM resource.
func vm(addr string, before, after *infra.Side) *infra.Resource {
	return &infra.Resource{Address: addr, Type: "azurerm_linux_virtual_machine", Kind: infra.KindVM, Before: before, After: after}
}

func withCost(r *infra.Resource, c infra.Cost) *infra.Resource { r.Cost = c; return r }

// change is one resource_changes entry of a fixture plan.
type change struct {
	addr, typ     string
	actions       []string
	before, after any
	replace       []string // replace paths, dotted
	reason        string
	mode          string
	// unknown is after_unknown: attributes known only after apply.
	unknown map[string]any
}

// plan builds a parsed plan from fixture changes.
func plan(t testing.TB, errored bool, changes ...change) *planparse.Plan {
	t.Helper()
	var rcs []map[string]any
	for _, c := range changes {
		typ := c.typ
		if typ == "" {
			typ, _, _ = strings.Cut(c.addr, ".")
		}
		mode := c.mode
		if mode == "" {
			mode = "managed"
		}
		var paths [][]any
		for _, p := range c.replace {
			var steps []any
			for _, s := range strings.Split(p, ".") {
				steps = append(steps, s)
			}
			paths = append(paths, steps)
		}
		unknown := c.unknown
		if unknown == nil {
			unknown = map[string]any{}
		}
		ch := map[string]any{"actions": c.actions, "before": c.before, "after": c.after, "after_unknown": unknown,
			"before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}
		if paths != nil {
			ch["replace_paths"] = paths
		}
		rc := map[string]any{"address": c.addr, "mode": mode, "type": typ, "name": addressName(c.addr),
			"provider_name": "registry.terraform.io/hashicorp/aws", "change": ch}
		if c.reason != "" {
			rc["action_reason"] = c.reason
		}
		rcs = append(rcs, rc)
	}
	doc := map[string]any{"format_version": "1.2", "terraform_version": "1.9.8", "errored": errored, "resource_changes": rcs}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("plan.json", data)
	if err != nil {
		t.Fatalf("fixture plan: %v", err)
	}
	return p
}

var (
	create  = []string{"create"}
	update  = []string{"update"}
	del     = []string{"delete"}
	replace = []string{"delete", "create"}
	cbd     = []string{"create", "delete"}
	noop    = []string{"no-op"}
)

// mustConfig parses a config or fails the test.
func mustConfig(t testing.TB, yml string) *Config {
	t.Helper()
	if yml == "" {
		return DefaultConfig()
	}
	c, err := ParseConfig("planwarden.yml", []byte(yml))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return c
}

// lines renders findings as a reviewer reads them, one per line:
// "block gpu-sku-loss addr: message".
func lines(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		s := fmt.Sprintf("%s %s %s: %s", f.Severity, f.Rule, f.Address, f.Message)
		if f.Override != nil {
			s += " [overridden by " + f.Override.By + "]"
		}
		out = append(out, s)
	}
	return out
}

// only keeps the findings of one rule.
func only(rule string, fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}
