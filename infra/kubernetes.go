package infra

import (
	"strconv"
	"strings"

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
