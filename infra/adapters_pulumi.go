package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Pulumi's native providers, as a Pulumi preview names their types
// (planparse reads a versioned module, azure-native:compute/v20240701,
// as the unversioned one). azure-native resources are ARM resources with
// their properties flattened to the top; aws-native resources are
// CloudFormation's, in camelCase. The classic providers' types are read
// as the Terraform types they bridge (planparse), through the adapters of
// adapters.go.
var pulumiAdapters = map[string]adapter{
	"azure-native:compute:VirtualMachine":          {KindVM, nativeVM, true},
	"azure-native:compute:VirtualMachineScaleSet":  {KindScaleSet, nativeVMSS, true},
	"azure-native:containerservice:ManagedCluster": {KindNodePool, nativeManagedCluster, false},
	"azure-native:containerservice:AgentPool":      {KindNodePool, nativeAgentPool, false},
	"aws-native:eks:Nodegroup":                     {KindNodePool, nativeNodegroup, true},
	"aws-native:ec2:Instance":                      {KindVM, nativeInstance, true},
	"aws-native:sagemaker:EndpointConfig":          {KindEndpointConfig, nativeEndpointConfig, true},
	"aws-native:sagemaker:Endpoint":                {KindEndpoint, nativeEndpoint, false},
	"google-native:container:NodePool":             {KindNodePool, nativeGKENodePool, true},
}

func init() {
	for t, ad := range pulumiAdapters {
		adapters[t] = ad
	}
}

// --- azure-native ---

// nativeSide is what every azure-native resource has: name, location, tags.
func nativeSide(a *analysis, v planparse.Value, g Group, nameAttrs ...string) Side {
	s := armSide(a, v, g)
	for _, k := range nameAttrs {
		if n := strAt(v, k); n != "" {
			s.Name = n
			break
		}
	}
	return s
}

func nativeVM(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	g := a.group(CloudAzure, v, "hardwareProfile", "vmSize")
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	g.Windows = strings.EqualFold(strAt(v, "storageProfile", "osDisk", "osType"), "windows") ||
		!v.Get("osProfile", "windowsConfiguration").IsNull()
	g.Spot = strings.EqualFold(strAt(v, "priority"), "spot")
	return nativeSide(a, v, g, "vmName")
}

func nativeVMSS(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	p := v.Get("virtualMachineProfile")
	g := a.group(CloudAzure, v, "sku", "name")
	g.Scale = fixedScale(intAt(v, "sku", "capacity"), 0)
	g.Windows = strings.EqualFold(strAt(p, "storageProfile", "osDisk", "osType"), "windows") ||
		!p.Get("osProfile", "windowsConfiguration").IsNull()
	g.Spot = strings.EqualFold(strAt(p, "priority"), "spot")
	return nativeSide(a, v, g, "vmScaleSetName")
}

// nativeClusterType and nativePoolType are the azure-native AKS types.
const (
	nativeClusterType = "azure-native:containerservice:ManagedCluster"
	nativePoolType    = "azure-native:containerservice:AgentPool"
)

