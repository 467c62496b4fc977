package rules

import (
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// Default gpu-increase thresholds, in GPUs (accelerators) added.
const (
	defaultGPUWarn  = 8  // one 8-GPU node (p4d, p5, ND96, a2-highgpu-8g)
	defaultGPUBlock = 64 // eight of them: a training cluster's worth
)

// gpuIncrease: the GPUs of a resource (or of a project's changes together)
// grow by more than a threshold at the expected or the maximum scale. A
// GPU pool that may scale out from zero adds nothing at the expected
// scale and its whole maximum at the maximum scale: it is judged there.
// It blocks only in protected environments; elsewhere it warns. A
// resource whose GPUs are not known is left to unpriced-sku.
type gpuIncrease struct{}

func (gpuIncrease) severity(*scope) Severity { return SeverityWarn }

func (gpuIncrease) check(s *scope) []draft {
	set := s.cfg.Rules.GPUIncrease
	warn, block := orDefault(set.Warn, defaultGPUWarn), orDefault(set.Block, defaultGPUBlock)
	level := func(n float64) Severity {
		switch {
		case n > block && s.protected:
			return SeverityBlock
		case n > warn:
			return SeverityWarn
		}
		return ""
	}
	limits := fmt.Sprintf("warn above %s GPUs, block above %s in protected environments", count(warn), count(block))
	remedy := "Check the node counts and the SKU, and that the GPUs are budgeted; the thresholds (" + limits + ") are under rules.gpu-increase."
	out := s.spare()
	var sumE, sumM float64
	var n int
	worst := Severity("")
	var msg sentence
	for _, c := range s.changedResources() {
		r := c.r
		if c.billed || (!c.gpu && !r.Before.HasGPU()) || !r.After.GPUsKnown() || !r.Before.GPUsKnown() {
			continue
		}
		bE, bM := r.Before.GPUs(false), r.Before.GPUs(true)
		if r.Before != nil && !r.Before.HasGPU() {
			bE, bM = 0, 0
		}
		aE, aM := r.After.GPUs(false), r.After.GPUs(true)
		dE, dM := aE-bE, aM-max(bM, bE)
		if dE == 0 && dM == 0 {
			continue
		}
		sumE, sumM, n = sumE+dE, sumM+dM, n+1
		lE, lM := level(dE), level(dM)
		sev := worse(lE, lM)
		if sev == "" {
			continue
		}
		worst = worse(worst, sev)
		model := gpuModel(r.After)
		if model != "" {
			model = " " + model
		}
		msg = msg[:0]
		msg.subject(r)
		if lE != "" {
			msg.add(" adds ", count(dE), " GPUs at the expected scale (", count(bE), " -> ", count(aE))
			if lM == "" {
				msg.add(model)
			}
			msg.add(")")
		}
		if lM != "" {
			if lE != "" {
				msg.add(" and up to ", count(dM))
			} else {
				msg.add(" can add ", count(dM), " GPUs")
			}
			msg.add(" at maximum scale (", count(max(bM, bE)), " -> ", count(aM), model, ")")
		}
		out = append(out, draft{address: r.Address, severity: sev, message: s.texts.keep(msg), remedy: remedy})
	}
	// Many pools that each add a few GPUs can add up to a cluster.
	var parts []string
	sev := Severity("")
	if l := level(sumE); l != "" && n > 1 && rankSev(l) > rankSev(worst) {
		sev = worse(sev, l)
		parts = append(parts, count(sumE)+" GPUs at the expected scale")
	}
	if l := level(sumM); l != "" && n > 1 && rankSev(l) > rankSev(worst) {
		sev = worse(sev, l)
		parts = append(parts, count(sumM)+" at maximum scale")
	}
	if sev != "" {
		out = append(out, draft{severity: sev, remedy: remedy,
			message: fmt.Sprintf("the changes of project %s together add %s, over %d resources", code(s.project.Name), strings.Join(parts, " and "), n)})
	}
	return out
}

// gpuModel is the short model of a side's first accelerated group
// ("A100 80GB PCIe" reads "A100 PCIe").
func gpuModel(s *infra.Side) string {
	if s == nil {
		return ""
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.SKU.HasGPU() {
			return shortGPU(g.SKU.GPUModel, g.SKU.Accelerator)
		}
		for _, at := range g.Attached {
			if at.Count > 0 && at.GPUModel != "" {
				return shortGPU(at.GPUModel, infra.AcceleratorNVIDIA)
			}
		}
	}
	return ""
}
