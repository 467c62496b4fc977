package rules

import (
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// skuUnknown: a SKU known only after apply cannot be judged by the rules
// that judge SKUs (gpu-sku-loss, gpu-pool-sku, allowed-skus fire only on
// a known SKU), so where one of them would have judged it the rule says
// so instead of letting it pass: on a resource that had GPUs, on one that
// declares itself GPU (gpuIntent, the predicate gpu-pool-sku reads), and
// where the environment has an allow-list. An accelerator attached with a
// type or count known only after apply (GCP guest_accelerator) counts
// like an unknown SKU for the first two.
type skuUnknown struct{}

func (skuUnknown) severity(s *scope) Severity {
	if s.protected {
		return SeverityBlock
	}
	return SeverityWarn
}

func (skuUnknown) check(s *scope) []draft {
	out := s.spare()
	allowed := s.cfg.AllowedSKUs(s.env)
	for _, c := range s.changedResources() {
		r := c.r
		if !computeKinds[r.Kind] && r.Kind != infra.KindEndpoint {
			continue
		}
		skuUnknown, accUnknown := unknownAfter(r.After)
		if !skuUnknown && !accUnknown {
			continue
		}
		var why []string
		if r.Before.HasGPU() {
			why = append(why, "it has "+skuText(r.Before)+" now, and may lose its GPUs")
		}
		if intent, ok := gpuIntent(r); ok {
			why = append(why, "it declares itself GPU ("+intent+")")
		}
		if skuUnknown && len(allowed) > 0 {
			why = append(why, s.env+" allows only "+strings.Join(allowed, ", "))
		}
		if len(why) == 0 {
			continue
		}
		what := "its SKU"
		if attr := infra.SKUAttribute(r.Type); attr != "" {
			what += " (" + code(attr) + ")"
		}
		if !skuUnknown {
			what = "its attached accelerators (" + code("guest_accelerator") + ")"
		}
		out = append(out, draft{
			address: r.Address,
			message: subject(r) + " gets " + what + " known only after apply, so planwarden cannot judge it: " + strings.Join(why, "; "),
			remedy: "Set the SKU from a value known when planning (a literal or a variable, not another resource's output), so the GPU rules and the allow-list can judge it; " +
				"or, once you have checked what it will be, have someone the config allows override this finding.",
		})
	}
	return out
}

// unknownAfter reports whether a side has a group whose SKU, or whose
// attached accelerators, are known only after apply.
func unknownAfter(s *infra.Side) (sku, attached bool) {
	if s == nil {
		return false, false
	}
	for gi := range s.Groups {
		g := &s.Groups[gi]
		sku = sku || g.SKUUnknown
		attached = attached || g.AttachedUnknown()
	}
	return sku, attached
}
