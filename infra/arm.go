package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Azure Resource Manager types, as an ARM what-if result (Bicep, ARM
// templates) names them: payloads are the resource's REST shape, with
// its settings under properties. ARM type names are case-insensitive.
var armAdapters = map[string]adapter{
	"Microsoft.Compute/virtualMachines":                     {KindVM, armVM, false},
	"Microsoft.Compute/virtualMachineScaleSets":             {KindScaleSet, armVMSS, false},
	"Microsoft.ContainerService/managedClusters":            {KindNodePool, armManagedCluster, false},
	"Microsoft.ContainerService/managedClusters/agentPools": {KindNodePool, armAgentPool, false},
	"Microsoft.MachineLearningServices/workspaces/computes": {KindComputeCluster, armAMLCompute, false},
}

// armAdaptersFold finds an ARM adapter whatever the type's case.
var armAdaptersFold = map[string]adapter{}

func init() {
	for t, ad := range armAdapters {
		adapters[t] = ad
		armAdaptersFold[strings.ToLower(t)] = ad
	}
}

// adapterFor returns the adapter of a resource type: Terraform types
// exactly, ARM types in any case.
func adapterFor(typ string) (adapter, bool) {
	if ad, ok := adapters[typ]; ok {
		return ad, true
	}
	if strings.IndexByte(typ, '/') < 0 {
		return adapter{}, false // every ARM type has a namespace/type
	}
	ad, ok := armAdaptersFold[strings.ToLower(typ)]
	return ad, ok
}

// armSide is what every ARM resource has: name, location and tags.
func armSide(a *analysis, v planparse.Value, g Group) Side {
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: armName(v), src: v, tagsFrom: fromTags}
	if s.Region = location(v, "location"); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// armName is the resource's own name; a child's template name
// ("ml-prod/gpu") is cut to its last part.
func armName(v planparse.Value) string {
	n := strAt(v, "name")
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

func armVM(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	p := v.Get("properties")
	g := a.group(CloudAzure, p, "hardwareProfile", "vmSize")
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	g.Windows = strings.EqualFold(strAt(p, "storageProfile", "osDisk", "osType"), "windows") ||
		!p.Get("osProfile", "windowsConfiguration").IsNull()
	g.Spot = strings.EqualFold(strAt(p, "priority"), "spot")
	return armSide(a, v, g)
}

func armVMSS(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	p := v.Get("properties", "virtualMachineProfile")
	g := a.group(CloudAzure, v, "sku", "name")
	g.Scale = fixedScale(intAt(v, "sku", "capacity"), 0)
	g.Windows = strings.EqualFold(strAt(p, "storageProfile", "osDisk", "osType"), "windows") ||
		!p.Get("osProfile", "windowsConfiguration").IsNull()
	g.Spot = strings.EqualFold(strAt(p, "priority"), "spot")
	return armSide(a, v, g)
}

// armPool reads one AKS agent pool profile: an inline
// agentPoolProfiles[] entry or an agentPools resource's properties.
func armPool(a *analysis, pool planparse.Value, name string) (Side, Group) {
	g := a.group(CloudAzure, pool, "vmSize")
	g.Name = name
	n := intAt(pool, "count")
	if boolAt(pool, "enableAutoScaling") {
		g.Scale = rangeScale(intAt(pool, "minCount"), n, intAt(pool, "maxCount"))
	} else if !n.known && !n.unknown {
		g.Scale = Scale{Unknown: true}
	} else {
		g.Scale = fixedScale(n, 1)
	}
	g.Spot = strings.EqualFold(strAt(pool, "scaleSetPriority"), "spot")
	g.Windows = strings.EqualFold(strAt(pool, "osType"), "windows")
	s := Side{SKU: g.SKU.Name, Name: name, Taints: stringList(pool, "nodeTaints")}
	s.setCustom(false, mapAt(pool, "nodeLabels"))
	s.setCustom(true, mapAt(pool, "tags"))
	return s, g
}

// armManagedCluster prices every inline agent pool. One pool is the
// side's own (its SKU, name, labels and taints, as the rules judge a pool):
// the first that has a GPU SKU or declares GPU intent on either side of the
// change, else the first pool, which ARM requires to be a system pool. GPU
// pools declared as agentPools resources are judged on their own.
func armManagedCluster(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	pools := a.inlinePools(c, v.Get("properties", "agentPoolProfiles").List())
	if len(pools) == 0 {
		return armSide(a, v, Group{SKU: SKU{Cloud: CloudAzure}, Scale: Scale{Unknown: true},
			Unpriced: "the cluster lists no agentPoolProfiles, so its pools cannot be priced"})
	}
	main := 0
	if name := a.gpuPoolName(c); name != "" {
		for i, p := range pools {
			if strAt(p, "name") == name {
				main = i
			}
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

// inlinePools leaves out of a cluster's agentPoolProfiles the pools the
// what-if also lists as agentPools resources of the cluster: ARM returns
// every pool in the cluster's payload, and the pool's own entry prices it
// (counted once, not twice). When that leaves none, all are kept.
func (a *analysis) inlinePools(c *planparse.Change, pools []planparse.Value) []planparse.Value {
	if a.armPools == nil {
		a.armPools = map[string]bool{}
		for _, o := range a.p.Changes {
			if i := strings.LastIndex(strings.ToLower(o.Address), "/agentpools/"); i >= 0 && o.Deposed == "" {
				a.armPools[strings.ToLower(o.Address)] = true
			}
		}
	}
	if len(a.armPools) == 0 {
		return pools
	}
	prefix := strings.ToLower(c.Address) + "/agentpools/"
	var own []planparse.Value
	for _, p := range pools {
		if !a.armPools[prefix+strings.ToLower(strAt(p, "name"))] {
			own = append(own, p)
		}
	}
	if len(own) == 0 {
		return pools
	}
	return own
}

// gpuPoolName is the name of the first inline pool of a managed cluster
// change that has a GPU SKU or says it is for GPUs (name, labels, taints),
// looking at the after side first, then the before side; "" when none.
func (a *analysis) gpuPoolName(c *planparse.Change) string {
	// Both sides of a change ask in turn.
	if c != a.poolOf {
		a.poolOf, a.poolWas = c, a.findGPUPool(c)
	}
	return a.poolWas
}

func (a *analysis) findGPUPool(c *planparse.Change) string {
	for _, v := range []planparse.Value{c.After(), c.Before()} {
		for _, p := range v.Get("properties", "agentPoolProfiles").List() {
			if a.lookup(CloudAzure, strAt(p, "vmSize")).HasGPU() || saysGPU(strAt(p, "name")) {
				return strAt(p, "name")
			}
			for k, x := range stringMap(p, "nodeLabels") {
				if saysGPU(k) || saysGPU(x) {
					return strAt(p, "name")
				}
			}
			for _, t := range stringList(p, "nodeTaints") {
				if saysGPU(t) {
					return strAt(p, "name")
				}
			}
		}
	}
	return ""
}

func saysGPU(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "gpu") || strings.Contains(s, "nvidia")
}

// armAgentPool takes its region from its cluster when the what-if has it
// (an agentPools resource has no location of its own).
func armAgentPool(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	s, g := armPool(a, v.Get("properties"), armName(v))
	if s.Name == "" {
		s.Name = c.Name
	}
	s.Groups = a.one(g)
	if i := strings.LastIndex(strings.ToLower(c.Address), "/agentpools/"); i >= 0 {
		if cl := a.change(c.Address[:i]); cl != nil {
			if s.Region = location(pick(cl, w), "location"); s.Region != "" {
				s.RegionSource = RegionFromParent
			}
		}
	}
	return s
}

// armAMLCompute is an Azure ML compute: an AmlCompute cluster scales
// between scaleSettings' minNodeCount and maxNodeCount; any other compute
// type with a vmSize (ComputeInstance) is one node.
func armAMLCompute(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	p := v.Get("properties", "properties")
	g := a.group(CloudAzure, p, "vmSize")
	if strings.EqualFold(strAt(v, "properties", "computeType"), "AmlCompute") {
		ss := p.Get("scaleSettings")
		lo, hi := intAt(ss, "minNodeCount"), intAt(ss, "maxNodeCount")
		if !lo.known && !lo.unknown {
			lo = count{known: true}
		}
		g.Scale = rangeScale(lo, count{}, hi)
		g.Scale.Autoscaled = g.Scale.Max > g.Scale.Min
	} else {
		g.Scale = fixedScale(count{n: 1, known: true}, 1)
	}
	g.Spot = strings.EqualFold(strAt(p, "vmPriority"), "lowpriority")
	return armSide(a, v, g)
}
