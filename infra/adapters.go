package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// adapter knows where one resource type keeps its SKU, counts, region and tags.
type adapter struct {
	kind Kind
	side func(a *analysis, c *planparse.Change, v planparse.Value, w when) Side
	// own says a side is made from its own value (and the provider's
	// region) alone, not from other resources looked up on its side of
	// the change: equal values make equal sides (see analysis.resource).
	own bool
}

// adapters is the registry of supported resource types.
var adapters = map[string]adapter{
	"azurerm_kubernetes_cluster":                {KindNodePool, aksCluster, false},
	"azurerm_kubernetes_cluster_node_pool":      {KindNodePool, aksNodePool, false},
	"azurerm_linux_virtual_machine":             {KindVM, azureVM("size", false), true},
	"azurerm_windows_virtual_machine":           {KindVM, azureVM("size", true), true},
	"azurerm_virtual_machine":                   {KindVM, azureLegacyVM, true},
	"azurerm_linux_virtual_machine_scale_set":   {KindScaleSet, azureVMSS(false), true},
	"azurerm_windows_virtual_machine_scale_set": {KindScaleSet, azureVMSS(true), true},
	"azurerm_machine_learning_compute_cluster":  {KindComputeCluster, amlCluster, true},
	"aws_instance":                              {KindVM, awsInstance, true},
	"aws_eks_node_group":                        {KindNodePool, eksNodeGroup, false},
	"aws_autoscaling_group":                     {KindScaleSet, awsASG, false},
	"aws_sagemaker_endpoint_configuration":      {KindEndpointConfig, sagemakerConfig, false},
	"aws_sagemaker_endpoint":                    {KindEndpoint, sagemakerEndpoint, false},
	"aws_sagemaker_notebook_instance":           {KindNotebook, sagemakerNotebook, true},
	"google_compute_instance":                   {KindVM, gceInstance, true},
	"google_container_node_pool":                {KindNodePool, gkeNodePool, false},
}

// --- Azure ---

// aksPoolKeys are the attributes aksPool reads (a node pool's, or a
// cluster's default_node_pool's).
var aksPoolKeys = keys([]string{"vm_size", "enable_auto_scaling", "auto_scaling_enabled", "node_count", "min_count", "max_count",
	"priority", "os_type", "name", "node_taints", "only_critical_addons_enabled", "kubernetes_cluster_id",
	"os_disk_type", "os_disk_size_gb"})

func aksScale(pool *record) Scale {
	auto := boolAt(pool.at("enable_auto_scaling")) || boolAt(pool.at("auto_scaling_enabled"))
	n := intAt(pool.at("node_count"))
	if auto {
		return rangeScale(intAt(pool.at("min_count")), n, intAt(pool.at("max_count")))
	}
	if !n.known && !n.unknown {
		return Scale{Unknown: true}
	}
	return fixedScale(n, 1)
}

func aksPool(a *analysis, pool *record) (Side, Group) {
	g := a.group(CloudAzure, pool.at("vm_size"))
	g.Scale = aksScale(pool)
	g.Spot = strings.EqualFold(strAt(pool.at("priority")), "spot")
	g.Windows = strings.EqualFold(strAt(pool.at("os_type")), "windows")
	s := Side{SKU: g.SKU.Name, Name: strAt(pool.at("name")), Taints: stringList(pool.at("node_taints")), Disks: aksOSDisk(pool, g.SKU.Name)}
	if boolAt(pool.at("only_critical_addons_enabled")) {
		s.Taints = append(s.Taints, "CriticalAddonsOnly=true:NoSchedule")
	}
	return s, g
}