// nativeManagedCluster prices the inline agentPoolProfiles the preview
// does not also list as AgentPool resources of the cluster. Its own pool
// (SKU, name, labels, taints) is the first with a GPU SKU or GPU words,
// else the first, as for an ARM cluster.
func nativeManagedCluster(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	cluster := orString(strAt(v, "resourceName"), strAt(v, "name"))
	var pools []planparse.Value
	for _, p := range v.Get("agentPoolProfiles").List() {
		if !a.nativePoolListed(cluster, strAt(p, "name")) {
			pools = append(pools, p)
		}
	}
	if len(pools) == 0 {
		return nativeSide(a, v, Group{SKU: SKU{Cloud: CloudAzure}, Scale: Scale{Unknown: true},
			Unpriced: "the cluster lists no agentPoolProfiles of its own, so its pools cannot be priced"}, "resourceName")
	}
	main := 0
	for i, p := range pools {
		if a.lookup(CloudAzure, strAt(p, "vmSize")).HasGPU() || saysGPU(strAt(p, "name")) {
			main = i
			break
		}
	}
	s, g := armPool(a, pools[main], strAt(pools[main], "name"))
	s.Groups = a.one(g)
	for i, p := range pools {
		if i != main {
			_, pg := armPool(a, p, strAt(p, "name"))
			s.Groups = append(s.Groups, pg)
		}
	}
	poolTags := s.custom.tags
	s.setCustom(true, func() map[string]string { return mergeMaps(stringMap(v, "tags"), poolTags()) })
	if s.Region = location(v, "location"); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// nativePoolListed reports whether the preview lists an AgentPool
// resource named pool in the cluster named cluster.
func (a *analysis) nativePoolListed(cluster, pool string) bool {
	if cluster == "" || pool == "" {
		return false
	}
	for _, o := range a.changesOfType(nativePoolType) {
		for _, x := range []planparse.Value{o.After(), o.Before()} {
			if strings.EqualFold(strAt(x, "resourceName"), cluster) && strings.EqualFold(orString(strAt(x, "agentPoolName"), strAt(x, "name")), pool) {
				return true
			}
		}
	}
	return false
}

// nativeAgentPool takes its region from its cluster (resourceName).
func nativeAgentPool(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	name := orString(strAt(v, "agentPoolName"), strAt(v, "name"), c.Name)
	s, g := armPool(a, v, name)
	s.Groups = a.one(g)
	if cluster := strAt(v, "resourceName"); cluster != "" {
		for _, field := range []string{"resourceName", "name"} {
			if cl, ok := a.relatedByValue(w, nativeClusterType, field, cluster); ok {
				if s.Region = location(cl, "location"); s.Region != "" {
					s.RegionSource = RegionFromParent
					break
				}
			}
		}
	}
	return s
}

// --- aws-native ---

// nativeAWSSide reads an aws-native resource's region from its ARN (the
// provider's region otherwise, as Analyze gives every side) and its tags,
// a list of {key, value} or a map.
func nativeAWSSide(v planparse.Value, g Group, arnAttrs ...string) Side {
	s := Side{SKU: g.SKU.Name, src: v}
	for _, k := range append(arnAttrs, "arn") {
		if arn := strAt(v, k); strings.HasPrefix(arn, "arn:") {
			if parts := strings.SplitN(arn, ":", 5); len(parts) == 5 && parts[3] != "" {
				s.Region, s.RegionSource = NormalizeRegion(parts[3]), RegionFromResource
				break
			}
		}
	}
	s.setCustom(true, func() map[string]string { return nativeTags(v.Get("tags")) })
	return s
}

// nativeTags reads CloudFormation tags: [{key, value}] or a map.
func nativeTags(t planparse.Value) map[string]string {
	if t.IsMap() {
		return t.StringMap()
	}
	var out map[string]string
	for _, e := range t.List() {
		k := strAt(e, "key")
		if k == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = strAt(e, "value")
	}
	return out
}

func nativeNodegroup(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var g Group
	types := v.Get("instanceTypes")
	switch {
	case types.Len() > 0:
		g = a.group(CloudAWS, types, 0)
	case types.IsUnknown():
		g = Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "SKU known only after apply"}
	case v.Get("launchTemplate").IsMap():
		g = Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "instance type set by a launch template planwarden does not read for aws-native node groups"}
	default:
		g = Group{SKU: a.lookup(CloudAWS, "t3.medium")} // EKS's default
	}
	sc := v.Get("scalingConfig")
	g.Scale = rangeScale(intAt(sc, "minSize"), intAt(sc, "desiredSize"), intAt(sc, "maxSize"))
	g.Scale.Autoscaled = g.Scale.Max > g.Scale.Min
	g.Spot = strings.EqualFold(strAt(v, "capacityType"), "spot")
	s := nativeAWSSide(v, g, "nodegroupArn")
	s.Groups = a.one(g)
	s.Name = orString(strAt(v, "nodegroupName"), c.Name)
	s.ImageType = strAt(v, "amiType")
	s.Taints = taintBlocks(v, "taints")
	s.setCustom(false, mapAt(v, "labels"))
	return s
}

func nativeInstance(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	g := a.group(CloudAWS, v, "instanceType")
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	s := nativeAWSSide(v, g)
	s.Groups = a.one(g)
	if az := strAt(v, "availabilityZone"); len(az) > 1 && s.Region == "" {
		s.Region, s.RegionSource = NormalizeRegion(az[:len(az)-1]), RegionFromResource
	}
	s.Name = nativeTags(v.Get("tags"))["Name"]
	return s
}

