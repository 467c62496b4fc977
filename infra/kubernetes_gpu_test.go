package infra

import (
	"testing"
)

// tfDeployment is a kubernetes_deployment_v1 value (blocks are lists of
// one) with one container asking for gpus of resource, and replicas.
func tfDeployment(name string, replicas any, resource string, gpus any) map[string]any {
	ctr := map[string]any{"name": "server", "image": "vllm/vllm-openai:v0.6.0",
		"resources": []any{map[string]any{"limits": map[string]any{"cpu": "8", resource: gpus}, "requests": map[string]any{"cpu": "4"}}}}
	return map[string]any{
		"metadata": []any{map[string]any{"name": name, "namespace": "serving"}},
		"spec": []any{map[string]any{"replicas": replicas,
			"template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{ctr}}}}}}},
	}
}

// manifest is a kubernetes_manifest value holding obj.
func manifest(obj map[string]any) map[string]any { return map[string]any{"manifest": obj} }

func nodePool(name string, reqs []any, taints []any) map[string]any {
	spec := map[string]any{"requirements": reqs, "nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "default"}}
	if taints != nil {
		spec["taints"] = taints
	}
	return manifest(map[string]any{"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"workload": "inference"}}, "spec": spec},
			"limits": map[string]any{"nvidia.com/gpu": 64}}})
}

func req(key, op string, values ...string) map[string]any {
	vs := make([]any, len(values))
	for i, v := range values {
		vs[i] = v
	}
	return map[string]any{"key": key, "operator": op, "values": vs}
}

func podManifest(kind string, spec map[string]any, containers ...any) map[string]any {
	spec["template"] = map[string]any{"spec": map[string]any{"containers": containers,
		"nodeSelector": map[string]any{"cloud.google.com/gke-accelerator": "nvidia-tesla-t4"}}}
	return manifest(map[string]any{"apiVersion": "apps/v1", "kind": kind, "metadata": map[string]any{"name": "embedder"}, "spec": spec})
}

func container(limits map[string]any) map[string]any {
	return map[string]any{"name": "c", "resources": map[string]any{"limits": limits}}
}

// nodesBilled is every Kubernetes resource's unpriced reason, on the sides it has.
func nodesBilled(sides ...string) []string {
	var out []string
	for _, s := range sides {
		out = append(out, s+": "+nodesBill)
	}
	return out
}

func TestKubernetesWorkloadGPUs(t *testing.T) {
	t.Parallel()
	const nv = "NVIDIA GPU (model chosen by the node)"
	runAdapterCases(t, map[string]adapterCase{
		"deployment scales from 2 to 4 replicas of one GPU": {
			plan: tplan{changes: []rc{{addr: "kubernetes_deployment_v1.llm", actions: []string{"update"},
				before: tfDeployment("llm", "2", "nvidia.com/gpu", "1"), after: tfDeployment("llm", "4", "nvidia.com/gpu", "1")}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "nil -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("both"), GroupsBefore: 1, GroupsA: 1,
				Before: &sview{SKU: "nvidia.com/gpu", Name: "llm", Scale: fixed(2), GPUs: 2, MaxGPUs: 2, GPUModel: nv},
				After:  &sview{SKU: "nvidia.com/gpu", Name: "llm", Scale: fixed(4), GPUs: 4, MaxGPUs: 4, GPUModel: nv}},
		},
		"a job's parallelism times its AMD GPUs": {
			plan: tplan{changes: []rc{{addr: "kubernetes_job_v1.train", actions: []string{"create"},
				after: map[string]any{"metadata": []any{map[string]any{"name": "train"}}, "spec": []any{map[string]any{"parallelism": 3,
					"template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{
						map[string]any{"resources": []any{map[string]any{"limits": map[string]any{"amd.com/gpu": "2"}}}}}}}}}}}}}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "amd.com/gpu", Name: "train", Scale: fixed(3), GPUs: 6, MaxGPUs: 6, GPUModel: "AMD GPU (model chosen by the node)"}},
		},
		"a daemonset's GPUs run on every node: count unknown": {
			plan: tplan{changes: []rc{{addr: "kubernetes_daemon_set_v1.dcgm", actions: []string{"create"},
				after: map[string]any{"metadata": []any{map[string]any{"name": "dcgm"}}, "spec": []any{map[string]any{
					"template": []any{map[string]any{"spec": []any{map[string]any{"container": []any{
						map[string]any{"resources": []any{map[string]any{"limits": map[string]any{"nvidia.com/gpu": "1"}}}}}}}}}}}}}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "nvidia.com/gpu", Name: "dcgm", Scale: Scale{Unknown: true}, GPUModel: nv}},
		},
		"a manifest Deployment: containers add up, the node selector names the model": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.embedder", actions: []string{"create"},
				after: podManifest("Deployment", map[string]any{"replicas": 3},
					container(map[string]any{"nvidia.com/gpu": 1}), container(map[string]any{"nvidia.com/gpu": "1", "cpu": "2"}))}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "nvidia.com/gpu", Name: "embedder", Scale: fixed(3), GPUs: 6, MaxGPUs: 6, GPUModel: "NVIDIA T4 16GB"}},
		},
		"an init container asking for more counts alone": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.embedder", actions: []string{"create"},
				after: func() map[string]any {
					m := podManifest("StatefulSet", map[string]any{}, container(map[string]any{"nvidia.com/gpu": 1}))
					ps := m["manifest"].(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
					ps["initContainers"] = []any{container(map[string]any{"nvidia.com/gpu": 4})}
					return m
				}()}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "nvidia.com/gpu", Name: "embedder", Scale: fixed(1), GPUs: 4, MaxGPUs: 4, GPUModel: "NVIDIA T4 16GB"}},
		},
		"helm values: a component's limits times its replicaCount, set blocks win": {
			plan: tplan{changes: []rc{{addr: "helm_release.vllm", actions: []string{"update"},
				before: map[string]any{"name": "vllm", "values": []any{"worker:\n  replicaCount: 2\n  resources:\n    limits:\n      nvidia.com/gpu: 1\n"}},
				after: map[string]any{"name": "vllm", "values": []any{"worker:\n  replicaCount: 2\n  resources:\n    limits:\n      nvidia.com/gpu: 1\n"},
					"set": []any{map[string]any{"name": `worker.resources.limits.nvidia\.com/gpu`, "value": "4"}}}}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "nil -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("both"), GroupsBefore: 1, GroupsA: 1,
				Before: &sview{SKU: "nvidia.com/gpu", Name: "vllm", Scale: fixed(2), GPUs: 2, MaxGPUs: 2, GPUModel: nv},
				After:  &sview{SKU: "nvidia.com/gpu", Name: "vllm", Scale: fixed(2), GPUs: 8, MaxGPUs: 8, GPUModel: nv}},
		},
		"helm values: Neuron devices at the top level": {
			plan: tplan{changes: []rc{{addr: "helm_release.neuron", actions: []string{"create"},
				after: map[string]any{"name": "neuron", "values": []any{"replicas: 3\n", "resources:\n  limits:\n    aws.amazon.com/neuron: 2\n"}}}}},
			want: rview{Kind: KindWorkload, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "aws.amazon.com/neuron", Name: "neuron", Scale: fixed(3), GPUs: 6, MaxGPUs: 6, GPUModel: "AWS Neuron device (Inferentia or Trainium)"}},
		},
	})
}