// aksCluster is the cluster's default_node_pool.
func aksCluster(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var pool record
	pool.read(v.Get("default_node_pool", 0), aksPoolKeys)
	s, g := aksPool(a, &pool)
	s.Groups = a.one(g)
	s.src, s.tagsFrom, s.labelsFrom = v, fromAKSClusterTags, fromAKSClusterLabels
	if s.Region = location(v, "location"); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// aksNodePool takes its region from the parent cluster, found through
// kubernetes_cluster_id.
func aksNodePool(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var pool record
	pool.read(v, aksPoolKeys)
	s, g := aksPool(a, &pool)
	s.Groups = a.one(g)
	s.src, s.tagsFrom, s.labelsFrom = v, fromTags, fromNodeLabels
	id, _ := pool.at("kubernetes_cluster_id").Str()
	if s.Region = a.clusterLocation(c, w, id); s.Region != "" {
		s.RegionSource = RegionFromParent
	}
	return s
}

// clusterLocation is the location of a node pool's parent AKS cluster,
// found through kubernetes_cluster_id; "" when not found. A cluster found
// by its id has its location read once per side, not once per pool.
func (a *analysis) clusterLocation(c *planparse.Change, w when, id string) string {
	const typ = "azurerm_kubernetes_cluster"
	if id != "" {
		k := relKey{w, typ, "id", id}
		if reg, ok := a.locations[k]; ok {
			return reg
		}
		if cl, ok := a.relatedByValue(w, typ, "id", id); ok {
			reg := location(cl, "location")
			if a.locations == nil {
				a.locations = map[relKey]string{}
			}
			a.locations[k] = reg
			return reg
		}
	}
	if cl, ok := a.related(c, w, typ, "", "", "kubernetes_cluster_id"); ok {
		return location(cl, "location")
	}
	return ""
}

// azureSideKeys are the attributes azureSide reads.
var azureSideKeys = keys([]string{"name", "location"})

func azureVM(sizeAttr string, windows bool) func(*analysis, *planparse.Change, planparse.Value, when) Side {
	vmKeys := keys([]string{sizeAttr, "priority"}, azureSideKeys)
	return func(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
		var r record
		r.read(v, vmKeys)
		g := a.group(CloudAzure, r.at(sizeAttr))
		g.Scale = fixedScale(count{n: 1, known: true}, 1)
		g.Windows = windows
		g.Spot = strings.EqualFold(strAt(r.at("priority")), "spot")
		s := azureSide(a, &r, g)
		s.Disks = azureVMDisks(v)
		return s
	}
}

// azureSide is the side of an Azure resource r read (azureSideKeys among its keys).
func azureSide(a *analysis, r *record, g Group) Side {
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: strAt(r.at("name")), src: r.v, tagsFrom: fromTags}
	if s.Region = NormalizeRegion(strAt(r.at("location"))); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// azureLegacyVM is azurerm_virtual_machine: Windows when it has an
// os_profile_windows_config block or a Windows OS disk.
var legacyVMKeys = keys([]string{"vm_size", "os_profile_windows_config", "storage_os_disk"}, azureSideKeys)

func azureLegacyVM(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, legacyVMKeys)
	g := a.group(CloudAzure, r.at("vm_size"))
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	g.Windows = r.at("os_profile_windows_config").Len() > 0 ||
		strings.EqualFold(strAt(r.at("storage_os_disk"), 0, "os_type"), "windows")
	return azureSide(a, &r, g)
}

var vmssKeys = keys([]string{"sku", "instances", "priority"}, azureSideKeys)

func azureVMSS(windows bool) func(*analysis, *planparse.Change, planparse.Value, when) Side {
	return func(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
		var r record
		r.read(v, vmssKeys)
		g := a.group(CloudAzure, r.at("sku"))
		g.Scale = fixedScale(intAt(r.at("instances")), 0)
		g.Windows = windows
		g.Spot = strings.EqualFold(strAt(r.at("priority")), "spot")
		s := azureSide(a, &r, g)
		s.Disks = azureVMDisks(v)
		return s
	}
}

// amlCluster is an Azure ML compute cluster: it idles at min_node_count
// and scales to max_node_count under load.
var amlKeys = keys([]string{"vm_size", "scale_settings", "vm_priority"}, azureSideKeys)

