package infra

import (
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/planparse"
)

// GPUs in Kubernetes resources of a Terraform plan: what workloads
// request (nvidia.com/gpu, amd.com/gpu, aws.amazon.com/neuron limits of
// their containers, times their replicas) and which GPU instance families
// a Karpenter NodePool lets Karpenter launch. Neither bills by itself:
// the nodes that run them do (Cost.BilledVia is BilledViaNodes), so they
// are never priced nor counted in a total; the GPU table shows them.

// KindWorkload is a Kubernetes workload (Deployment, StatefulSet, Job,
// DaemonSet, a Helm release's pods): its groups are the GPUs its pods
// request.
const KindWorkload Kind = "workload"

// BilledViaNodes is Cost.BilledVia of a Kubernetes workload or Karpenter
// NodePool: the nodes that run it bill, not it.
const BilledViaNodes = "kubernetes nodes"

// nodesBill is why a Kubernetes resource's groups have no price.
const nodesBill = "billed through the Kubernetes nodes that run it, not by itself"

// CloudKubernetes is SKU.Cloud of a workload's GPU request: its Name is
// the extended resource (nvidia.com/gpu), GPUCount the GPUs one pod asks for.
const CloudKubernetes = "kubernetes"

// gpuResources are the extended resources that are accelerators, with
// their kind and the model a request says when no node selector names one.
var gpuResources = []struct {
	name  string
	kind  Accelerator
	model string
}{
	{"nvidia.com/gpu", AcceleratorNVIDIA, "NVIDIA GPU (model chosen by the node)"},
	{"amd.com/gpu", AcceleratorAMD, "AMD GPU (model chosen by the node)"},
	{"aws.amazon.com/neuron", AcceleratorInferentia, "AWS Neuron device (Inferentia or Trainium)"},
	{"aws.amazon.com/neurondevice", AcceleratorInferentia, "AWS Neuron device (Inferentia or Trainium)"},
}

func init() {
	for _, t := range []string{"kubernetes_deployment", "kubernetes_deployment_v1", "kubernetes_stateful_set", "kubernetes_stateful_set_v1",
		"kubernetes_job", "kubernetes_job_v1", "kubernetes_daemonset", "kubernetes_daemon_set_v1"} {
		of := tfPods(strings.Contains(t, "daemon"))
		adapters[t] = adapter{KindWorkload, func(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
			return workloadSide(strAt(v, "metadata", 0, "name"), of(v))
		}, true}
		onlyIf[t] = func(c *planparse.Change) bool { return requestsGPUs(c, of) }
	}
	adapters["kubernetes_manifest"] = adapter{KindWorkload, k8sManifest, true}
	onlyIf["kubernetes_manifest"] = func(c *planparse.Change) bool {
		return isNodePool(manifestOf(c.After())) || isNodePool(manifestOf(c.Before())) || requestsGPUs(c, manifestPods)
	}
	adapters["helm_release"] = adapter{KindWorkload, helmRelease, true}
	onlyIf["helm_release"] = func(c *planparse.Change) bool { return requestsGPUs(c, helmPods) }
}

// viaNodes marks a Kubernetes resource as billed through its nodes, and
// a Karpenter NodePool (whose groups are instance families, not GPU
// requests) as the node pool it is.
func (a *analysis) viaNodes(r *Resource) {
	r.Cost.BilledVia = BilledViaNodes
	for _, s := range []*Side{r.Before, r.After} {
		if s != nil && len(s.Groups) > 0 && s.Groups[0].SKU.Cloud != CloudKubernetes {
			r.Kind = KindNodePool
		}
	}
}

// pod is one pod template's GPU request: per pod, how many pods, and
// where it sits (a Helm values path, or "").
type pod struct {
	name     string
	resource string
	perPod   float64
	known    bool
	replicas count
	perNode  bool // a DaemonSet: one pod per node
	model    string
}

// podsOf reads the pod templates of one side of a change.
type podsOf func(v planparse.Value) []pod

func requestsGPUs(c *planparse.Change, of podsOf) bool {
	return len(of(c.After())) > 0 || len(of(c.Before())) > 0
}