// Workloads without GPU requests, charts without GPU values and manifests
// of other kinds are not resources infra reads.
func TestKubernetesWithoutGPUsIsNoResource(t *testing.T) {
	t.Parallel()
	tests := map[string]rc{
		"deployment without GPUs": {addr: "kubernetes_deployment.web", actions: []string{"create"}, after: tfDeployment("web", "3", "memory", "1Gi")},
		"chart without GPU values": {addr: "helm_release.web", actions: []string{"create"},
			after: map[string]any{"name": "web", "values": []any{"replicaCount: 3\nresources:\n  limits:\n    cpu: 2\n"}}},
		"a ConfigMap": {addr: "kubernetes_manifest.cm", actions: []string{"create"},
			after: manifest(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}, "data": map[string]any{"nvidia.com/gpu": "1"}})},
	}
	for name, c := range tests {
		t.Run(name, func(t *testing.T) {
			if rs := analyze(t, tplan{changes: []rc{c}}, Options{}); len(rs) != 0 {
				t.Errorf("got %d resources, want none: %+v", len(rs), view(rs[0]))
			}
		})
	}
	// The honest twin: the same deployment asking for a GPU is one.
	if rs := analyze(t, tplan{changes: []rc{{addr: "kubernetes_deployment.web", actions: []string{"create"},
		after: tfDeployment("web", "3", "nvidia.com/gpu", "1")}}}, Options{}); len(rs) != 1 || rs[0].After.GPUs(false) != 3 {
		t.Errorf("a deployment asking for GPUs: got %d resources", len(rs))
	}
}

