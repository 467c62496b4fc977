package infra

import (
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/planparse"
)

// --- helm_release ---

func helmRelease(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	return workloadSide(strAt(v, "name"), helmPods(v))
}

// helmPods finds GPU limits in a release's values (YAML documents, later
// ones winning) and its set blocks: every resources.limits (or requests)
// map with a GPU resource is one pod template, its replicas the nearest
// replicaCount or replicas beside or above it (1 when none).
func helmPods(v planparse.Value) []pod {
	if v.IsNull() {
		return nil
	}
	var docs []string
	gpus := false
	for _, doc := range v.Get("values").List() {
		if s, ok := doc.Str(); ok {
			docs = append(docs, s)
			gpus = gpus || mentionsGPUResource(s)
		}
	}
	sets := v.Get("set").List()
	for _, set := range sets {
		gpus = gpus || mentionsGPUResource(strings.ReplaceAll(strAt(set, "name"), `\.`, "."))
	}
	if !gpus {
		return nil // most releases: no YAML read
	}
	var merged map[string]any
	for _, s := range docs {
		var m map[string]any
		if yaml.Unmarshal([]byte(s), &m) == nil {
			merged = mergeValues(merged, m)
		}
	}
	for _, set := range sets {
		if name := strAt(set, "name"); name != "" {
			merged = mergeValues(merged, setPath(splitSetName(name), strAt(set, "value")))
		}
	}
	if merged == nil {
		return nil
	}
	var out []pod
	walkHelm(merged, "", count{n: 1, known: true}, &out)
	return out
}

func mentionsGPUResource(s string) bool {
	for _, r := range gpuResources {
		if strings.Contains(s, r.name) {
			return true
		}
	}
	return false
}

// walkHelm visits a values tree, carrying the replicas in scope.
func walkHelm(m map[string]any, path string, replicas count, out *[]pod) {
	for _, k := range []string{"replicaCount", "replicas"} {
		if n, ok := helmInt(m[k]); ok {
			replicas = count{n: n, known: true}
		}
	}
	if res, ok := m["resources"].(map[string]any); ok {
		for _, r := range gpuResources {
			for _, which := range []string{"limits", "requests"} {
				lim, _ := res[which].(map[string]any)
				if n, ok := helmInt(lim[r.name]); ok {
					*out = append(*out, pod{name: orString(path, "values"), resource: r.name, perPod: float64(n), known: true, replicas: replicas})
					break
				}
			}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if sub, ok := m[k].(map[string]any); ok && k != "resources" {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walkHelm(sub, p, replicas, out)
		}
	}
}

func helmInt(x any) (int, bool) {
	switch t := x.(type) {
	case int:
		return t, t >= 0
	case float64:
		return int(t), t >= 0 && t == float64(int(t))
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(t))
		return n, err == nil && n >= 0
	}
	return 0, false
}

// mergeValues merges b over a as Helm merges values files.
func mergeValues(a, b map[string]any) map[string]any {
	if a == nil {
		a = map[string]any{}
	}
	for k, v := range b {
		if bm, ok := v.(map[string]any); ok {
			if am, ok := a[k].(map[string]any); ok {
				a[k] = mergeValues(am, bm)
				continue
			}
		}
		a[k] = v
	}
	return a
}

// splitSetName splits a --set name at its unescaped dots:
// resources.limits.nvidia\.com/gpu.
func splitSetName(name string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(name); i++ {
		switch {
		case name[i] == '\\' && i+1 < len(name) && name[i+1] == '.':
			cur.WriteByte('.')
			i++
		case name[i] == '.':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(name[i])
		}
	}
	return append(out, cur.String())
}

func setPath(path []string, val string) map[string]any {
	m := map[string]any{path[len(path)-1]: val}
	for i := len(path) - 2; i >= 0; i-- {
		m = map[string]any{path[i]: m}
	}
	return m
}