func amlCluster(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, amlKeys)
	g := a.group(CloudAzure, r.at("vm_size"))
	ss := r.at("scale_settings").Get(0)
	lo, hi := intAt(ss, "min_node_count"), intAt(ss, "max_node_count")
	if !lo.known && !lo.unknown {
		lo = count{known: true}
	}
	g.Scale = rangeScale(lo, count{}, hi)
	g.Scale.Autoscaled = g.Scale.Max > g.Scale.Min
	g.Spot = strings.EqualFold(strAt(r.at("vm_priority")), "lowpriority")
	return azureSide(a, &r, g)
}

// --- AWS ---

// awsTagValue is the tags an AWS resource reads: tags_all (provider
// default_tags included) when known, else tags.
func awsTagValue(v planparse.Value) planparse.Value {
	if t := v.Get("tags_all"); t.IsMap() {
		return t
	}
	return v.Get("tags")
}

// awsTagName is the "Name" of an AWS resource's tags, read without
// decoding the other tags: "" when there is none, "null" for a null one
// (as the map shows it). from is where the tags are (fromAWSTags decided).
func awsTagName(r *record) (name string, from mapFrom) {
	from = fromTags
	t := r.at("tags_all")
	if t.IsMap() {
		from = fromTagsAll
	} else {
		t = r.at("tags")
	}
	if x, has := t.Lookup("Name"); has {
		return x.Display(), from
	}
	return "", from
}

// awsTagKeys are the attributes awsTagsFrom reads (tags itself is read
// when a rule asks for a tag: a walk's lazy value of it is an allocation).
var awsTagKeys = []string{"tags_all"}

// awsTagsFrom is where an AWS resource r read (awsTagKeys among its keys)
// has its tags: fromAWSTags decided once, not at every read of a tag.
func awsTagsFrom(r *record) mapFrom {
	if r.at("tags_all").IsMap() {
		return fromTagsAll
	}
	return fromTags
}

// awsSide is the side of an AWS resource r read (awsRegionKeys and
// awsTagKeys among its keys).
func awsSide(a *analysis, r *record, g Group) Side {
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), src: r.v, tagsFrom: awsTagsFrom(r)}
	if s.Region = awsRegion(r); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// awsRegion reads the region an AWS resource names itself: the region
// argument (AWS provider v6), else its availability zone(s), else its ARN
// (arn:aws:ec2:us-east-1:...). Providers configured from a variable leave
// the provider block without a constant region, so this often decides.
func awsRegion(v *record) string {
	if r := NormalizeRegion(strAt(v.at("region"))); r != "" {
		return r
	}
	az := strAt(v.at("availability_zone"))
	if az == "" {
		az = strAt(v.at("availability_zones"), 0)
	}
	if n := len(az); n > 1 && az[n-1] >= 'a' && az[n-1] <= 'z' && az[n-2] >= '0' && az[n-2] <= '9' {
		return NormalizeRegion(az[:n-1])
	}
	if arn := strAt(v.at("arn")); strings.HasPrefix(arn, "arn:") {
		if parts := strings.SplitN(arn, ":", 5); len(parts) == 5 && parts[3] != "" {
			return NormalizeRegion(parts[3])
		}
	}
	return ""
}

// awsRegionKeys are the attributes awsRegion reads.
var awsRegionKeys = keys([]string{"region", "availability_zone", "availability_zones", "arn"})

var awsInstanceKeys = keys([]string{"instance_type", "instance_market_options", "tags"}, awsTagKeys, awsRegionKeys)

func awsInstance(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, awsInstanceKeys)
	g := a.group(CloudAWS, r.at("instance_type"))
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	g.Spot = strings.EqualFold(strAt(r.at("instance_market_options"), 0, "market_type"), "spot")
	markCapacity(&g, r.at("instance_market_options"), v.Get("capacity_reservation_specification", 0))
	s := awsSide(a, &r, g)
	s.Name, s.tagsFrom = awsTagName(&r)
	s.Disks = awsInstanceDisks(v)
	return s
}