// workloadSide makes a side of the pods' GPU requests: one group per pod
// template and accelerator.
func workloadSide(name string, pods []pod) Side {
	s := Side{Name: name}
	for _, p := range pods {
		kind, model := AcceleratorNVIDIA, p.model
		for _, r := range gpuResources {
			if r.name == p.resource {
				kind = r.kind
				if model == "" {
					model = r.model
				}
			}
		}
		g := Group{Name: p.name, SKU: SKU{Cloud: CloudKubernetes, Name: p.resource, GPUCount: p.perPod, GPUModel: model,
			Accelerator: kind, Known: p.known}}
		switch {
		case p.perNode || p.replicas.unknown:
			g.Scale = Scale{Unknown: true}
		default:
			g.Scale = fixedScale(p.replicas, 1)
		}
		if s.SKU == "" {
			s.SKU = p.resource
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

// --- Terraform's kubernetes provider (kubernetes_deployment and friends) ---

// tfPods reads the pod template of a kubernetes_deployment,
// _stateful_set, _job or (perNode) _daemonset value; blocks are lists of one.
func tfPods(perNode bool) podsOf {
	return func(v planparse.Value) []pod {
		if v.IsNull() {
			return nil
		}
		spec := v.Get("spec", 0)
		replicas := count{n: 1, known: true}
		switch {
		case !spec.Get("replicas").IsNull():
			replicas = quantityCount(spec.Get("replicas"))
		case !spec.Get("parallelism").IsNull():
			replicas = quantityCount(spec.Get("parallelism"))
		}
		ps := spec.Get("template", 0, "spec", 0)
		return podRequests(ps, "container", "init_container", func(c planparse.Value) planparse.Value { return c.Get("resources", 0) },
			stringMap(ps, "node_selector"), replicas, perNode, "")
	}
}

// podRequests sums the GPU limits (requests where no limit is set) of a
// pod spec's containers, taking the larger of that and any one init
// container's, as Kubernetes does.
func podRequests(ps planparse.Value, containers, inits string, resources func(planparse.Value) planparse.Value,
	selector map[string]string, replicas count, perNode bool, name string) []pod {
	var out []pod
	for _, r := range gpuResources {
		sum, known, any := 0.0, true, false
		for _, ctr := range ps.Get(containers).List() {
			n, k, has := gpuLimit(resources(ctr), r.name)
			sum, known, any = sum+n, known && k, any || has
		}
		for _, ctr := range ps.Get(inits).List() {
			n, k, has := gpuLimit(resources(ctr), r.name)
			if has {
				sum, known, any = max(sum, n), known && k, true
			}
		}
		if any {
			out = append(out, pod{name: name, resource: r.name, perPod: sum, known: known, replicas: replicas, perNode: perNode,
				model: selectorModel(selector)})
		}
	}
	return out
}

// gpuLimit reads one container's limit of resource (else its request).
func gpuLimit(res planparse.Value, resource string) (n float64, known, has bool) {
	for _, which := range []string{"limits", "requests"} {
		x, ok := res.Get(which).Lookup(resource)
		if !ok || x.IsNull() {
			continue
		}
		c := quantityCount(x)
		return float64(c.n), c.known, true
	}
	return 0, true, false
}

// quantityCount reads a count written as a number or a string ("2").
func quantityCount(x planparse.Value) count {
	if x.IsUnknown() {
		return count{unknown: true}
	}
	if n, ok := x.Int(); ok && n >= 0 {
		return count{n: int(n), known: true}
	}
	if s, ok := x.Str(); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 {
			return count{n: n, known: true}
		}
	}
	return count{}
}

// selectorModel is the GPU model a pod's node selector asks for, or "".
func selectorModel(sel map[string]string) string {
	if v := sel["cloud.google.com/gke-accelerator"]; v != "" {
		if m, _, ok := GCPAccelerator(v); ok {
			return m
		}
	}
	if v := sel["nvidia.com/gpu.product"]; v != "" {
		return strings.ReplaceAll(v, "-", " ")
	}
	if v := sel["karpenter.k8s.aws/instance-gpu-name"]; v != "" {
		return "NVIDIA " + strings.ToUpper(v)
	}
	if v := sel["node.kubernetes.io/instance-type"]; v != "" {
		if s, ok := FamilyFacts(instanceCloud(v), v); ok && s.HasGPU() {
			return s.GPUModel
		}
	}
	return ""
}

// instanceCloud guesses the cloud of an instance type by its spelling.
func instanceCloud(t string) string {
	switch {
	case strings.HasPrefix(strings.ToLower(t), "standard_"):
		return CloudAzure
	case strings.Contains(t, "."):
		return CloudAWS
	}
	return CloudGCP
}

// --- kubernetes_manifest ---

// manifestOf is a kubernetes_manifest's object as configured, else as the
// provider read it.
func manifestOf(v planparse.Value) planparse.Value {
	if m := v.Get("manifest"); m.IsMap() {
		return m
	}
	return v.Get("object")
}

func isNodePool(m planparse.Value) bool {
	return strAt(m, "kind") == "NodePool" && strings.HasPrefix(strAt(m, "apiVersion"), "karpenter.sh/")
}

func k8sManifest(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	m := manifestOf(v)
	if isNodePool(m) {
		return a.nodePool(m)
	}
	return workloadSide(strAt(m, "metadata", "name"), manifestPods(v))
}

// manifestPods reads the pod template of a Deployment, StatefulSet, Job,
// DaemonSet or ReplicaSet manifest.
func manifestPods(v planparse.Value) []pod {
	m := manifestOf(v)
	kind := strAt(m, "kind")
	spec := m.Get("spec")
	replicas := count{n: 1, known: true}
	switch kind {
	case "Deployment", "StatefulSet", "ReplicaSet":
		if x := spec.Get("replicas"); !x.IsNull() {
			replicas = quantityCount(x)
		}
	case "Job":
		if x := spec.Get("parallelism"); !x.IsNull() {
			replicas = quantityCount(x)
		}
	case "DaemonSet":
	default:
		return nil
	}
	ps := spec.Get("template", "spec")
	return podRequests(ps, "containers", "initContainers", func(c planparse.Value) planparse.Value { return c.Get("resources") },
		stringMap(ps, "nodeSelector"), replicas, kind == "DaemonSet", "")
}

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
