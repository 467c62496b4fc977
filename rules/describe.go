package rules

import (
	"hash/maphash"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/prose"
)

// This file holds the words rules use to describe resources to a reviewer.

// code quotes a name as a markdown code span. A backtick or line break in
// the name (names come from plans) cannot end the span early: backticks
// become ' and line breaks spaces.
func code(s string) string { return prose.Code(s) }

// kindNoun names a kind of resource as a reviewer says it.
func kindNoun(k infra.Kind) string {
	switch k {
	case infra.KindNodePool:
		return "node pool"
	case infra.KindVM:
		return "VM"
	case infra.KindScaleSet:
		return "scale set"
	case infra.KindComputeCluster:
		return "compute cluster"
	case infra.KindEndpoint:
		return "endpoint"
	case infra.KindEndpointConfig:
		return "endpoint configuration"
	case infra.KindNotebook:
		return "notebook"
	}
	return "resource"
}

// computeKinds are the kinds whose SKU decides whether they have GPUs.
var computeKinds = map[infra.Kind]bool{
	infra.KindNodePool: true, infra.KindVM: true, infra.KindScaleSet: true,
	infra.KindComputeCluster: true, infra.KindNotebook: true, infra.KindEndpointConfig: true,
}

// subject is how a finding names a resource: "node pool `gpu`".
func subject(r *infra.Resource) string {
	return kindNoun(r.Kind) + " " + code(planparse.ShownName(displayName(r)))
}

// displayName is the resource's own name (pool name, VM name), else the
// name part of its address.
func displayName(r *infra.Resource) string {
	if r.After != nil && r.After.Name != "" {
		return r.After.Name
	}
	if r.Before != nil && r.Before.Name != "" {
		return r.Before.Name
	}
	return addressName(r.Address)
}

// addressName returns the last step of an address, with its instance key:
// module.a.aws_s3_bucket.artifacts["x"] -> artifacts["x"].
func addressName(addr string) string {
	steps := planparse.AddressSteps(addr)
	return steps[len(steps)-1]
}

// primary returns the side's primary group SKU: the group named by
// Side.SKU, else the first group, else what the name alone says.
func primary(s *infra.Side) infra.SKU {
	if s == nil {
		return infra.SKU{}
	}
	for gi := range s.Groups {
		g := &s.Groups[gi]
		if g.SKU.Name == s.SKU {
			return g.SKU
		}
	}
	if len(s.Groups) > 0 {
		return s.Groups[0].SKU
	}
	return infra.SKU{Name: s.SKU}
}

// knownNoGPU reports whether the side certainly has no GPU: it has SKUs,
// every one known, none with an accelerator.
func knownNoGPU(s *infra.Side) bool {
	if s == nil || s.HasGPU() {
		return false
	}
	if len(s.Groups) == 0 {
		return false
	}
	for gi := range s.Groups {
		g := &s.Groups[gi]
		if !g.SKU.Known || g.SKU.Name == "" || g.Serverless {
			return false
		}
	}
	return true
}

// skuName is the side's primary SKU as written in the plan.
func skuName(s *infra.Side) string {
	if s == nil {
		return ""
	}
	if s.SKU != "" {
		return s.SKU
	}
	return primary(s).Name
}

// shownSKU is skuName as a finding quotes it: by the allow-list of
// planparse.ShownName (rules read the SKU itself).
func shownSKU(s *infra.Side) string { return planparse.ShownName(skuName(s)) }

// skuText is "Standard_NC6s_v3 (1 x V100)" or "Standard_D16s_v5 (no GPU)".
func skuText(s *infra.Side) string {
	t := make(sentence, 0, 48)
	t.sku(s)
	return string(t)
}

// sku adds skuText(s).
func (t *sentence) sku(s *infra.Side) {
	name := shownSKU(s)
	if name == "" {
		name = "an unknown SKU"
	}
	t.add(name, " (")
	t.gpu(s)
	t.add(")")
}

const noGPU = "no GPU"

// gpu adds what accelerators one instance of the side's primary group
// has: "1 x V100", "4 x A100 + 1 x T4 attached", or "no GPU".
func (t *sentence) gpu(s *infra.Side) {
	if s == nil {
		t.add(noGPU)
		return
	}
	var g *infra.Group
	for i := range s.Groups {
		if s.Groups[i].SKU.Name == s.SKU || g == nil {
			g = &s.Groups[i]
		}
	}
	if g == nil {
		t.add(noGPU)
		return
	}
	start := len(*t)
	if g.SKU.HasGPU() {
		*t = strconv.AppendFloat(*t, g.SKU.GPUCount, 'f', -1, 64)
		t.add(" x ", shortGPU(g.SKU.GPUModel, g.SKU.Accelerator))
	}
	for _, a := range g.Attached {
		if a.Count > 0 {
			m := a.GPUModel
			if m == "" {
				m = a.Type
			}
			if len(*t) > start {
				t.add(" + ")
			}
			*t = strconv.AppendInt(*t, int64(a.Count), 10)
			t.add(" x ", shortGPU(m, infra.AcceleratorNVIDIA), " attached")
		}
	}
	if len(*t) == start {
		t.add(noGPU)
	}
}