var eksKeys = keys([]string{"instance_types", "launch_template", "scaling_config", "capacity_type", "node_group_name", "ami_type", "taint", "disk_size"}, awsTagKeys, awsRegionKeys)

func eksNodeGroup(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, eksKeys)
	var g Group
	types := r.at("instance_types")
	switch {
	case types.Len() > 0:
		g = a.group(CloudAWS, types, 0)
	case types.IsUnknown():
		g = Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "SKU known only after apply", SKUUnknown: true}
	default:
		if lt := r.at("launch_template"); lt.Len() > 0 {
			g = a.launchTemplateGroup(c, lt.Get(0), w, "id", "name", "launch_template")
		} else {
			// EKS launches t3.medium when neither instance_types nor a launch template says.
			g = Group{SKU: a.lookup(CloudAWS, "t3.medium")}
		}
	}
	sc := r.at("scaling_config").Get(0)
	lo, exp, hi := intAt(sc, "min_size"), intAt(sc, "desired_size"), intAt(sc, "max_size")
	g.Scale = rangeScale(lo, exp, hi)
	g.Scale.Autoscaled = g.Scale.Max > g.Scale.Min
	g.Spot = strings.EqualFold(strAt(r.at("capacity_type")), "spot")
	// A Windows AMI (WINDOWS_CORE_2022_x86_64...) bills a licence the
	// catalog's Linux prices do not hold.
	g.Windows = strings.HasPrefix(strings.ToUpper(strAt(r.at("ami_type"))), "WINDOWS")
	s := awsSide(a, &r, g)
	s.Name = strAt(r.at("node_group_name"))
	s.ImageType = strAt(r.at("ami_type"))
	s.labelsFrom = fromLabels
	s.Taints = taintBlocks(r.at("taint"))
	if lt := r.at("launch_template"); lt.Len() == 0 {
		s.Disks = eksNodeDisk(r.at("disk_size"), s.ImageType)
	} else {
		s.Disks = a.launchTemplateDisks(c, lt.Get(0), w, "id", "name", "launch_template")
	}
	return s
}

// launchTemplateGroup reads the instance type of the launch template a
// resource's block lt points at (EKS and ASG launch_template: id/name; a
// mixed instances policy's specification: launch_template_id/_name); path
// is where the block is in the resource, for its configuration references.
func (a *analysis) launchTemplateGroup(c *planparse.Change, lt planparse.Value, w when, idAttr, nameAttr string, path ...string) Group {
	if id := strAt(lt, idAttr); id != "" {
		if g, ok := a.templateGroup(w, "id", id); ok {
			return g
		}
	}
	if name := strAt(lt, nameAttr); name != "" {
		if g, ok := a.templateGroup(w, "name", name); ok {
			return g
		}
	}
	for _, attr := range []string{idAttr, nameAttr} {
		expr := append(append([]string(nil), path...), attr)
		if tmpl, ok := a.related(c, w, "aws_launch_template", "", "", expr...); ok {
			return a.templateGroupOf(tmpl)
		}
	}
	return Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "launch template not found in the plan"}
}

// launchTemplate is the value of the launch template lt points at, found
// as launchTemplateGroup finds it.
func (a *analysis) launchTemplate(c *planparse.Change, lt planparse.Value, w when, idAttr, nameAttr string, path ...string) (planparse.Value, bool) {
	for _, x := range []struct{ attr, field string }{{idAttr, "id"}, {nameAttr, "name"}} {
		if val := strAt(lt, x.attr); val != "" {
			if v, ok := a.relatedByValue(w, "aws_launch_template", x.field, val); ok {
				return v, true
			}
		}
	}
	for _, attr := range []string{idAttr, nameAttr} {
		expr := append(append([]string(nil), path...), attr)
		if v, ok := a.related(c, w, "aws_launch_template", "", "", expr...); ok {
			return v, true
		}
	}
	return planparse.Value{}, false
}