func TestKarpenterNodePool(t *testing.T) {
	t.Parallel()
	taint := []any{map[string]any{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}}
	labels := map[string]string{"workload": "inference"}
	unknown := Scale{Unknown: true}
	runAdapterCases(t, map[string]adapterCase{
		"families lose every GPU family": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.gpu", actions: []string{"update"},
				before: nodePool("gpu", []any{req("karpenter.k8s.aws/instance-family", "In", "g5", "p4d")}, taint),
				after:  nodePool("gpu", []any{req("karpenter.k8s.aws/instance-family", "In", "m5", "c5")}, taint)}}},
			want: rview{Kind: KindNodePool, BilledVia: BilledViaNodes, Hourly: "nil -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after", "after", "before", "before"), GroupsBefore: 2, GroupsA: 2,
				Before: &sview{SKU: "g5, p4d", Name: "gpu", Scale: unknown, GPUModel: "NVIDIA A10G 24GB", Labels: labels, Taints: []string{"nvidia.com/gpu=true:NoSchedule"}},
				After:  &sview{SKU: "m5, c5", Name: "gpu", Scale: unknown, Labels: labels, Taints: []string{"nvidia.com/gpu=true:NoSchedule"}}},
		},
		"NotIn takes a family out, a GPU count keeps only GPU families": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.gpu", actions: []string{"create"},
				after: nodePool("gpu", []any{req("karpenter.k8s.aws/instance-family", "In", "g6", "g5", "m7i"),
					req("karpenter.k8s.aws/instance-family", "NotIn", "g5"), req("karpenter.k8s.aws/instance-gpu-count", "Gt", "0")}, nil)}}},
			want: rview{Kind: KindNodePool, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "g6", Name: "gpu", Scale: unknown, GPUModel: "NVIDIA L4 24GB", Labels: labels}},
		},
		"categories g and p": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.gpu", actions: []string{"create"},
				after: nodePool("gpu", []any{req("karpenter.k8s.aws/instance-category", "In", "g", "p")}, nil)}}},
			want: rview{Kind: KindNodePool, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after", "after"), GroupsA: 2,
				After: &sview{SKU: "g*, p*", Name: "gpu", Scale: unknown, GPUModel: "NVIDIA GPU (any g* family)", Labels: labels}},
		},
		"instance types by name": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.gpu", actions: []string{"create"},
				after: nodePool("gpu", []any{req("node.kubernetes.io/instance-type", "In", "p5.48xlarge")}, nil)}}},
			want: rview{Kind: KindNodePool, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "p5.48xlarge", Name: "gpu", Scale: unknown, GPUModel: "NVIDIA H100 80GB", Labels: labels}},
		},
		"no GPU count: CPU only": {
			plan: tplan{changes: []rc{{addr: "kubernetes_manifest.cpu", actions: []string{"create"},
				after: nodePool("cpu", []any{req("karpenter.k8s.aws/instance-gpu-count", "DoesNotExist")}, nil)}}},
			want: rview{Kind: KindNodePool, BilledVia: BilledViaNodes, Hourly: "0 -> nil (max nil)", Overlap: "nil",
				Unpriced: nodesBilled("after"), GroupsA: 1,
				After: &sview{SKU: "no GPU instances", Name: "cpu", Scale: unknown, Labels: labels}},
		},
	})
}

// Which NodePools have GPUs and which certainly have none, as the GPU rules read them.
func TestKarpenterNodePoolGPUs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		reqs         []any
		gpu, knownNo bool
	}{
		"GPU families":              {[]any{req("karpenter.k8s.aws/instance-family", "In", "g5")}, true, false},
		"CPU families":              {[]any{req("karpenter.k8s.aws/instance-family", "In", "m5", "c6i")}, false, true},
		"an unknown family":         {[]any{req("karpenter.k8s.aws/instance-family", "In", "zz9")}, false, false},
		"no requirement on GPUs":    {[]any{req("kubernetes.io/arch", "In", "amd64")}, false, false},
		"a GPU count of zero":       {[]any{req("karpenter.k8s.aws/instance-gpu-count", "In", "0")}, false, true},
		"a GPU name":                {[]any{req("karpenter.k8s.aws/instance-gpu-name", "In", "a10g")}, true, false},
		"GPU families, GPUs banned": {[]any{req("karpenter.k8s.aws/instance-family", "In", "g5", "m5"), req("karpenter.k8s.aws/instance-gpu-count", "Lt", "1")}, false, true},
		"Inferentia category":       {[]any{req("karpenter.k8s.aws/instance-category", "In", "inf")}, true, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tplan{changes: []rc{{addr: "kubernetes_manifest.np", actions: []string{"create"}, after: nodePool("np", tc.reqs, nil)}}}, Options{})
			if len(rs) != 1 {
				t.Fatalf("got %d resources", len(rs))
			}
			s := rs[0].After
			knownNo := !s.HasGPU()
			for _, g := range s.Groups {
				knownNo = knownNo && g.SKU.Known
			}
			if s.HasGPU() != tc.gpu || knownNo != tc.knownNo {
				t.Errorf("HasGPU %v, known to have none %v; want %v, %v (SKU %q)", s.HasGPU(), knownNo, tc.gpu, tc.knownNo, s.SKU)
			}
		})
	}
}
