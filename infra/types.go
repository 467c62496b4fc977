// Package infra knows cloud compute: which SKUs carry which accelerators,
// what they cost per hour in which region, and where each supported
// Terraform resource type keeps its SKU, node counts, region and tags.
// It is pure: the catalog is compiled in and nothing here does I/O.
package infra

import "github.com/planwarden/planwarden/planparse"

// Accelerator is the kind of accelerator a SKU carries.
type Accelerator string

// Accelerator kinds.
const (
	AcceleratorNone       Accelerator = ""
	AcceleratorNVIDIA     Accelerator = "nvidia-gpu"
	AcceleratorAMD        Accelerator = "amd-gpu"
	AcceleratorInferentia Accelerator = "inferentia"
	AcceleratorTrainium   Accelerator = "trainium"
	// AcceleratorOther is any other accelerator chip (Habana Gaudi,
	// Qualcomm AI 100): capacity the GPU rules treat like a GPU's.
	AcceleratorOther Accelerator = "other-accelerator"
)

// SKU is what planwarden knows about one compute SKU.
type SKU struct {
	Cloud  string // azure, aws, aws-sagemaker, gcp
	Name   string
	Family string
	VCPU   int
	// MemoryGiB and GPUMemoryGiB are nominal, as vendors quote them.
	MemoryGiB float64
	// GPUCount is accelerators per instance; fractional for partitioned GPUs.
	GPUCount     float64
	GPUModel     string // "NVIDIA Tesla V100 16GB", "NVIDIA A100 80GB", ...
	GPUMemoryGiB float64
	Accelerator  Accelerator
	// Retired is true when the vendor has retired the SKU (it may still be priced).
	Retired   bool
	RetiredOn string
	// Known is false when the SKU is in neither the catalog nor the family
	// rules; such a SKU is unpriced and its GPU facts are unknown.
	Known bool
	// FromFamily is true when the GPU facts come from the SKU name's family
	// rather than a catalog row.
	FromFamily bool
}

// HasGPU reports whether the SKU carries an accelerator (GPU, Inferentia or Trainium).
func (s SKU) HasGPU() bool { return s.Accelerator != AcceleratorNone && s.GPUCount > 0 }

// Kind is the role a resource plays, as rules see it.
type Kind string

// Resource kinds.
const (
	KindNodePool       Kind = "node-pool"       // AKS pools, EKS node groups, GKE node pools
	KindVM             Kind = "vm"              // single VMs and instances
	KindScaleSet       Kind = "scale-set"       // VMSS, ASGs
	KindComputeCluster Kind = "compute-cluster" // Azure ML compute clusters
	KindEndpoint       Kind = "endpoint"        // serving endpoints (SageMaker endpoint, ...)
	KindEndpointConfig Kind = "endpoint-config" // SageMaker endpoint configuration
	KindNotebook       Kind = "notebook"
	// KindDisk is a block-storage volume of its own (a managed disk, an
	// EBS volume, a persistent disk).
	KindDisk Kind = "disk"
	// KindReservation is reserved compute capacity (an EC2 On-Demand
	// Capacity Reservation or Capacity Block).
	KindReservation Kind = "capacity-reservation"
)

// Capacity is how a group's instances are bought (Group.Capacity).
const (
	CapacityOnDemand    = ""
	CapacitySpot        = "spot"
	CapacityReservation = "capacity-reservation"
	CapacityBlock       = "capacity-block"
)

// Scale is a node or instance count: min, expected and max. A fixed count
// has Min == Expected == Max. Expected is node_count / desired_size, or Min
// when the resource does not say.
type Scale struct {
	Min, Expected, Max int
	Autoscaled         bool
	// Unknown is true when the count is known only after apply.
	Unknown bool
}