// templateGroup is the group of the launch template whose field is val
// (related's first steps), remembered: many groups share a few templates.
func (a *analysis) templateGroup(w when, field, val string) (Group, bool) {
	k := relKey{w, "aws_launch_template", field, val}
	if g, ok := a.templates[k]; ok {
		return g, true
	}
	tmpl, ok := a.relatedByValue(w, "aws_launch_template", field, val)
	if !ok {
		return Group{}, false
	}
	g := a.templateGroupOf(tmpl)
	if a.templates == nil {
		a.templates = map[relKey]Group{}
	}
	a.templates[k] = g
	return g, true
}

// templateGroupOf reads a launch template's instance type.
func (a *analysis) templateGroupOf(tmpl planparse.Value) Group {
	g := a.group(CloudAWS, tmpl, "instance_type")
	if g.SKU.Name == "" && g.Unpriced == "" {
		g.Unpriced = "the launch template sets no instance_type"
	}
	g.Spot = strings.EqualFold(strAt(tmpl, "instance_market_options", 0, "market_type"), "spot")
	return g
}

var asgKeys = keys([]string{"mixed_instances_policy", "launch_template", "min_size", "desired_capacity", "max_size", "name", "tag"}, awsTagKeys, awsRegionKeys)

func awsASG(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, asgKeys)
	var g Group
	policy := r.at("mixed_instances_policy")
	mip := policy.Get(0, "launch_template", 0)
	override := ""
	if ov := mip.Get("override"); ov.Len() > 0 {
		override = strAt(ov, 0, "instance_type")
	}
	if override != "" {
		g = Group{SKU: a.lookup(CloudAWS, override)}
	} else if mip.Get("override", 0, "instance_requirements").Len() > 0 {
		// Attribute-based selection: EC2 picks the types at launch, not
		// the launch template's instance_type.
		g = Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "instance_requirements: EC2 chooses the instance types at launch"}
	} else if spec := mip.Get("launch_template_specification"); spec.Len() > 0 {
		g = a.launchTemplateGroup(c, spec.Get(0), w, "launch_template_id", "launch_template_name",
			"mixed_instances_policy", "launch_template", "launch_template_specification")
	} else if lt := r.at("launch_template"); lt.Len() > 0 {
		g = a.launchTemplateGroup(c, lt.Get(0), w, "id", "name", "launch_template")
	} else {
		g = a.launchConfigurationGroup(c, v, w)
	}
	lo, exp, hi := intAt(r.at("min_size")), intAt(r.at("desired_capacity")), intAt(r.at("max_size"))
	g.Scale = rangeScale(lo, exp, hi)
	g.Scale.Autoscaled = g.Scale.Max > g.Scale.Min
	g.Spot = g.Spot || asgSpot(policy.Get(0, "instances_distribution", 0), g.Scale)
	s := awsSide(a, &r, g)
	if t := r.at("tag"); t.IsList() && t.Len() > 0 {
		s.tagsFrom = fromASGTags // tag blocks over the tags
	}
	s.Name = strAt(r.at("name"))
	if spec := mip.Get("launch_template_specification"); spec.Len() > 0 {
		s.Disks = a.launchTemplateDisks(c, spec.Get(0), w, "launch_template_id", "launch_template_name",
			"mixed_instances_policy", "launch_template", "launch_template_specification")
	} else if lt := r.at("launch_template"); lt.Len() > 0 {
		s.Disks = a.launchTemplateDisks(c, lt.Get(0), w, "id", "name", "launch_template")
	}
	return s
}

// asgSpot reports whether a mixed instances policy's distribution runs
// some of the fleet as spot: capacity above on_demand_base_capacity is
// on-demand only at on_demand_percentage_above_base_capacity 100 (the
// default), so a fleet that can outgrow its base is partly spot.
func asgSpot(dist planparse.Value, sc Scale) bool {
	pct := intAt(dist, "on_demand_percentage_above_base_capacity")
	if !pct.known || pct.n >= 100 {
		return false
	}
	base := intAt(dist, "on_demand_base_capacity")
	return sc.Unknown || !base.known || base.n < sc.Max
}

