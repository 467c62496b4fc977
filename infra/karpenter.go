package infra

import (
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// --- Karpenter NodePool ---

// The Karpenter well-known labels a NodePool's requirements constrain.
const (
	labelInstanceType     = "node.kubernetes.io/instance-type"
	labelInstanceFamily   = "karpenter.k8s.aws/instance-family"
	labelInstanceCategory = "karpenter.k8s.aws/instance-category"
	labelGPUCount         = "karpenter.k8s.aws/instance-gpu-count"
	labelGPUName          = "karpenter.k8s.aws/instance-gpu-name"
	labelGPUMaker         = "karpenter.k8s.aws/instance-gpu-manufacturer"
	labelAzureFamily      = "karpenter.azure.com/sku-family"
	labelAzureGPUCount    = "karpenter.azure.com/sku-gpu-count"
)

// nodePool reads what instances a NodePool allows: one group per instance
// type or family its requirements name (In, less NotIn), else per EC2
// category, else a group that says whether GPUs are required or excluded.
// Its groups are unpriced (Karpenter picks sizes and counts).
func (a *analysis) nodePool(m planparse.Value) Side {
	spec := m.Get("spec", "template", "spec")
	req := readRequirements(spec.Get("requirements"))
	gpu := req.gpuRule()
	var skus []SKU
	switch {
	case req.in[labelInstanceType] != nil:
		for _, t := range req.values(labelInstanceType) {
			skus = append(skus, a.lookup(instanceCloud(t), t))
		}
	case req.in[labelInstanceFamily] != nil:
		for _, f := range req.values(labelInstanceFamily) {
			skus = append(skus, familySKU(f))
		}
	case req.in[labelInstanceCategory] != nil:
		for _, c := range req.values(labelInstanceCategory) {
			skus = append(skus, categorySKU(c))
		}
	case gpu > 0:
		skus = append(skus, SKU{Cloud: CloudAWS, Name: "any GPU instance", GPUCount: 1, GPUModel: "GPU (any family)", Accelerator: AcceleratorNVIDIA, Known: true})
	case gpu < 0:
		skus = append(skus, SKU{Cloud: CloudAWS, Name: "no GPU instances", Known: true})
	default:
		skus = append(skus, SKU{Cloud: CloudAWS, Name: "any instance"}) // unconstrained: neither GPU nor known CPU
	}
	s := Side{Name: strAt(m, "metadata", "name")}
	var names []string
	for _, k := range skus {
		// A rule on GPUs narrows the families: a GPU family under "no
		// GPUs" is not allowed, nor a CPU family under "GPUs only".
		if gpu > 0 && k.Known && !k.HasGPU() || gpu < 0 && k.HasGPU() {
			continue
		}
		s.Groups = append(s.Groups, Group{SKU: k, Scale: Scale{Unknown: true}})
		names = append(names, k.Name)
	}
	if len(s.Groups) == 0 {
		s.Groups = []Group{{SKU: SKU{Cloud: CloudAWS, Name: "no instance type", Known: true}, Scale: Scale{Unknown: true}}}
		names = []string{"no instance type"}
	}
	s.SKU = strings.Join(names, ", ")
	for _, t := range spec.Get("taints").List() {
		k, val, eff := strAt(t, "key"), strAt(t, "value"), strAt(t, "effect")
		if val != "" {
			k += "=" + val
		}
		s.Taints = append(s.Taints, k+":"+k8sEffect(eff))
	}
	s.setCustom(false, mapAt(m, "spec", "template", "metadata", "labels"))
	return s
}

// requirements are a NodePool's requirements by key: the values In
// allows (nil for no In), NotIn removes, and the numeric bounds.
type requirements struct {
	in, notIn map[string][]string
	ops       map[string][]requirement
}

type requirement struct {
	op     string
	values []string
}

func readRequirements(list planparse.Value) requirements {
	r := requirements{in: map[string][]string{}, notIn: map[string][]string{}, ops: map[string][]requirement{}}
	for _, e := range list.List() {
		key, op := strAt(e, "key"), strAt(e, "operator")
		vals := stringList(e, "values")
		r.ops[key] = append(r.ops[key], requirement{op, vals})
		switch op {
		case "In":
			r.in[key] = append(r.in[key], vals...)
		case "NotIn":
			r.notIn[key] = append(r.notIn[key], vals...)
		}
	}
	return r
}

// values are the In values of key less its NotIn ones.
func (r requirements) values(key string) []string {
	var out []string
	for _, v := range r.in[key] {
		if !slices.Contains(r.notIn[key], v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// gpuRule is 1 when the requirements demand a GPU (a GPU count above 0,
// a GPU name or maker), -1 when they exclude one (no GPU count, or a
// count of 0), 0 when they say nothing of GPUs.
func (r requirements) gpuRule() int {
	rule := 0
	for _, key := range []string{labelGPUCount, labelAzureGPUCount} {
		for _, q := range r.ops[key] {
			switch q.op {
			case "Exists":
				rule = 1
			case "DoesNotExist":
				return -1
			case "Gt":
				if n, err := strconv.Atoi(first(q.values)); err == nil && n >= 0 {
					rule = 1
				}
			case "Lt":
				if n, err := strconv.Atoi(first(q.values)); err == nil && n <= 1 {
					return -1
				}
			case "In":
				zero, some := false, false
				for _, v := range q.values {
					if v == "0" {
						zero = true
					} else {
						some = true
					}
				}
				if zero && !some {
					return -1
				}
				if some && !zero {
					rule = 1
				}
			}
		}
	}
	for _, key := range []string{labelGPUName, labelGPUMaker} {
		for _, q := range r.ops[key] {
			if q.op == "In" || q.op == "Exists" {
				rule = 1
			}
			if q.op == "DoesNotExist" {
				return -1
			}
		}
	}
	return rule
}

func first(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// familySKU is what an EC2 instance family's name says: a GPU family's
// accelerator (its smallest size's count), a CPU family, or an unknown
// family. It reads the family rules' own tables (family.go).
func familySKU(family string) SKU {
	f := strings.ToLower(family)
	if g, ok := awsGPU[f]; ok {
		least := 0.0
		for _, n := range g.sizes {
			if least == 0 || n < least {
				least = n
			}
		}
		return g.g.sku(CloudAWS, family, f, least)
	}
	if awsCPU(f) {
		return SKU{Cloud: CloudAWS, Name: family, Family: f, Known: true, FromFamily: true}
	}
	return SKU{Cloud: CloudAWS, Name: family}
}

// categorySKU is an EC2 instance category (the family's leading letters):
// g and p are NVIDIA GPUs, inf Inferentia, trn Trainium; c, m, r, t, x,
// i, d, z and a have none.
func categorySKU(c string) SKU {
	name := c + "*"
	switch strings.ToLower(c) {
	case "g", "p":
		return SKU{Cloud: CloudAWS, Name: name, GPUCount: 1, GPUModel: "NVIDIA GPU (any " + name + " family)", Accelerator: AcceleratorNVIDIA, Known: true}
	case "inf":
		return SKU{Cloud: CloudAWS, Name: name, GPUCount: 1, GPUModel: gInf2.model, Accelerator: AcceleratorInferentia, Known: true}
	case "trn":
		return SKU{Cloud: CloudAWS, Name: name, GPUCount: 1, GPUModel: gTrn1.model, Accelerator: AcceleratorTrainium, Known: true}
	case "c", "m", "r", "t", "x", "i", "d", "z", "a", "h", "u":
		return SKU{Cloud: CloudAWS, Name: name, Known: true}
	}
	return SKU{Cloud: CloudAWS, Name: name}
}