// Group is one priced group of identical instances in a resource: the
// pool itself, or one production/shadow variant of an endpoint config.
type Group struct {
	Name  string // variant name, or "" for the resource itself
	SKU   SKU
	Scale Scale
	// Accelerators attached separately (GCP guest_accelerator): per instance.
	Attached []Attached
	// Serverless is true for SageMaker serverless variants: no hourly price.
	Serverless bool
	// Shadow is true for a SageMaker shadow variant (it bills like any other).
	Shadow bool
	// Spot is true for spot, preemptible and low-priority capacity: its
	// price is your spot price (Pricing.SpotPrices, a spot discount), else
	// unknown, with the on-demand price as its ceiling (SpotCeiling).
	Spot bool
	// Capacity says how the instances are bought when it is not on demand:
	// CapacitySpot, CapacityReservation (priced at on-demand: a reservation
	// bills whether used or not) or CapacityBlock (paid up front: unpriced).
	Capacity string
	// SpotCeiling is, for a spot group, the most one instance can cost: the
	// on-demand price (your on-demand price under Options.Pricing); never
	// the expected price.
	SpotCeiling *float64
	// Windows is true for a Windows VM or pool; the catalog prices Linux only.
	Windows bool
	// SKUUnknown is true when the SKU is known only after apply (the
	// attribute SKUAttribute names, or what it points at, such as a
	// SageMaker endpoint's configuration): its GPU facts are unknown.
	SKUUnknown bool
	// Hourly is the USD/hour of one instance of the group, attached
	// accelerators included; nil when unpriced.
	Hourly *float64
	// ListHourly is the list price of one instance; Hourly differs from it
	// when Options.Pricing gives your price, and PriceNote says how
	// ("your price", "28% discount"; "" for the list price).
	ListHourly *float64
	PriceNote  string
	// PriceBasis is BasisExact or BasisApproximate (another region's list
	// price, see Catalog.Quote) when Hourly is set; PriceRegion is the
	// region whose price it is.
	PriceBasis, PriceRegion string
	// Unpriced is why the group has no price, "" when it has one.
	Unpriced string
}

// Attached is an accelerator attached to an instance rather than built into its SKU.
type Attached struct {
	Type     string // nvidia-tesla-t4
	Count    int
	GPUModel string
}

// Side is a resource as it is before or after the change.
type Side struct {
	// SKU is the primary group's SKU name as written in the plan, "" when
	// unknown; see Groups for everything priced. Analyze shares equal
	// groups between sides (and a Cost's figures between resources): read
	// them, never write through them.
	SKU    string
	Groups []Group
	// Region and where it came from (RegionFromNone when unknown).
	Region       string
	RegionSource RegionSource
	// The side's cloud tags and a pool's node labels are read from the plan
	// when asked (Tags, Labels, Tag): few rules read them, and a map per
	// resource was most of a large plan's live heap. src is the value they
	// are read from, tagsFrom and labelsFrom say how; custom holds maps
	// and readers given otherwise (SetTags, SetLabels, ARM pools).
	tagsFrom, labelsFrom mapFrom
	src                  planparse.Value
	custom               *customMaps
	// Taints are Kubernetes node taints in key=value:Effect form with the
	// Kubernetes effect names (NoSchedule, PreferNoSchedule, NoExecute),
	// whatever form the provider uses.
	Taints []string
	// Name is the pool/VM/endpoint name from the resource's attributes.
	Name string
	// ImageType is the node image where the resource names one (EKS
	// ami_type such as AL2_x86_64_GPU, GKE image_type): a GPU intent signal.
	ImageType string
	// Config names what a SageMaker endpoint side runs (its endpoint
	// configuration's name); "" elsewhere.
	Config string
	// Disks are the block storage of each instance of the side's group
	// (a VM's OS and data disks, a pool node's OS disk), or the disk
	// itself for a KindDisk resource; priced at list prices.
	Disks []Disk
}

// Tags are the resource's cloud tags (AWS tags_all when known, GCP
// resource labels), pool tags merged over cluster tags for AKS; nil when
// it has none. Each call reads them from the plan afresh.
func (s *Side) Tags() map[string]string {
	if s == nil {
		return nil
	}
	return s.readMap(s.tagsFrom, true)
}

// Labels are the Kubernetes node labels of a pool; nil when it has none.
// Each call reads them from the plan afresh.
func (s *Side) Labels() map[string]string {
	if s == nil {
		return nil
	}
	return s.readMap(s.labelsFrom, false)
}

// Tag is Tags()[key], read without decoding the other tags when the tag
// is there.
func (s *Side) Tag(key string) string {
	if s == nil {
		return ""
	}
	return s.readKey(s.tagsFrom, true, key)
}

// Label is Labels()[key], read without decoding the other labels when
// the label is there.
func (s *Side) Label(key string) string {
	if s == nil {
		return ""
	}
	return s.readKey(s.labelsFrom, false, key)
}

// SetTags and SetLabels give the side fixed tags or labels (for sides
// built outside Analyze).
func (s *Side) SetTags(m map[string]string) {
	s.setCustom(true, func() map[string]string { return m })
}

func (s *Side) SetLabels(m map[string]string) {
	s.setCustom(false, func() map[string]string { return m })
}

// HasGPU reports whether any group of the side carries accelerators,
// built into its SKU or attached (an attached accelerator is only recorded
// with a known count above zero). A nil side has none. It is the one GPU
// predicate the rules and the comment share.
func (s *Side) HasGPU() bool {
	if s == nil {
		return false
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.SKU.HasGPU() {
			return true
		}
		for _, a := range g.Attached {
			if a.Count > 0 {
				return true
			}
		}
	}
	return false
}