// launchConfigurationGroup reads the instance type of an ASG's launch
// configuration.
func (a *analysis) launchConfigurationGroup(c *planparse.Change, v planparse.Value, w when) Group {
	name := strAt(v, "launch_configuration")
	if name == "" {
		return Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "no launch template or configuration in the plan"}
	}
	lc, ok := a.related(c, w, "aws_launch_configuration", "name", name, "launch_configuration")
	if !ok {
		return Group{SKU: SKU{Cloud: CloudAWS}, Unpriced: "launch configuration not found in the plan"}
	}
	return a.group(CloudAWS, lc, "instance_type")
}

// sagemakerConfig prices each production and shadow variant.
var (
	sagemakerConfigKeys = keys([]string{"name", "production_variants", "shadow_production_variants"}, awsTagKeys, awsRegionKeys)
	variantKeys         = keys([]string{"instance_type", "variant_name", "serverless_config", "initial_instance_count", "managed_instance_scaling"})
)

func sagemakerConfig(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, sagemakerConfigKeys)
	name := strAt(r.at("name"))
	s := Side{Name: name, src: v, tagsFrom: awsTagsFrom(&r), Config: name}
	if s.Region = awsRegion(&r); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	for _, list := range []struct {
		attr   string
		shadow bool
	}{{"production_variants", false}, {"shadow_production_variants", true}} {
		for _, x := range r.at(list.attr).List() {
			var pv record
			pv.read(x, variantKeys)
			g := a.group(CloudSageMaker, pv.at("instance_type"))
			g.Name, g.Shadow = strAt(pv.at("variant_name")), list.shadow
			if pv.at("serverless_config").Len() > 0 {
				g.Serverless = true
				g.SKU = SKU{Cloud: CloudSageMaker, Name: g.SKU.Name, Known: g.SKU.Known}
				g.Scale = Scale{}
			} else {
				n := intAt(pv.at("initial_instance_count"))
				g.Scale = fixedScale(n, 1)
				if mis := pv.at("managed_instance_scaling").Get(0); strings.EqualFold(strAt(mis, "status"), "enabled") {
					g.Scale = rangeScale(intAt(mis, "min_instance_count"), n, intAt(mis, "max_instance_count"))
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

// sagemakerEndpoint is priced through the endpoint configuration it names.
var sagemakerEndpointKeys = keys([]string{"endpoint_config_name", "name"}, awsTagKeys, awsRegionKeys)

func sagemakerEndpoint(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, sagemakerEndpointKeys)
	name, unknown := skuAt(r.at("endpoint_config_name"))
	cfg, ok := a.related(c, w, "aws_sagemaker_endpoint_configuration", "name", name, "endpoint_config_name")
	var s Side
	self := strAt(r.at("name"))
	if ok {
		s = sagemakerConfig(a, c, cfg, w) // its Config is the configuration's name, its Region the configuration's
		a.endpointAutoscaling(c, self, w, &s)
	} else {
		reason := "endpoint configuration " + name + " not found in the plan"
		if unknown {
			reason = "endpoint configuration known only after apply"
		}
		s = Side{Config: name, Groups: a.one(Group{SKU: SKU{Cloud: CloudSageMaker}, Unpriced: reason, SKUUnknown: unknown})}
	}
	if s.Config == "" {
		s.Config = name
	}
	s.Name, s.src, s.tagsFrom = self, v, awsTagsFrom(&r)
	// The endpoint's own region, else its configuration's (set above).
	if reg := awsRegion(&r); reg != "" {
		s.Region, s.RegionSource = reg, RegionFromResource
	}
	return s
}

var notebookKeys = keys([]string{"instance_type", "name"}, awsTagKeys, awsRegionKeys)

func sagemakerNotebook(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, notebookKeys)
	g := a.group(CloudSageMaker, r.at("instance_type"))
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	s := awsSide(a, &r, g)
	s.Name = strAt(r.at("name"))
	return s
}