func count(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// shortGPU shortens a GPU model as reviewers say it: "NVIDIA Tesla V100
// 16GB" -> "V100". The answers are remembered (shortGPUs): a large plan
// names a few models thousands of times.
func shortGPU(model string, acc infra.Accelerator) string {
	slot := &shortGPUs[maphash.String(shortGPUSeed, model)&(uint64(len(shortGPUs))-1)]
	if e := slot.Load(); e != nil && e.model == model && e.acc == acc {
		return e.short
	}
	short := shortGPUOf(model, acc)
	slot.Store(&shortGPUEntry{model: strings.Clone(model), acc: acc, short: short})
	return short
}

// shortGPUs remembers shortGPU's answers in a fixed table of slots, each
// replaced whole (safe for goroutines without a lock); a model whose slot
// another took is worked out again.
var (
	shortGPUs    [64]atomic.Pointer[shortGPUEntry]
	shortGPUSeed = maphash.MakeSeed()
)

type shortGPUEntry struct {
	model string
	acc   infra.Accelerator
	short string
}

func shortGPUOf(model string, acc infra.Accelerator) string {
	f := strings.Fields(model)
	var out []string
	for _, w := range f {
		lw := strings.ToLower(w)
		if lw == "nvidia" || lw == "tesla" || lw == "amd" || lw == "instinct" || lw == "aws" {
			continue
		}
		if strings.HasSuffix(lw, "gb") {
			if _, err := strconv.ParseFloat(strings.TrimSuffix(lw, "gb"), 64); err == nil {
				continue
			}
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		switch acc {
		case infra.AcceleratorInferentia:
			return "Inferentia"
		case infra.AcceleratorTrainium:
			return "Trainium"
		}
		return "GPU"
	}
	return strings.Join(out, " ")
}

// money formats USD per hour: "$1,234.56/h".
func money(v float64) string { return infra.FormatUSD(v, "$") + "/h" }

// action is what happens to a resource: from the plan when it has the
// change, else from which sides exist.
func (s *scope) action(r *infra.Resource) planparse.Action {
	if r.Action != "" {
		return r.Action
	}
	if ch := s.changeOf(r); ch != nil {
		return ch.Action
	}
	switch {
	case r.Before == nil && r.After == nil:
		return planparse.ActionNoop
	case r.Before == nil:
		return planparse.ActionCreate
	case r.After == nil:
		return planparse.ActionDelete
	}
	return planparse.ActionUpdate
}

// changing reports whether the action creates or changes an object.
func changing(a planparse.Action) bool {
	return a == planparse.ActionCreate || a == planparse.ActionUpdate || a == planparse.ActionReplace
}

// str returns a string attribute of a value, "" when absent or not a string.
func str(v planparse.Value, path ...any) string {
	s, _ := v.Get(path...).Str()
	return s
}

// isDisplayable reports whether a value is worth quoting to a reviewer:
// known, not secret, short, and safe to show by its form
// (planparse.ShownName: a name, never text).
func isDisplayable(v planparse.Value) bool {
	s, ok := v.Str()
	return ok && !v.IsSensitive() && !v.IsUnknown() && len(s) <= 80 && planparse.ShownName(s) == s
}

// sentence builds a finding's text in one buffer: a message of many parts
// (names, figures, SKUs) costs one string at the end rather than one per
// part, which matters at thousands of findings per plan.
type sentence []byte

func (t *sentence) add(parts ...string) {
	for _, p := range parts {
		*t = append(*t, p...)
	}
}

// code adds s as code() quotes it.
func (t *sentence) code(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '`' || c == '\r' || c == '\n' {
			*t = append(*t, code(s)...)
			return
		}
	}
	*t = append(append(append(*t, '`'), s...), '`')
}

// subject adds subject(r).
func (t *sentence) subject(r *infra.Resource) {
	t.add(kindNoun(r.Kind), " ")
	t.code(planparse.ShownName(displayName(r)))
}

// money adds money(v).
func (t *sentence) money(v float64) { t.add(infra.FormatUSD(v, "$"), "/h") }

// texts keeps a project's finding messages in a few blocks of bytes,
// rather than one allocation each (12,000 on a large plan, each rounded
// up to its size class). A block's bytes are never written again once
// kept, so the strings may point into it.
type texts struct{ block []byte }

// textBlock is the largest block texts allocates; the first is small,
// for the plans with a few findings.
const textBlock = 64 << 10

// keep returns the text of msg as a string.
func (t *texts) keep(msg sentence) string {
	if cap(t.block)-len(t.block) < len(msg) {
		t.block = make([]byte, 0, max(len(msg), min(2*cap(t.block)+1024, textBlock)))
	}
	start := len(t.block)
	t.block = append(t.block, msg...)
	return unsafe.String(unsafe.SliceData(t.block[start:]), len(msg))
}
