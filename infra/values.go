package infra

import (
	"slices"
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
			g.Unpriced, g.SKUUnknown = "SKU known only after apply", true
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
	// A maximum below the minimum is read as the minimum, before the
	// expected count is kept within them (min <= expected <= max).
	s := Scale{Min: lo.n, Max: max(hi.n, lo.n), Expected: lo.n, Autoscaled: true}
	if exp.known {
		s.Expected = min(max(exp.n, lo.n), s.Max)
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

// mapFrom says where a side reads its tags or labels from (Side.src).
type mapFrom uint8

const (
	fromNone             mapFrom = iota
	fromTags                     // src.tags
	fromLabels                   // src.labels
	fromNodeLabels               // src.node_labels
	fromAWSTags                  // src.tags_all when it is a map, else src.tags
	fromTagsAll                  // src.tags_all (fromAWSTags, known to be a map)
	fromAKSClusterTags           // src.tags, with default_node_pool[0].tags over them
	fromAKSClusterLabels         // src.default_node_pool[0].node_labels
	fromASGTags                  // AWS tags, with the tag blocks over them
	fromGKELabels                // src.node_config[0].labels
	fromGKETags                  // src.node_config[0].resource_labels
	fromCustom                   // Side.custom
)

// customMaps are a side's tags and labels given as readers.
type customMaps struct{ tags, labels func() map[string]string }

func (s *Side) setCustom(tags bool, f func() map[string]string) {
	if s.custom == nil {
		s.custom = &customMaps{}
	}
	if tags {
		s.custom.tags, s.tagsFrom = f, fromCustom
	} else {
		s.custom.labels, s.labelsFrom = f, fromCustom
	}
}

// readMap reads the tags or labels a mapFrom names; nil when there are none.
func (s *Side) readMap(from mapFrom, tags bool) map[string]string {
	switch from {
	case fromAKSClusterTags:
		return mergeMaps(stringMap(s.src, "tags"), stringMap(s.src.Get("default_node_pool", 0), "tags"))
	case fromASGTags:
		own := stringMap(awsTagValue(s.src))
		blocks := map[string]string{}
		for _, t := range s.src.Get("tag").List() {
			blocks[strAt(t, "key")] = t.Get("value").Display()
		}
		if len(blocks) > 0 {
			return mergeMaps(own, blocks)
		}
		return own
	case fromCustom:
		f := s.custom.labels
		if tags {
			f = s.custom.tags
		}
		if f == nil {
			return nil
		}
		return f()
	}
	if m, ok := s.winningMap(from); ok {
		return stringMap(m)
	}
	return nil
}

// winningMap is the map value whose entries the tags or labels take
// first, for the mapFroms that have one.
func (s *Side) winningMap(from mapFrom) (planparse.Value, bool) {
	switch from {
	case fromTags:
		return s.src.Get("tags"), true
	case fromLabels:
		return s.src.Get("labels"), true
	case fromNodeLabels:
		return s.src.Get("node_labels"), true
	case fromAWSTags:
		return awsTagValue(s.src), true
	case fromTagsAll:
		return s.src.Get("tags_all"), true
	case fromAKSClusterTags:
		return s.src.Get("default_node_pool", 0, "tags"), true
	case fromAKSClusterLabels:
		return s.src.Get("default_node_pool", 0, "node_labels"), true
	case fromGKELabels:
		return s.src.Get("node_config", 0, "labels"), true
	case fromGKETags:
		return s.src.Get("node_config", 0, "resource_labels"), true
	}
	return planparse.Value{}, false
}

// readKey is readMap(from, tags)[key]: a key present in the winning map
// is read alone; anything else (absent, null, renamed as a secret, or a
// merge without a winning map) reads the whole map.
func (s *Side) readKey(from mapFrom, tags bool, key string) string {
	m, ok := s.winningMap(from)
	if ok && m.IsMap() {
		x, has := m.Lookup(key)
		if !x.IsNull() {
			return x.Display()
		}
		if !has && from != fromAKSClusterTags {
			return "" // absent from the map that is the whole answer
		}
	}
	if !ok || from == fromAKSClusterTags {
		return s.readMap(from, tags)[key]
	}
	return stringMap(m)[key] // readMap's answer, without finding m again
}

// mapAt is stringMap read when asked (an ARM pool's tags and labels).
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

// record is attributes of one object read in one walk of its bytes
// (planparse.Value.Fields): an adapter reads its ten or so attributes,
// most of them absent, at about the cost of one.
type record struct {
	v    planparse.Value
	keys []string
	vals [maxRecord]planparse.Value
}

// maxRecord is the most attributes a record reads.
const maxRecord = 16

// read fills r with the attributes keys (distinct, at most maxRecord) of v.
func (r *record) read(v planparse.Value, keys []string) {
	r.v, r.keys = v, keys
	v.Fields(keys, r.vals[:len(keys)])
}

// at is the attribute key of the object, as Get reads it.
func (r *record) at(key string) planparse.Value {
	for i, k := range r.keys {
		if k == key {
			return r.vals[i]
		}
	}
	return r.v.Get(key)
}

// keys joins lists of attribute names into a record's keys.
func keys(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	if len(out) > maxRecord {
		panic("infra: a record reads at most maxRecord attributes")
	}
	for i, k := range out {
		if slices.Contains(out[:i], k) {
			panic("infra: a record reads " + k + " twice") // Fields takes distinct keys
		}
	}
	return out
}