// GPUs returns the accelerators of the side at the given scale point
// (expected unless atMax), summed over groups.
func (s *Side) GPUs(atMax bool) float64 {
	if s == nil {
		return 0
	}
	var n float64
	for i := range s.Groups {
		g := &s.Groups[i]
		count := g.Scale.Expected
		if atMax {
			count = g.Scale.Max
		}
		per := g.SKU.GPUCount
		for _, a := range g.Attached {
			per += float64(a.Count)
		}
		n += per * float64(count)
	}
	return n
}

// GPUsKnown reports whether GPUs counts the side's accelerators: false
// when a group's SKU is one no catalog row or family rule knows (or is
// known only after apply), or an accelerated group's count is known only
// after apply; GPUs counts those as 0. A nil side has none, known.
func (s *Side) GPUsKnown() bool {
	if s == nil {
		return true
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Serverless {
			continue
		}
		if !g.SKU.Known || (g.Scale.Unknown && (g.SKU.GPUCount > 0 || len(g.Attached) > 0)) {
			return false
		}
		for _, at := range g.Attached {
			if at.Type == unknownAccelerator {
				return false
			}
		}
	}
	return true
}

// Resource is infra's view of one change of a supported resource type.
type Resource struct {
	Address string
	Type    string
	Kind    Kind
	// Action and ReplaceOrder are the change's, copied from planparse.
	Action       planparse.Action
	ReplaceOrder planparse.ReplaceOrder
	// Deposed is the change's deposed object key: a plan can list an
	// address twice, its current object and a deposed one.
	Deposed string
	// Before is nil for a create; After is nil for a delete. Both are the
	// same Side when the change leaves a resource read from its own value
	// as it was (a no-op): read sides, never write through them.
	Before, After *Side
	Cost          Cost
}

// Cost is the hourly USD estimate of one change. A nil figure is unknown,
// never zero; Unpriced says why. A side that does not exist costs 0: a
// create has HourlyBefore 0 and a delete HourlyAfter 0 (the saving). A
// forget keeps the before figures after, since the object keeps running.
// A replace prices both fleets; see OverlapHourly for create-before-destroy.
type Cost struct {
	// Hourly before and after at the expected scale; nil when unknown.
	HourlyBefore, HourlyAfter *float64
	// MinHourlyAfter and MaxHourlyAfter bound an autoscaled fleet.
	MinHourlyAfter, MaxHourlyAfter *float64
	MaxHourlyBefore                *float64
	// OverlapHourly is what both fleets cost together while a
	// create-before-destroy replace runs; nil otherwise.
	OverlapHourly *float64
	// Unpriced lists what could not be priced, with the reason.
	Unpriced []Unpriced
	// YourPrice is true when a figure is your price (Options.Pricing), not
	// the list price; ListHourlyBefore/After are the list-price figures at
	// the expected scale (equal to HourlyBefore/After otherwise).
	ListHourlyBefore, ListHourlyAfter *float64
	YourPrice                         bool
	// Approximate is true when a figure uses another region's list price
	// (a group's PriceBasis is BasisApproximate); PriceRegions lists, sorted,
	// the regions whose prices the figures use.
	Approximate  bool
	PriceRegions []string
	// DiskGaps are the disks whose price is not known (an Ultra disk, a
	// size known only after apply), with the reason: they are left out
	// of the figures and listed as not estimated, never as a $0 disk.
	DiskGaps []Unpriced
	// BilledVia is set when the resource does not bill by itself: a
	// SageMaker endpoint configuration bills through the endpoints that use
	// it ("aws_sagemaker_endpoint"). Its figures are what one endpoint
	// running it costs; Sum leaves it out so nothing is counted twice.
	BilledVia string
}

// SideBoth is Unpriced.Side for a gap on both sides of a change.
const SideBoth = "both"

// Unpriced is a SKU (or group) whose price is not known, and why.
type Unpriced struct {
	Address string
	SKU     string
	Region  string
	Reason  string
	// Side is "before", "after", or SideBoth when both sides have the
	// same gap (an unchanged resource is one item, not two).
	Side string
	// Group is the variant name when the resource has several groups,
	// or the disk's name for a disk gap (Cost.DiskGaps).
	Group string
	// Capacity is the group's Capacity (CapacitySpot for spot capacity
	// with no spot price); Ceiling is then the most the side can cost an
	// hour at the expected scale: the on-demand price, never the expected one.
	Capacity string
	Ceiling  float64
}
