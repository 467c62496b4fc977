package infra

import (
	"slices"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// --- GCP ---

// gcpAttached reads guest_accelerator blocks, leaving out the GPUs a
// machine type already bundles (an a2 or g2 node pool declares its A100
// or L4 too): those are counted and priced with the machine type.
func gcpAttached(v planparse.Value, machine SKU) []Attached {
	var out []Attached
	for _, ga := range v.List() {
		typ := gcpAcceleratorName(strAt(ga, "type"))
		n := intAt(ga, "count")
		if n.unknown || ga.Get("type").IsUnknown() {
			// Known only after apply: neither counted as none nor priced.
			return []Attached{{Type: unknownAccelerator}}
		}
		if typ == "" || !n.known || n.n == 0 {
			continue
		}
		model, _, _ := GCPAccelerator(typ)
		if machine.HasGPU() && model != "" && model == machine.GPUModel {
			continue
		}
		out = append(out, Attached{Type: typ, Count: n.n, GPUModel: model})
	}
	return out
}

// unknownAccelerator is the attached accelerator whose type or count is
// known only after apply (Attached.Type): the group is unpriced and its
// GPUs unknown.
const unknownAccelerator = "attached accelerator known after apply"

func gcpSpot(sched planparse.Value) bool {
	return boolAt(sched, "preemptible") || boolAt(sched, "spot") ||
		strings.EqualFold(strAt(sched, "provisioning_model"), "spot")
}

// gcpMachine reads machine_type, which may be a URL
// (zones/us-central1-a/machineTypes/n1-standard-4).
func (a *analysis) gcpMachine(v planparse.Value) Group {
	g := a.group(CloudGCP, v, "machine_type")
	if i := strings.LastIndexByte(g.SKU.Name, '/'); i >= 0 {
		g.SKU = a.lookup(CloudGCP, g.SKU.Name[i+1:])
	}
	return g
}

func gceInstance(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	g := a.gcpMachine(v)
	g.Scale = fixedScale(count{n: 1, known: true}, 1)
	g.Attached = gcpAttached(v.Get("guest_accelerator"), g.SKU)
	g.Spot = gcpSpot(v.Get("scheduling", 0))
	g.Windows = strings.Contains(strings.ToLower(strAt(v, "boot_disk", 0, "initialize_params", 0, "image")), "windows")
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: strAt(v, "name"), src: v, tagsFrom: fromLabels, Disks: gceBootDisk(v)}
	if s.Region = zoneRegion(location(v, "zone")); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

// clusterZones is how many zones a GKE cluster's nodes run in by its
// node_locations: a zonal cluster's list leaves out the cluster's own
// zone (the provider stores only the additional ones), which is counted
// too. 0 when the cluster has no node_locations.
func clusterZones(cl planparse.Value) int {
	n := cl.Get("node_locations").Len()
	if n == 0 {
		return 0
	}
	z := strAt(cl, "location")
	if z != "" && zoneRegion(z) != z && !slices.ContainsFunc(stringList(cl, "node_locations"), func(l string) bool { return strings.EqualFold(l, z) }) {
		n++
	}
	return n
}

// gkeNodePool counts nodes per zone: node_count and min/max_node_count
// are per zone, total_min/max_node_count are totals. Zones are the pool's
// node_locations, else its cluster's (found through the cluster
// attribute), else one for a zonal location and three (the GKE default)
// for a regional one. The cluster's location stands in for a missing one.
func gkeNodePool(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	nc := v.Get("node_config", 0)
	g := a.gcpMachine(nc)
	g.Attached = gcpAttached(nc.Get("guest_accelerator"), g.SKU)
	g.Spot = boolAt(nc, "spot") || boolAt(nc, "preemptible")
	g.Windows = strings.HasPrefix(strings.ToUpper(strAt(nc, "image_type")), "WINDOWS")
	loc := location(v, "location")
	zones := v.Get("node_locations").Len()
	if zones == 0 || loc == "" {
		cluster := strAt(v, "cluster")
		cl, ok := a.related(c, w, "google_container_cluster", "id", cluster, "cluster")
		if !ok {
			cl, ok = a.related(c, w, "google_container_cluster", "name", cluster)
		}
		if ok {
			if zones == 0 {
				zones = clusterZones(cl)
			}
			if loc == "" {
				loc = location(cl, "location")
			}
		}
	}
	if zones == 0 {
		zones = 3
		if loc != "" && zoneRegion(loc) != loc {
			zones = 1
		}
	}
	times := func(x count) count {
		if x.known {
			x.n *= zones
		}
		return x
	}
	// node_count is computed for an autoscaled pool: until it is known,
	// the pool starts at initial_node_count.
	n := intAt(v, "node_count")
	if !n.known {
		if in := intAt(v, "initial_node_count"); in.known || !n.unknown {
			n = in
		}
	}
	if as := v.Get("autoscaling", 0); as.Len() > 0 {
		// A minimum left unset is GKE's default, 0.
		orZero := func(x count) count {
			if !x.known && !x.unknown {
				return count{known: true}
			}
			return x
		}
		lo, hi := orZero(intAt(as, "total_min_node_count")), intAt(as, "total_max_node_count")
		if !hi.known {
			lo, hi = times(orZero(intAt(as, "min_node_count"))), times(intAt(as, "max_node_count"))
		}
		g.Scale = rangeScale(lo, times(n), hi)
	} else {
		g.Scale = fixedScale(times(n), zones)
	}
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: strAt(v, "name"),
		src: v, labelsFrom: fromGKELabels, tagsFrom: fromGKETags, Taints: taintBlocks(nc, "taint"),
		ImageType: strAt(nc, "image_type"), Disks: gkeBootDisk(nc)}
	if s.Region = zoneRegion(loc); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}
