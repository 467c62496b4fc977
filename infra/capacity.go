package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Reserved capacity, spot requests and Azure ML online deployments: the
// resource types whose capacity is bought other than on demand, or whose
// VMs a managed service runs.
func init() {
	adapters["aws_ec2_capacity_reservation"] = adapter{KindReservation, capacityReservation, true}
	adapters["aws_ec2_capacity_block_reservation"] = adapter{KindReservation, capacityBlockReservation, true}
	adapters["aws_spot_instance_request"] = adapter{KindVM, spotInstanceRequest, true}
	ml := adapter{KindEndpoint, armOnlineDeployment, true}
	adapters["Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments"] = ml
	armAdaptersFold[strings.ToLower("Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments")] = ml
	adapters["azapi_resource"] = adapter{KindEndpoint, azapiOnlineDeployment, true}
}

// onlyIf lists the adapters that model only some resources of their
// type: azapi_resource is any ARM type, and only an Azure ML online
// deployment is a resource infra prices.
var onlyIf = map[string]func(*planparse.Change) bool{
	"azapi_resource": func(c *planparse.Change) bool { return IsAzapiOnlineDeployment(c) },
}

// azapiDeploymentType is the ARM type of an Azure ML online deployment.
const azapiDeploymentType = "microsoft.machinelearningservices/workspaces/onlineendpoints/deployments"

// IsAzapiOnlineDeployment reports whether an azapi_resource change is an
// Azure ML online deployment (its type, before the @api-version, names one).
func IsAzapiOnlineDeployment(c *planparse.Change) bool {
	for _, v := range []planparse.Value{c.After(), c.Before()} {
		t, _ := v.Get("type").Str()
		if t != "" {
			t, _, _ = strings.Cut(t, "@")
			return strings.EqualFold(t, azapiDeploymentType)
		}
	}
	return false
}

// markCapacity marks an EC2 instance group bought other than on demand: a
// Capacity Block for ML (market type capacity-block: paid up front, not by
// the hour, so unpriced) or a run in a targeted capacity reservation
// (billed at the on-demand rate, so priced, and marked).
func markCapacity(g *Group, market, reservation planparse.Value) {
	if strings.EqualFold(strAt(market, 0, "market_type"), "capacity-block") {
		g.Capacity = CapacityBlock
		g.Unpriced = capacityBlockReason
		return
	}
	t := reservation.Get("capacity_reservation_target", 0)
	if strAt(t, "capacity_reservation_id") != "" || t.Get("capacity_reservation_id").IsUnknown() ||
		strAt(t, "capacity_reservation_resource_group_arn") != "" {
		g.Capacity = CapacityReservation
	}
}

// capacityBlockReason is why a Capacity Block has no hourly figure.
const capacityBlockReason = "Capacity Block for ML: paid up front for the whole block at the block's own price, not by the hour at on-demand"

var reservationKeys = keys([]string{"instance_type", "instance_count", "instance_platform", "tenancy"}, awsTagKeys, awsRegionKeys)

// capacityReservation is an EC2 On-Demand Capacity Reservation: it bills
// instance_count instances at the on-demand rate whether they run or not.
func capacityReservation(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	var r record
	r.read(v, reservationKeys)
	g := a.group(CloudAWS, r.at("instance_type"))
	g.Scale = fixedScale(intAt(r.at("instance_count")), 1)
	g.Capacity = CapacityReservation
	if p := strAt(r.at("instance_platform")); p != "" && !strings.EqualFold(p, "Linux/UNIX") {
		g.Windows = true // any licensed platform: the catalog has Linux prices only
	}
	s := awsSide(a, &r, g)
	s.Name, s.tagsFrom = awsTagName(&r)
	return s
}

// capacityBlockReservation is an EC2 Capacity Block for ML bought through
// Terraform: paid up front, so its GPUs count and its price is unknown here.
func capacityBlockReservation(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	s := capacityReservation(a, c, v, w)
	g := s.Groups[0]
	g.Capacity, g.Unpriced = CapacityBlock, capacityBlockReason
	s.Groups = a.one(g)
	return s
}

// spotInstanceRequest is an EC2 spot request: a spot instance.
func spotInstanceRequest(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	s := awsInstance(a, c, v, w)
	g := s.Groups[0]
	g.Spot = true
	s.Groups = a.one(g)
	return s
}

// onlineDeployment reads an Azure ML online deployment's REST shape
// (properties.instanceType, sku.capacity, properties.scaleSettings): a
// managed deployment bills its instances at the VM rate of instanceType;
// one on Kubernetes runs on an attached cluster that bills on its own.
func onlineDeployment(a *analysis, v planparse.Value) Side {
	p := v.Get("properties")
	var g Group
	switch ct := strAt(p, "endpointComputeType"); {
	case ct != "" && !strings.EqualFold(ct, "managed"):
		g = Group{SKU: SKU{Cloud: CloudAzure}, Unpriced: "a " + ct + " online deployment runs on an attached cluster, which bills on its own"}
	default:
		g = a.group(CloudAzure, p, "instanceType")
		if g.SKU.Name == "" && g.Unpriced == "" {
			g.Unpriced = "the deployment names no instanceType"
		}
	}
	n := intAt(v, "sku", "capacity")
	g.Scale = fixedScale(n, 1)
	if ss := p.Get("scaleSettings"); strings.EqualFold(strAt(ss, "scaleType"), "TargetUtilization") {
		g.Scale = rangeScale(intAt(ss, "minInstances"), n, intAt(ss, "maxInstances"))
	}
	s := Side{SKU: g.SKU.Name, Groups: a.one(g), Name: armName(v), src: v, tagsFrom: fromTags}
	if s.Region = location(v, "location"); s.Region != "" {
		s.RegionSource = RegionFromResource
	}
	return s
}

func armOnlineDeployment(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	return onlineDeployment(a, v)
}

// azapiOnlineDeployment is an azapi_resource of the online deployment
// type: its body is the REST shape (an object; a JSON string, as older
// azapi versions take it, is not read).
func azapiOnlineDeployment(a *analysis, c *planparse.Change, v planparse.Value, w when) Side {
	body := v.Get("body")
	if !body.IsMap() {
		g := Group{SKU: SKU{Cloud: CloudAzure}, Unpriced: "the deployment's body is not an object in the plan (known only after apply, or a JSON string)"}
		return Side{Groups: a.one(g), Name: strAt(v, "name")}
	}
	s := onlineDeployment(a, body)
	s.Name, s.src = strAt(v, "name"), v
	if s.Region == "" {
		if s.Region = location(v, "location"); s.Region != "" {
			s.RegionSource = RegionFromResource
		}
	}
	return s
}
