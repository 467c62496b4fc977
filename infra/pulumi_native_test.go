package infra

import (
	"encoding/json"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// pstep is one step of a test Pulumi preview (the digest of
// `pulumi preview --json`, pulumi/pulumi sdk/pkg/display/json.go).
type pstep struct {
	op, typ, name string
	old, new      map[string]any // the states' inputs; nil for none
}

// preview builds a preview of steps under the given stack config and
// parses it with planparse.
func preview(t *testing.T, config map[string]string, steps ...pstep) *planparse.Plan {
	t.Helper()
	urn := func(typ, name string) string { return "urn:pulumi:prod::ml::" + typ + "::" + name }
	var out []any
	for _, s := range steps {
		st := func(in map[string]any) map[string]any {
			return map[string]any{"urn": urn(s.typ, s.name), "custom": true, "type": s.typ, "inputs": in, "outputs": in,
				"parent": urn("pulumi:pulumi:Stack", "ml-prod")}
		}
		m := map[string]any{"op": s.op, "urn": urn(s.typ, s.name)}
		if s.old != nil {
			m["oldState"] = st(s.old)
		}
		if s.new != nil {
			m["newState"] = st(s.new)
		}
		out = append(out, m)
	}
	b, err := json.Marshal(map[string]any{"config": config, "steps": out})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("preview.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func resourceNamed(t *testing.T, rs []*Resource, addr string) *Resource {
	t.Helper()
	for _, r := range rs {
		if r.Address == addr {
			return r
		}
	}
	t.Fatalf("no resource %s among %d", addr, len(rs))
	return nil
}

func TestPulumiNativeAdapters(t *testing.T) {
	t.Parallel()
	const a100, d16 = "Standard_NC24ads_A100_v4", "Standard_D16s_v5"
	pool := func(size string) map[string]any {
		return map[string]any{"resourceGroupName": "ml", "resourceName": "ml-prod", "agentPoolName": "gpu", "vmSize": size, "count": 2,
			"enableAutoScaling": true, "minCount": 1, "maxCount": 4, "nodeTaints": []any{"sku=gpu:NoSchedule"},
			"nodeLabels": map[string]any{"hardware": "gpu"}}
	}
	cluster := map[string]any{"resourceName": "ml-prod", "location": "westeurope", "tags": map[string]any{"cost-center": "ml"},
		"agentPoolProfiles": []any{
			map[string]any{"name": "system", "vmSize": "Standard_D4s_v5", "count": 3, "mode": "System"},
			map[string]any{"name": "gpu", "vmSize": a100, "count": 2}}}
	azure := preview(t, map[string]string{"azure-native:location": "westeurope"},
		pstep{"same", "azure-native:containerservice:ManagedCluster", "cluster", cluster, cluster},
		pstep{"update", "azure-native:containerservice/v20240701:AgentPool", "gpu", pool(a100), pool(d16)},
		pstep{"create", "azure-native:compute:VirtualMachine", "trainer", nil, map[string]any{"vmName": "trainer", "location": "eastus",
			"hardwareProfile": map[string]any{"vmSize": a100}, "tags": map[string]any{"cost-center": "research"}}},
		pstep{"create", "azure-native:compute:VirtualMachineScaleSet", "batch", nil, map[string]any{"vmScaleSetName": "batch", "location": "eastus",
			"sku": map[string]any{"name": a100, "capacity": 2}}},
	)
	rs := Analyze(azure, DefaultCatalog(), Options{})
	if len(rs) != 4 {
		t.Fatalf("got %d resources, want the cluster, the pool, the VM and the scale set", len(rs))
	}
	cl := resourceNamed(t, rs, "azure-native:containerservice:ManagedCluster::cluster")
	if cl.Kind != KindNodePool || len(cl.After.Groups) != 1 || cl.After.SKU != "Standard_D4s_v5" || cl.After.Region != "westeurope" {
		t.Errorf("cluster: kind %s, %d groups (the gpu pool is its own resource), SKU %s in %s", cl.Kind, len(cl.After.Groups), cl.After.SKU, cl.After.Region)
	}
	gp := resourceNamed(t, rs, "azure-native:containerservice:AgentPool::gpu")
	if gp.Type != "azure-native:containerservice:AgentPool" || gp.Kind != KindNodePool || gp.Before.SKU != a100 || gp.After.SKU != d16 ||
		!gp.Before.HasGPU() || gp.After.HasGPU() || gp.After.Region != "westeurope" || gp.After.RegionSource != RegionFromParent ||
		gp.After.Name != "gpu" || len(gp.After.Taints) != 1 || gp.After.Labels()["hardware"] != "gpu" || gp.Before.GPUs(true) != 4 {
		t.Errorf("agent pool: %s %s %s -> %s in %s (%s), name %q, taints %v, labels %v, max GPUs before %v",
			gp.Type, gp.Kind, gp.Before.SKU, gp.After.SKU, gp.After.Region, gp.After.RegionSource, gp.After.Name, gp.After.Taints, gp.After.Labels(), gp.Before.GPUs(true))
	}
	vm := resourceNamed(t, rs, "azure-native:compute:VirtualMachine::trainer")
	if vm.Kind != KindVM || vm.After.SKU != a100 || vm.Cost.HourlyAfter == nil || vm.After.Tag("cost-center") != "research" || vm.After.Name != "trainer" {
		t.Errorf("VM: %s %s priced %s, tags %v, name %q", vm.Kind, vm.After.SKU, fmtPtr(vm.Cost.HourlyAfter), vm.After.Tags(), vm.After.Name)
	}
	ss := resourceNamed(t, rs, "azure-native:compute:VirtualMachineScaleSet::batch")
	if ss.Kind != KindScaleSet || ss.After.GPUs(false) != 2 || ss.Cost.HourlyAfter == nil || *ss.Cost.HourlyAfter != 2**vm.Cost.HourlyAfter {
		t.Errorf("scale set: %s, %v GPUs, hourly %s (want twice the VM's %s)", ss.Kind, ss.After.GPUs(false), fmtPtr(ss.Cost.HourlyAfter), fmtPtr(vm.Cost.HourlyAfter))
	}

	endpointConfig := func(typ string) map[string]any {
		return map[string]any{"endpointConfigName": "llm-v2", "productionVariants": []any{map[string]any{"variantName": "main",
			"instanceType": typ, "initialInstanceCount": 2}}, "tags": []any{map[string]any{"key": "cost-center", "value": "serving"}}}
	}
	aws := preview(t, map[string]string{"aws-native:region": "us-east-1"},
		pstep{"create", "aws-native:eks:Nodegroup", "gpu", nil, map[string]any{"clusterName": "ml", "nodegroupName": "gpu", "instanceTypes": []any{"g5.xlarge"},
			"scalingConfig": map[string]any{"minSize": 1, "desiredSize": 2, "maxSize": 6}, "amiType": "AL2_x86_64_GPU",
			"taints": []any{map[string]any{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}},
			"labels": map[string]any{"accelerator": "a10g"}, "tags": map[string]any{"cost-center": "ml"}}},
		pstep{"create", "aws-native:sagemaker:EndpointConfig", "llm-v2", nil, endpointConfig("ml.g5.2xlarge")},
		pstep{"update", "aws-native:sagemaker:Endpoint", "llm", map[string]any{"endpointName": "llm", "endpointConfigName": "llm-v1"},
			map[string]any{"endpointName": "llm", "endpointConfigName": "llm-v2"}},
		pstep{"create", "aws-native:ec2:Instance", "trainer", nil, map[string]any{"instanceType": "p4d.24xlarge",
			"tags": []any{map[string]any{"key": "Name", "value": "trainer"}, map[string]any{"key": "cost-center", "value": "research"}}}},
	)
	rs = Analyze(aws, DefaultCatalog(), Options{})
	ng := resourceNamed(t, rs, "aws-native:eks:Nodegroup::gpu")
	if ng.Kind != KindNodePool || ng.After.SKU != "g5.xlarge" || ng.After.Region != "us-east-1" || ng.After.RegionSource != RegionFromProvider ||
		ng.After.GPUs(true) != 6 || ng.After.ImageType != "AL2_x86_64_GPU" || len(ng.After.Taints) != 1 || ng.After.Taints[0] != "nvidia.com/gpu=true:NoSchedule" ||
		ng.After.Label("accelerator") != "a10g" || ng.After.Tag("cost-center") != "ml" || ng.Cost.HourlyAfter == nil {
		t.Errorf("node group: %s %s in %s (%s), max GPUs %v, image %s, taints %v, labels %v, tags %v, hourly %s", ng.Kind, ng.After.SKU,
			ng.After.Region, ng.After.RegionSource, ng.After.GPUs(true), ng.After.ImageType, ng.After.Taints, ng.After.Labels(), ng.After.Tags(), fmtPtr(ng.Cost.HourlyAfter))
	}
	cfg := resourceNamed(t, rs, "aws-native:sagemaker:EndpointConfig::llm-v2")
	if cfg.Kind != KindEndpointConfig || cfg.Cost.BilledVia == "" || cfg.After.Tag("cost-center") != "serving" || cfg.After.GPUs(false) != 2 {
		t.Errorf("endpoint config: %s billed via %q, tags %v, GPUs %v", cfg.Kind, cfg.Cost.BilledVia, cfg.After.Tags(), cfg.After.GPUs(false))
	}
	ep := resourceNamed(t, rs, "aws-native:sagemaker:Endpoint::llm")
	if ep.Kind != KindEndpoint || ep.After.Config != "llm-v2" || ep.After.SKU != "ml.g5.2xlarge" || ep.After.Groups[0].Hourly == nil || ep.After.Region != "us-east-1" {
		t.Errorf("endpoint: %s config %q SKU %q hourly %s in %s", ep.Kind, ep.After.Config, ep.After.SKU, fmtPtr(ep.After.Groups[0].Hourly), ep.After.Region)
	}
	if len(ep.Before.Groups) != 1 || ep.Before.Groups[0].Unpriced == "" {
		t.Errorf("endpoint before: its configuration llm-v1 is not in the preview, so it is unpriced: %+v", ep.Before.Groups)
	}
	in := resourceNamed(t, rs, "aws-native:ec2:Instance::trainer")
	if in.Kind != KindVM || in.After.Name != "trainer" || in.After.GPUs(false) != 8 || in.After.Tag("cost-center") != "research" {
		t.Errorf("instance: %s %q GPUs %v tags %v", in.Kind, in.After.Name, in.After.GPUs(false), in.After.Tags())
	}

	gcp := preview(t, nil, pstep{"create", "google-native:container/v1:NodePool", "gpu", nil, map[string]any{"name": "gpu", "location": "us-central1-a",
		"initialNodeCount": 1, "autoscaling": map[string]any{"enabled": true, "minNodeCount": 0, "maxNodeCount": 3},
		"config": map[string]any{"machineType": "n1-standard-8", "accelerators": []any{map[string]any{"acceleratorType": "nvidia-tesla-t4", "acceleratorCount": "1"}},
			"labels": map[string]any{"cost-center": "ml"}}}})
	rs = Analyze(gcp, DefaultCatalog(), Options{})
	if len(rs) != 1 {
		t.Fatalf("GKE node pool: got %d resources", len(rs))
	}
	if rs[0].Kind != KindNodePool || rs[0].After.GPUs(true) != 3 || rs[0].After.Region != "us-central1" || rs[0].After.Label("cost-center") != "ml" {
		t.Errorf("GKE node pool: %+v", view(rs[0]))
	}
}