// nativeEndpointConfig prices each production and shadow variant.
func nativeEndpointConfig(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	name := strAt(v, "endpointConfigName")
	s := nativeAWSSide(v, Group{}, "endpointConfigArn")
	s.Name, s.Config = name, name
	for _, list := range []struct {
		attr   string
		shadow bool
	}{{"productionVariants", false}, {"shadowProductionVariants", true}} {
		for _, pv := range v.Get(list.attr).List() {
			g := a.group(CloudSageMaker, pv, "instanceType")
			g.Name, g.Shadow = strAt(pv, "variantName"), list.shadow
			if pv.Get("serverlessConfig").IsMap() {
				g.Serverless = true
				g.Scale = Scale{}
			} else {
				n := intAt(pv, "initialInstanceCount")
				g.Scale = fixedScale(n, 1)
				if mis := pv.Get("managedInstanceScaling"); strings.EqualFold(strAt(mis, "status"), "enabled") {
					g.Scale = rangeScale(intAt(mis, "minInstanceCount"), n, intAt(mis, "maxInstanceCount"))
				}
			}
			if s.SKU == "" && !list.shadow {
				s.SKU = g.SKU.Name
			}
			if s.Groups == nil {
				s.Groups = a.one(g)
			} else {
				s.Groups = append(s.Groups, g)
			}
		}
	}
	if len(s.Groups) == 0 {
		s.Groups = a.one(Group{SKU: SKU{Cloud: CloudSageMaker}, Unpriced: "no production variants in the plan"})
	}
	return s
}

// nativeEndpoint is priced through the endpoint configuration it names.
func nativeEndpoint(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	name, unknown := skuAt(v, "endpointConfigName")
	var s Side
	if cfg, ok := a.relatedByValue(w, "aws-native:sagemaker:EndpointConfig", "endpointConfigName", name); ok && name != "" {
		s = nativeEndpointConfig(a, c, cfg, w)
	} else {
		reason := "endpoint configuration " + name + " not found in the plan"
		if unknown {
			reason = "endpoint configuration known only after apply"
		}
		s = Side{Config: name, Groups: a.one(Group{SKU: SKU{Cloud: CloudSageMaker}, Unpriced: reason})}
	}
	own := nativeAWSSide(v, Group{}, "endpointArn")
	s.Config = orString(s.Config, name)
	s.Name, s.src, s.custom, s.tagsFrom = strAt(v, "endpointName"), v, own.custom, own.tagsFrom
	if own.Region != "" {
		s.Region, s.RegionSource = own.Region, own.RegionSource
	}
	return s
}

// --- google-native ---

func nativeGKENodePool(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	cfg := v.Get("config")
	g := a.group(CloudGCP, cfg, "machineType")
	var attached []Attached
	for _, acc := range cfg.Get("accelerators").List() {
		typ := gcpAcceleratorName(strAt(acc, "acceleratorType"))
		n, _ := acc.Get("acceleratorCount").Int()
		if typ == "" || n <= 0 {
			continue
		}
		model, _, _ := GCPAccelerator(typ)
		if g.SKU.HasGPU() && model == g.SKU.GPUModel {
			continue
		}
		attached = append(attached, Attached{Type: typ, Count: int(n), GPUModel: model})
	}
	g.Attached = attached
	n := intAt(v, "initialNodeCount")
	if as := v.Get("autoscaling"); boolAt(as, "enabled") {
		g.Scale = rangeScale(intAt(as, "minNodeCount"), n, intAt(as, "maxNodeCount"))
		g.Scale.Autoscaled = true
	} else {
		g.Scale = fixedScale(n, 1)
	}
	g.Spot = boolAt(cfg, "preemptible") || boolAt(cfg, "spot")
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: strAt(v, "name"), src: cfg, tagsFrom: fromLabels, ImageType: strAt(cfg, "imageType")}
	s.setCustom(false, mapAt(cfg, "labels"))
	s.Taints = taintBlocks(cfg, "taints")
	if reg := zoneRegion(orString(strAt(v, "location"), strAt(v, "zone"))); reg != "" {
		s.Region, s.RegionSource = NormalizeRegion(reg), RegionFromResource
	}
	return s
}

// orString is the first non-empty string.
func orString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
