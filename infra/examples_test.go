package infra

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// TestExamplePlans prices the lead's example plans (examples/plans) when
// they are present: what a reviewer of each PR must see.
func TestExamplePlans(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		file string
		// per address: "sku before -> sku after", hourly before -> after (max after), region
		want map[string][3]string
		// plan totals: before, after, delta, max after
		total [4]string
	}{
		"A100 pool scale-out: same hourly, max_count 5 -> 40": {
			file: "a100-scale-out.json",
			want: map[string][3]string{"azurerm_kubernetes_cluster_node_pool.a100": {"Standard_NC24ads_A100_v4 -> Standard_NC24ads_A100_v4", "7.546602 -> 7.546602 (max 150.93204)", "eastus"}},
			// 2 nodes, each with a 512 GiB Premium SSD OS disk (P20, 73.22 a month).
			total: [4]string{"7.546602", "7.546602", "0", "150.93204"},
		},
		"untagged A100 VM": {
			file: "a100-vm-no-tags.json",
			want: map[string][3]string{"azurerm_linux_virtual_machine.trainer": {"- -> Standard_NC24ads_A100_v4", "0 -> 3.858164 (max 3.858164)", "eastus"}},
			// its 1 TiB Premium SSD OS disk is P30: 135.17 a month, 0.185164 an hour.
			total: [4]string{"0", "3.858164", "3.858164", "3.858164"},
		},
		"AKS GPU pool vm_size typo": {
			file: "aks-gpu-typo.json",
			want: map[string][3]string{
				"azurerm_kubernetes_cluster.main":          {"Standard_D4s_v5 -> Standard_D4s_v5", "0.771 -> 0.771 (max 0.771)", "westeurope"},
				"azurerm_kubernetes_cluster_node_pool.gpu": {"Standard_NC6s_v3 -> Standard_D16s_v5", "7.750164 -> 1.944164 (max 3.888328)", "westeurope"},
			},
			// OS disks: P10 (128 GiB) on the system node, P15 (256 GiB) on each GPU node.
			total: [4]string{"8.521164", "2.715164", "-5.806", "4.659328"},
		},
		"bucket lifecycle has no compute": {
			file: "bucket-lifecycle.json", want: map[string][3]string{},
			total: [4]string{"nil", "nil", "nil", "nil"},
		},
		"SageMaker endpoint rename replaces the endpoint, config counted once": {
			file: "sagemaker-rename.json",
			want: map[string][3]string{
				"aws_sagemaker_endpoint_configuration.llm": {"ml.g5.2xlarge -> ml.g5.2xlarge", "3.03 -> 3.03 (max 3.03)", "us-east-1"},
				"aws_sagemaker_endpoint.llm":               {"ml.g5.2xlarge -> ml.g5.2xlarge", "3.03 -> 3.03 (max 3.03)", "us-east-1"},
			},
			total: [4]string{"3.03", "3.03", "0", "3.03"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := "../examples/plans/" + tc.file
			b, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				t.Skipf("%s is absent", path)
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := planparse.Parse(path, b)
			if err != nil {
				t.Fatal(err)
			}
			rs := Analyze(p, DefaultCatalog(), Options{})
			if len(rs) != len(tc.want) {
				t.Errorf("%d resources, want %d", len(rs), len(tc.want))
			}
			for _, r := range rs {
				checkInvariants(t, r)
				sku := func(s *Side) string {
					if s == nil {
						return "-"
					}
					return s.SKU
				}
				region := r.After
				if region == nil {
					region = r.Before
				}
				got := [3]string{sku(r.Before) + " -> " + sku(r.After),
					fmtPtr(r.Cost.HourlyBefore) + " -> " + fmtPtr(r.Cost.HourlyAfter) + " (max " + fmtPtr(r.Cost.MaxHourlyAfter) + ")", region.Region}
				if w, ok := tc.want[r.Address]; !ok || got != w {
					t.Errorf("%s = %q, want %q", r.Address, got, w)
				}
			}
			pc := Sum(rs)
			if got := [4]string{fmtPtr(pc.HourlyBefore), fmtPtr(pc.HourlyAfter), fmtPtr(pc.HourlyDelta), fmtPtr(pc.MaxHourlyAfter)}; got != tc.total {
				t.Errorf("Sum = %q, want %q", got, tc.total)
			}
		})
	}
}

// TestRealTerraformPlan: a plan from a real terraform binary, with reads,
// forgets and deposed objects of unsupported types, yields nothing and
// does not trip Analyze.
func TestRealTerraformPlan(t *testing.T) {
	t.Parallel()
	const path = "../planparse/testdata/terraform-real.json"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	p, err := planparse.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if rs := Analyze(p, nil, Options{DefaultRegion: "eastus"}); len(rs) != 0 {
		t.Errorf("Analyze = %d resources, want none (terraform_data only)", len(rs))
	}
}
