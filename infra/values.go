package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// count is an integer attribute: known, unknown until apply, or absent.
type count struct {
	n       int
	known   bool
	unknown bool
}

func intAt(v planparse.Value, path ...any) count {
	x := v.Get(path...)
	if x.IsUnknown() {
		return count{unknown: true}
	}
	if n, ok := x.Int(); ok && n >= 0 && n <= 1_000_000 {
		return count{n: int(n), known: true}
	}
	return count{}
}

func strAt(v planparse.Value, path ...any) string {
	s, _ := v.Get(path...).Str()
	return s
}

func boolAt(v planparse.Value, path ...any) bool {
	b, _ := v.Get(path...).Bool()
	return b
}

// skuAt reads a SKU attribute; unknown says it is known only after apply.
func skuAt(v planparse.Value, path ...any) (name string, unknown bool) {
	x := v.Get(path...)
	if x.IsUnknown() {
		return "", true
	}
	s, _ := x.Str()
	return s, false
}

// group builds a group for a SKU attribute, looking the SKU up.
func (a *analysis) group(cloud string, v planparse.Value, path ...any) Group {
	name, unknown := skuAt(v, path...)
	g := Group{SKU: a.lookup(cloud, name)}
	if name == "" {
		g.SKU = SKU{Cloud: cloud}
		if unknown {
			g.Unpriced = "SKU known only after apply"
		}
	}
	return g
}

// fixedScale is a count that does not autoscale; an absent count is def.
func fixedScale(c count, def int) Scale {
	switch {
	case c.unknown:
		return Scale{Unknown: true}
	case !c.known:
		return Scale{Min: def, Expected: def, Max: def}
	}
	return Scale{Min: c.n, Expected: c.n, Max: c.n}
}

// rangeScale is an autoscaled count: expected is the current/desired
// count when known, else min, kept within [min, max].
func rangeScale(lo, exp, hi count) Scale {
	if lo.unknown || hi.unknown || !lo.known || !hi.known {
		return Scale{Unknown: true, Autoscaled: true}
	}
	s := Scale{Min: lo.n, Max: hi.n, Expected: lo.n, Autoscaled: true}
	if exp.known {
		s.Expected = min(max(exp.n, lo.n), hi.n)
	}
	if s.Max < s.Min {
		s.Max = s.Min
	}
	return s
}

// stringMap reads a map of strings; nil when absent or unknown.
func stringMap(v planparse.Value, path ...any) map[string]string {
	m := v.Get(path...).StringMap()
	if len(m) == 0 {
		return nil
	}
	return m
}

// mapAt is stringMap read when asked: what Side.tags and Side.labels hold.
func mapAt(v planparse.Value, path ...any) func() map[string]string {
	return func() map[string]string { return stringMap(v, path...) }
}

func mergeMaps(ms ...map[string]string) map[string]string {
	var out map[string]string
	for _, m := range ms {
		for k, x := range m {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = x
		}
	}
	return out
}

// stringList reads a list of strings, skipping non-strings.
func stringList(v planparse.Value, path ...any) []string {
	var out []string
	for _, e := range v.Get(path...).List() {
		if s, ok := e.Str(); ok {
			out = append(out, s)
		}
	}
	return out
}

// taintBlocks reads EKS/GKE taint blocks {key, value, effect} into
// key=value:Effect with Kubernetes effect names.
func taintBlocks(v planparse.Value, path ...any) []string {
	var out []string
	for _, t := range v.Get(path...).List() {
		k, val, eff := strAt(t, "key"), strAt(t, "value"), strAt(t, "effect")
		s := k
		if val != "" {
			s += "=" + val
		}
		out = append(out, s+":"+k8sEffect(eff))
	}
	return out
}

func k8sEffect(e string) string {
	switch strings.ToUpper(strings.ReplaceAll(e, "_", "")) {
	case "NOSCHEDULE":
		return "NoSchedule"
	case "PREFERNOSCHEDULE":
		return "PreferNoSchedule"
	case "NOEXECUTE":
		return "NoExecute"
	}
	return e
}

// location reads a region attribute; unknown or absent gives "".
func location(v planparse.Value, attr string) string {
	return NormalizeRegion(strAt(v, attr))
}
