package infra

import "testing"

// Reserved capacity is marked: a capacity reservation bills at on-demand
// whether used or not (priced), a Capacity Block is paid up front (listed
// with its reason, never priced at on-demand).
func TestReservedCapacity(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		rc             rc
		want, capacity string
		gpus           float64
	}{
		"a capacity reservation of two p5.48xlarge": {
			rc: rc{addr: "aws_ec2_capacity_reservation.p5", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge",
				"instance_count": 2, "instance_platform": "Linux/UNIX", "availability_zone": "us-east-1a"}},
			want: "0 -> 110.08 (max 110.08); priced in us-east-1", capacity: CapacityReservation, gpus: 16,
		},
		"a Capacity Block reservation": {
			rc: rc{addr: "aws_ec2_capacity_block_reservation.b", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge",
				"instance_count": 1, "availability_zone": "us-east-1a"}},
			want: "0 -> nil (max nil); unpriced after: " + capacityBlockReason, capacity: CapacityBlock, gpus: 8,
		},
		"an instance in a Capacity Block": {
			rc: rc{addr: "aws_instance.i", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a",
				"instance_market_options": []any{map[string]any{"market_type": "capacity-block"}}}},
			want: "0 -> nil (max nil); unpriced after: " + capacityBlockReason, capacity: CapacityBlock, gpus: 8,
		},
		"an instance targeting a reservation is priced and marked": {
			rc: rc{addr: "aws_instance.i", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a",
				"capacity_reservation_specification": []any{map[string]any{"capacity_reservation_target": []any{map[string]any{"capacity_reservation_id": "cr-1"}}}}}},
			want: "0 -> 55.04 (max 55.04); priced in us-east-1", capacity: CapacityReservation, gpus: 8,
		},
		"its honest twin: an open preference is on-demand": {
			rc: rc{addr: "aws_instance.i", actions: []string{"create"}, after: map[string]any{"instance_type": "p5.48xlarge", "availability_zone": "us-east-1a",
				"capacity_reservation_specification": []any{map[string]any{"capacity_reservation_preference": "open"}}}},
			want: "0 -> 55.04 (max 55.04); priced in us-east-1", capacity: CapacityOnDemand, gpus: 8,
		},
		"a spot instance request": {
			rc:   rc{addr: "aws_spot_instance_request.s", actions: []string{"create"}, after: map[string]any{"instance_type": "g5.xlarge", "availability_zone": "us-east-1a"}},
			want: "0 -> nil (max nil); unpriced after: " + SpotUnpriced, capacity: CapacitySpot, gpus: 1,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tplan{changes: []rc{tc.rc}}, Options{})
			r := rs[0]
			checkInvariants(t, r)
			if got := costView(r); got != tc.want {
				t.Errorf("cost = %s\nwant   %s", got, tc.want)
			}
			if g := r.After.Groups[0]; g.Capacity != tc.capacity {
				t.Errorf("capacity %q, want %q", g.Capacity, tc.capacity)
			}
			if got := r.After.GPUs(false); got != tc.gpus {
				t.Errorf("GPUs %v, want %v", got, tc.gpus)
			}
		})
	}
}

// Azure ML managed online deployments bill their instances at the VM
// rate; one on Kubernetes runs on a cluster that bills apart.
func TestOnlineDeployments(t *testing.T) {
	t.Parallel()
	body := func(ct string) map[string]any {
		return map[string]any{"location": "eastus", "sku": map[string]any{"capacity": 2},
			"properties": map[string]any{"endpointComputeType": ct, "instanceType": "Standard_NC24ads_A100_v4",
				"scaleSettings": map[string]any{"scaleType": "TargetUtilization", "minInstances": 1, "maxInstances": 5}}}
	}
	azapi := func(typ string, b map[string]any) rc {
		return rc{addr: "azapi_resource.blue", actions: []string{"create"}, after: map[string]any{"type": typ, "name": "blue", "body": b}}
	}
	const dep = "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments@2024-04-01"
	tests := map[string]struct {
		rc    rc
		want  string
		kinds int // resources analysed
	}{
		"managed deployment through azapi": {rc: azapi(dep, body("Managed")), want: "0 -> 7.346 (max 18.365); priced in eastus", kinds: 1},
		"Kubernetes deployment: listed with the reason": {rc: azapi(dep, body("Kubernetes")),
			want: "0 -> nil (max nil); unpriced after: a Kubernetes online deployment runs on an attached cluster, which bills on its own", kinds: 1},
		"another azapi type is not a resource infra prices": {rc: azapi("Microsoft.Storage/storageAccounts@2023-01-01", body("Managed")), kinds: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tplan{changes: []rc{tc.rc}}, Options{})
			if len(rs) != tc.kinds {
				t.Fatalf("%d resources, want %d", len(rs), tc.kinds)
			}
			if tc.kinds == 0 {
				return
			}
			checkInvariants(t, rs[0])
			if rs[0].Kind != KindEndpoint {
				t.Errorf("kind %s, want endpoint", rs[0].Kind)
			}
			if got := costView(rs[0]); got != tc.want {
				t.Errorf("cost = %s\nwant   %s", got, tc.want)
			}
		})
	}
	// The same deployment in an ARM what-if.
	r := analyzeWhatIf(t, wi{path: "Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue", changeType: "Create", after: body("Managed")})
	for _, x := range r {
		if got := costView(x); got != "0 -> 7.346 (max 18.365); priced in eastus" {
			t.Errorf("what-if: %s", got)
		}
	}
	if len(r) != 1 {
		t.Errorf("what-if: %d resources, want 1", len(r))
	}
}
