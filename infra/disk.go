package infra

import (
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Disk is one block-storage volume: an instance's OS or data disk, or a
// disk resource itself. Its price is the list price of its type and size
// (Catalog.DiskPrice), per disk; a VM's or pool's side bills it once per
// instance.
type Disk struct {
	// Name says which disk: "OS disk", "root volume", a device name;
	// "" for a disk resource itself.
	Name string
	// Type is the disk type as the plan names it (Premium_LRS, gp3,
	// pd-balanced); SizeGiB, IOPS and MiBps its provisioned size and
	// performance (0 when not set).
	Type              string
	SizeGiB           int
	IOPS, MiBps       int
	cloud             string
	sizeUnknown, none bool
	// Tier is the Azure tier the disk is billed as (P30).
	Tier string
	// Hourly is the disk's list price per hour (a month's price / 730);
	// nil when unpriced, and Unpriced then says why.
	Hourly                  *float64
	PriceBasis, PriceRegion string
	Unpriced                string
}

// diskOf reads one disk: typ and size are the plan's values of its type
// and size in GiB (a missing type is def).
func diskOf(cloud, name string, typ planparse.Value, def string, size planparse.Value) Disk {
	d := Disk{Name: name, cloud: cloud}
	t, _ := typ.Str()
	switch {
	case typ.IsUnknown():
		d.Unpriced = "disk type known only after apply"
	case t == "":
		t = def
	}
	d.Type = t
	if n := intAt(size); n.known {
		d.SizeGiB = n.n
	} else {
		d.sizeUnknown = true
		if d.Unpriced == "" {
			d.Unpriced = "disk size known only after apply, or taken from the image"
		}
	}
	if d.Type == "" && d.Unpriced == "" {
		d.Unpriced = "disk type not in the plan"
	}
	return d
}

// priceDisks prices a side's disks in its region.
func (a *analysis) priceDisks(s *Side) {
	for i := range s.Disks {
		d := &s.Disks[i]
		if d.Unpriced != "" || d.none {
			continue
		}
		q, ok := a.cat.DiskPrice(d.cloud, d.Type, float64(d.SizeGiB), float64(d.IOPS), float64(d.MiBps), s.Region)
		if !ok {
			d.Unpriced = "no list price for " + d.Type + " disks of " + strconv.Itoa(d.SizeGiB) + " GiB in the catalog"
			continue
		}
		h := round6(q.USDPerMonth / HoursPerMonth)
		d.Hourly, d.Tier, d.PriceBasis, d.PriceRegion = &h, q.Tier, q.Basis, q.Region
	}
}

// diskHourly is what one instance's priced disks cost an hour, and the
// number of disks with no price.
func diskHourly(s *Side) (sum float64, gaps int) {
	for i := range s.Disks {
		d := &s.Disks[i]
		switch {
		case d.none:
		case d.Hourly != nil:
			sum += *d.Hourly
		default:
			gaps++
		}
	}
	return sum, gaps
}

// azureDiskType is an Azure storage account type as the catalog names it:
// ZRS and v2/Ultra types are kept, so they have no price.
func azureOSDisk(v planparse.Value, name string) Disk {
	return diskOf(CloudAzure, name, v.Get("storage_account_type"), "", v.Get("disk_size_gb"))
}

// azureVMDisks reads an azurerm VM or scale set's os_disk block (an
// ephemeral OS disk, on the VM's local storage, costs nothing apart).
func azureVMDisks(v planparse.Value) []Disk {
	os := v.Get("os_disk", 0)
	if os.IsNull() {
		return nil
	}
	if os.Get("diff_disk_settings").Len() > 0 {
		return []Disk{{Name: "OS disk", none: true}}
	}
	d := azureOSDisk(os, "OS disk")
	out := []Disk{d}
	for i, dd := range v.Get("data_disk").List() {
		out = append(out, diskOf(CloudAzure, "data disk "+strconv.Itoa(i), dd.Get("storage_account_type"), "", dd.Get("disk_size_gb")))
	}
	return out
}

// aksOSDisk is a node pool's OS disk: managed unless os_disk_type says
// Ephemeral, Premium SSD when the VM size takes premium storage (an "s"
// in its features), else Standard SSD, as AKS provisions it.
func aksOSDisk(pool *record, vmSize string) []Disk {
	if strings.EqualFold(strAt(pool.at("os_disk_type")), "ephemeral") {
		return []Disk{{Name: "OS disk", none: true}}
	}
	typ := "StandardSSD_LRS"
	if premiumCapable(vmSize) {
		typ = "Premium_LRS"
	}
	d := diskOf(CloudAzure, "OS disk", planparse.Value{}, typ, pool.at("os_disk_size_gb"))
	return []Disk{d}
}

// premiumCapable reports whether an Azure VM size takes Premium SSD: its
// feature letters (after the vCPU count: Standard_D16s_v5, NC24ads) have an s.
func premiumCapable(size string) bool {
	n := strings.TrimPrefix(strings.ToLower(size), "standard_")
	if i := strings.IndexByte(n, '_'); i >= 0 {
		n = n[:i]
	}
	i := strings.IndexAny(n, "0123456789")
	if i < 0 {
		return false
	}
	for i < len(n) && (n[i] >= '0' && n[i] <= '9' || n[i] == '-') {
		i++
	}
	return strings.ContainsRune(n[i:], 's')
}

// ebsDisk reads an EBS volume block (root_block_device, ebs_block_device,
// or an aws_ebs_volume's own attributes: typeAttr and sizeAttr name them).
func ebsDisk(v planparse.Value, name, typeAttr, sizeAttr string) Disk {
	d := diskOf(CloudAWS, name, v.Get(typeAttr), "", v.Get(sizeAttr))
	d.IOPS, d.MiBps = intAt(v, "iops").n, intAt(v, "throughput").n
	return d
}

// awsInstanceDisks reads an instance's root and EBS volumes.
func awsInstanceDisks(v planparse.Value) []Disk {
	var out []Disk
	if root := v.Get("root_block_device", 0); !root.IsNull() {
		out = append(out, ebsDisk(root, "root volume", "volume_type", "volume_size"))
	}
	for _, b := range v.Get("ebs_block_device").List() {
		out = append(out, ebsDisk(b, "EBS volume "+strAt(b, "device_name"), "volume_type", "volume_size"))
	}
	return out
}

// eksNodeDisk is an EKS managed node group's root volume when no launch
// template gives it: disk_size GiB, else EKS's default (20 GiB, 50 for a
// Windows AMI). The EKS API takes no volume type: the disk is priced as
// gp2, the dearer of EBS's general-purpose types per GiB (docs/pricing.md).
func eksNodeDisk(size planparse.Value, amiType string) []Disk {
	d := diskOf(CloudAWS, "root volume", planparse.Value{}, eksDiskType, size)
	if d.sizeUnknown {
		d.SizeGiB, d.sizeUnknown, d.Unpriced = 20, false, ""
		if strings.HasPrefix(strings.ToUpper(amiType), "WINDOWS") {
			d.SizeGiB = 50
		}
	}
	return []Disk{d}
}

// eksDiskType is the EBS type an EKS node group's own root volume is
// priced as.
const eksDiskType = "gp2"

// launchTemplateDisks reads the EBS volumes of the launch template an
// EKS node group's or ASG's block lt points at (found as
// launchTemplateGroup finds it): each instance bills them. None when the
// template is not in the plan or maps no volume (the AMI's own root
// volume is then not read).
func (a *analysis) launchTemplateDisks(c *planparse.Change, lt planparse.Value, w when, idAttr, nameAttr string, path ...string) []Disk {
	tmpl, ok := a.launchTemplate(c, lt, w, idAttr, nameAttr, path...)
	if !ok {
		return nil
	}
	var out []Disk
	for _, m := range tmpl.Get("block_device_mappings").List() {
		ebs := m.Get("ebs", 0)
		if ebs.IsNull() {
			continue // an instance-store volume: part of the instance's price
		}
		d := ebsDisk(ebs, "EBS volume "+strAt(m, "device_name"), "volume_type", "volume_size")
		if d.Type == "" && d.Unpriced == "disk type not in the plan" {
			d.Type, d.Unpriced = "gp2", "" // EC2's default volume type
		}
		out = append(out, d)
	}
	return out
}

// gceBootDisk reads a Compute Engine instance's boot disk (pd-standard
// unless the plan says; the size comes from the image when unset).
func gceBootDisk(v planparse.Value) []Disk {
	bd := v.Get("boot_disk", 0)
	if bd.IsNull() {
		return nil
	}
	ip := bd.Get("initialize_params", 0)
	return []Disk{diskOf(CloudGCP, "boot disk", ip.Get("type"), "pd-standard", ip.Get("size"))}
}

// gkeBootDisk is a GKE node's boot disk (node_config disk_type and disk_size_gb).
func gkeBootDisk(nc planparse.Value) []Disk {
	if nc.IsNull() {
		return nil
	}
	return []Disk{diskOf(CloudGCP, "boot disk", nc.Get("disk_type"), "pd-balanced", nc.Get("disk_size_gb"))}
}

// Disk resources: one disk each, in the resource's own region.
func init() {
	adapters["azurerm_managed_disk"] = adapter{KindDisk, azureManagedDisk, true}
	adapters["aws_ebs_volume"] = adapter{KindDisk, ebsVolume, true}
	adapters["google_compute_disk"] = adapter{KindDisk, gceDisk, true}
}

func diskSide(d Disk, name string) Side {
	return Side{SKU: d.Type, Name: name, Disks: []Disk{d}}
}

func azureManagedDisk(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	s := diskSide(diskOf(CloudAzure, "", v.Get("storage_account_type"), "", v.Get("disk_size_gb")), strAt(v, "name"))
	s.src, s.tagsFrom = v, fromTags
	if s.Region = location(v, "location"); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

func ebsVolume(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, awsRegionKeys)
	d := ebsDisk(v, "", "type", "size")
	if d.Type == "" && d.Unpriced == "disk type not in the plan" {
		d.Type, d.Unpriced = "gp2", "" // EC2's default volume type
	}
	s := diskSide(d, "")
	s.src, s.tagsFrom = v, awsTagsFrom(&r)
	if s.Region = awsRegion(&r); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	s.Name, _ = awsTagName(&r)
	return s
}

func gceDisk(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	s := diskSide(diskOf(CloudGCP, "", v.Get("type"), "pd-standard", v.Get("size")), strAt(v, "name"))
	s.src, s.tagsFrom = v, fromLabels
	if s.Region = zoneRegion(location(v, "zone")); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// diskCosts lists a resource's disks with no price (Cost.DiskGaps, the
// same gap on both sides once) and adds the regions of the priced ones.
func (a *analysis) diskCosts(r *Resource) {
	for _, x := range []struct {
		s *Side
		w when
	}{{r.Before, before}, {r.After, after}} {
		if x.s == nil || (x.w == after && x.s == r.Before) {
			if x.s != nil && x.w == after {
				for i := range r.Cost.DiskGaps {
					r.Cost.DiskGaps[i].Side = SideBoth
				}
			}
			continue
		}
		for i := range x.s.Disks {
			d := &x.s.Disks[i]
			switch {
			case d.none:
			case d.Hourly != nil:
				if len(x.s.Groups) > 0 {
					// An instance's disks are priced at the reference
					// region's list price everywhere (docs/pricing.md); the
					// row's region and basis are its compute's.
					continue
				}
				r.Cost.Approximate = r.Cost.Approximate || d.PriceBasis == BasisApproximate
				if !slices.Contains(r.Cost.PriceRegions, d.PriceRegion) {
					r.Cost.PriceRegions = append(slices.Clip(r.Cost.PriceRegions), d.PriceRegion)
				}
			default:
				u := Unpriced{Address: r.Address, SKU: d.Type, Region: x.s.Region, Reason: d.Unpriced, Side: x.w.String(), Group: d.Name}
				if i := slices.IndexFunc(r.Cost.DiskGaps, func(o Unpriced) bool { o.Side = u.Side; return o == u }); i >= 0 {
					r.Cost.DiskGaps[i].Side = SideBoth
					continue
				}
				r.Cost.DiskGaps = append(r.Cost.DiskGaps, u)
			}
		}
	}
}
