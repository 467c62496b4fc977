package infra

import (
	"strings"
	"testing"
)

// costView is what a reviewer reads of one resource's cost: its figures,
// its gaps and the disk gaps listed as not estimated.
func costView(r *Resource) string {
	s := fmtPtr(r.Cost.HourlyBefore) + " -> " + fmtPtr(r.Cost.HourlyAfter) + " (max " + fmtPtr(r.Cost.MaxHourlyAfter) + ")"
	for _, u := range r.Cost.Unpriced {
		s += "; unpriced " + u.Side + ": " + u.Reason
	}
	for _, u := range r.Cost.DiskGaps {
		s += "; disk " + u.Group + " " + u.Side + ": " + u.Reason
	}
	if len(r.Cost.PriceRegions) > 0 {
		s += "; priced in " + strings.Join(r.Cost.PriceRegions, ",")
		if r.Cost.Approximate {
			s += " (approximate)"
		}
	}
	return s
}

func TestDiskPrices(t *testing.T) {
	t.Parallel()
	vm := func(disk map[string]any) map[string]any {
		return map[string]any{"size": "Standard_NC24ads_A100_v4", "location": "eastus", "os_disk": []any{disk}}
	}
	eks := func(extra map[string]any) map[string]any {
		m := map[string]any{"node_group_name": "g", "instance_types": []any{"g5.xlarge"}, "arn": "arn:aws:eks:us-east-1:1:nodegroup/c/g/x",
			"scaling_config": []any{map[string]any{"min_size": 2, "desired_size": 2, "max_size": 2}}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := map[string]struct {
		rc   rc
		want string
	}{
		"a VM's 1 TB Premium OS disk is a P30: 135.17 a month on top of the VM": {
			rc:   rc{addr: "azurerm_linux_virtual_machine.t", actions: []string{"create"}, after: vm(map[string]any{"storage_account_type": "Premium_LRS", "disk_size_gb": 1024})},
			want: "0 -> 3.858164 (max 3.858164); priced in eastus",
		},
		"a size between tiers bills as the next tier up (600 GiB Standard SSD is E30)": {
			rc:   rc{addr: "azurerm_linux_virtual_machine.t", actions: []string{"create"}, after: vm(map[string]any{"storage_account_type": "StandardSSD_LRS", "disk_size_gb": 600})},
			want: "0 -> 3.778205 (max 3.778205); priced in eastus",
		},
		"an OS disk whose size comes from the image is listed, the VM still priced": {
			rc:   rc{addr: "azurerm_linux_virtual_machine.t", actions: []string{"create"}, after: vm(map[string]any{"storage_account_type": "Premium_LRS"})},
			want: "0 -> 3.673 (max 3.673); disk OS disk after: disk size known only after apply, or taken from the image; priced in eastus",
		},
		"an Ultra disk has no list price here: listed with the reason": {
			rc: rc{addr: "azurerm_managed_disk.d", actions: []string{"create"},
				after: map[string]any{"storage_account_type": "UltraSSD_LRS", "disk_size_gb": 1024, "location": "eastus"}},
			want: "0 -> nil (max nil); disk  after: no list price for UltraSSD_LRS disks of 1024 GiB in the catalog",
		},
		"a managed disk in another region is priced at the East US list price, marked approximate": {
			rc: rc{addr: "azurerm_managed_disk.d", actions: []string{"create"},
				after: map[string]any{"storage_account_type": "Standard_LRS", "disk_size_gb": 100, "location": "westeurope"}},
			want: "0 -> 0.008068 (max 0.008068); priced in eastus (approximate)",
		},
		"EBS gp3 bills GiB, IOPS above 3,000 and throughput above 125 MiB/s": {
			rc: rc{addr: "aws_ebs_volume.v", actions: []string{"create"},
				after: map[string]any{"type": "gp3", "size": 1000, "iops": 6000, "throughput": 250, "availability_zone": "us-east-1a"}},
			// 80 + 15 + 5 = 100 a month.
			want: "0 -> 0.136986 (max 0.136986); priced in us-east-1",
		},
		"EBS io2 IOPS are billed in tiers": {
			rc: rc{addr: "aws_ebs_volume.v", actions: []string{"create"},
				after: map[string]any{"type": "io2", "size": 100, "iops": 40000, "availability_zone": "us-east-1a"}},
			// 12.5 + 32000*0.065 + 8000*0.0455 = 2456.5 a month.
			want: "0 -> 3.365068 (max 3.365068); priced in us-east-1",
		},
		"an instance's root and EBS volumes are priced with it": {
			rc: rc{addr: "aws_instance.i", actions: []string{"create"}, after: map[string]any{"instance_type": "m5.large", "availability_zone": "us-east-1a",
				"root_block_device": []any{map[string]any{"volume_type": "gp3", "volume_size": 100}},
				"ebs_block_device":  []any{map[string]any{"device_name": "/dev/sdf", "volume_type": "gp2", "volume_size": 500}}}},
			// 0.096 + (8 + 50) / 730
			want: "0 -> 0.175452 (max 0.175452); priced in us-east-1",
		},
		"a GKE pool bills each node's boot disk": {
			rc: rc{addr: "google_container_node_pool.p", actions: []string{"create"}, after: map[string]any{"location": "us-central1-a", "node_count": 2,
				"node_config": []any{map[string]any{"machine_type": "n1-standard-4", "disk_type": "pd-ssd", "disk_size_gb": 100}}}},
			// 2 x (0.189999 + 17 / 730)
			want: "0 -> 0.426574 (max 0.426574); priced in us-central1",
		},
		"an EKS node group bills each node's disk_size as EBS gp2": {
			rc: rc{addr: "aws_eks_node_group.g", actions: []string{"create"}, after: eks(map[string]any{"disk_size": 100})},
			// 2 x (1.006 + 100 x 0.10 / 730)
			want: "0 -> 2.039398 (max 2.039398); priced in us-east-1",
		},
		"an EKS node group with no disk_size gets EKS's 20 GiB": {
			rc: rc{addr: "aws_eks_node_group.g", actions: []string{"create"}, after: eks(map[string]any{})},
			// 2 x (1.006 + 20 x 0.10 / 730)
			want: "0 -> 2.01748 (max 2.01748); priced in us-east-1",
		},
		"a Windows EKS node group: EKS's 50 GiB default disk, the nodes unpriced (Linux prices only)": {
			rc:   rc{addr: "aws_eks_node_group.g", actions: []string{"create"}, after: eks(map[string]any{"ami_type": "WINDOWS_CORE_2022_x86_64"})},
			want: "0 -> nil (max nil); unpriced after: Windows: the catalog has Linux prices only",
		},
		"its twin: a launch template's disks are the template's, not disk_size": {
			rc:   rc{addr: "aws_eks_node_group.g", actions: []string{"create"}, after: eks(map[string]any{"launch_template": []any{map[string]any{"id": "lt-1", "version": "1"}}})},
			want: "0 -> 2.012 (max 2.012); priced in us-east-1",
		},
		"a balanced persistent disk, 500 GiB, per GiB-month": {
			rc:   rc{addr: "google_compute_disk.d", actions: []string{"create"}, after: map[string]any{"type": "pd-balanced", "size": 500, "zone": "us-central1-b"}},
			want: "0 -> 0.068493 (max 0.068493); priced in us-central1",
		},
		"an AKS pool with an ephemeral OS disk bills no disk": {
			rc: rc{addr: "azurerm_kubernetes_cluster.c", actions: []string{"create"}, after: map[string]any{"location": "eastus",
				"default_node_pool": []any{map[string]any{"name": "sys", "vm_size": "Standard_D4s_v5", "node_count": 3, "os_disk_type": "Ephemeral", "os_disk_size_gb": 128}}}},
			want: "0 -> 0.576 (max 0.576); priced in eastus",
		},
		"an AKS pool on a size without premium storage gets a Standard SSD OS disk": {
			rc: rc{addr: "azurerm_kubernetes_cluster.c", actions: []string{"create"}, after: map[string]any{"location": "eastus",
				"default_node_pool": []any{map[string]any{"name": "sys", "vm_size": "Standard_D4_v5", "node_count": 1, "os_disk_size_gb": 128}}}},
			// 0.192 + 9.60 / 730
			want: "0 -> 0.205151 (max 0.205151); priced in eastus",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rs := analyze(t, tplan{changes: []rc{tc.rc}}, Options{})
			if len(rs) != 1 {
				t.Fatalf("%d resources", len(rs))
			}
			checkInvariants(t, rs[0])
			if got := costView(rs[0]); got != tc.want {
				t.Errorf("cost = %s\nwant   %s", got, tc.want)
			}
			if s := rs[0].After; s != nil && strings.HasPrefix(s.ImageType, "WINDOWS") && (len(s.Disks) != 1 || s.Disks[0].SizeGiB != 50) {
				t.Errorf("a Windows node's disk: %+v, want EKS's 50 GiB", s.Disks)
			}
		})
	}
}

func TestPremiumCapable(t *testing.T) {
	t.Parallel()
	for size, want := range map[string]bool{"Standard_D16s_v5": true, "Standard_NC24ads_A100_v4": true, "Standard_D4_v5": false,
		"Standard_NC6s_v3": true, "Standard_ND96isr_H100_v5": true, "Standard_F8": false, "Standard_E16-4ds_v5": true, "weird": false} {
		if got := premiumCapable(size); got != want {
			t.Errorf("premiumCapable(%s) = %v, want %v", size, got, want)
		}
	}
}

// An ASG's or EKS node group's launch template's EBS volumes bill with
// each instance; a mapping without a size (the AMI's snapshot gives it)
// is listed, and a template that maps no volume adds none.
func TestLaunchTemplateDisks(t *testing.T) {
	t.Parallel()
	lt := func(mappings ...any) rc {
		return rc{addr: "aws_launch_template.gpu", actions: []string{"create"}, after: map[string]any{"id": "lt-0abc", "instance_type": "p3.2xlarge",
			"block_device_mappings": mappings}}
	}
	gp3 := func(size any) map[string]any {
		ebs := map[string]any{"volume_type": "gp3"}
		if size != nil {
			ebs["volume_size"] = size
		}
		return map[string]any{"device_name": "/dev/xvda", "ebs": []any{ebs}}
	}
	asg := rc{addr: "aws_autoscaling_group.gpu", actions: []string{"create"}, after: map[string]any{"name": "gpu", "min_size": 2, "max_size": 2,
		"desired_capacity": 2, "launch_template": []any{map[string]any{"id": "lt-0abc"}}}}
	eks := rc{addr: "aws_eks_node_group.gpu", actions: []string{"create"}, after: map[string]any{"node_group_name": "gpu", "instance_types": []any{"g5.xlarge"},
		"scaling_config": []any{map[string]any{"min_size": 2, "desired_size": 2, "max_size": 2}}, "launch_template": []any{map[string]any{"id": "lt-0abc"}}}}
	tests := map[string]struct {
		changes []rc
		addr    string
		want    string
	}{
		"an ASG's template maps a 200 GiB gp3 root volume": {
			changes: []rc{lt(gp3(200)), asg}, addr: "aws_autoscaling_group.gpu",
			// 2 x (3.06 + 200 x 0.08 / 730)
			want: "0 -> 6.163836 (max 6.163836); priced in us-east-1",
		},
		"an EKS node group's template, not disk_size": {
			changes: []rc{lt(gp3(100)), eks}, addr: "aws_eks_node_group.gpu",
			// 2 x (1.006 + 100 x 0.08 / 730)
			want: "0 -> 2.033918 (max 2.033918); priced in us-east-1",
		},
		"a mapping whose size comes from the AMI is listed, the fleet priced": {
			changes: []rc{lt(gp3(nil)), asg}, addr: "aws_autoscaling_group.gpu",
			want: "0 -> 6.12 (max 6.12); disk EBS volume /dev/xvda after: disk size known only after apply, or taken from the image; priced in us-east-1",
		},
		"its twin: a template that maps no volume adds none": {
			changes: []rc{lt(), asg}, addr: "aws_autoscaling_group.gpu",
			want: "0 -> 6.12 (max 6.12); priced in us-east-1",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			found := false
			for _, r := range analyze(t, tplan{providers: awsProvider("us-east-1"), changes: tc.changes}, Options{}) {
				if r.Address != tc.addr {
					continue
				}
				found = true
				checkInvariants(t, r)
				if got := costView(r); got != tc.want {
					t.Errorf("cost = %s\nwant   %s", got, tc.want)
				}
			}
			if !found {
				t.Errorf("no resource %s", tc.addr)
			}
		})
	}
}
