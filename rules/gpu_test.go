package rules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

// ruleCase is one table case of a built-in rule over hand-built resources.
type ruleCase struct {
	res  []*infra.Resource
	env  string
	cfg  string
	want []string
}

func runRuleCases(t *testing.T, rule string, tests map[string]ruleCase) {
	t.Helper()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := mustConfig(t, tc.cfg)
			env := tc.env
			if env == "" {
				env = "prod"
			}
			got := lines(only(rule, cfg.Evaluate([]Project{{Name: "ml", Environment: env, Resources: tc.res}}, nil).Findings))
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s findings (-want +got):\n%s", rule, diff)
			}
		})
	}
}

func TestGPUSKULoss(t *testing.T) {
	t.Parallel()
	runRuleCases(t, RuleGPUSKULoss, map[string]ruleCase{
		"GPU pool to CPU SKU": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gpu")), side(skuD16, named("gpu")))},
			want: []string{"block gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` loses its GPUs: Standard_NC6s_v3 (1 x V100) -> Standard_D16s_v5 (no GPU)"},
		},
		"VM named by its address when it has no name": {
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", side(skuA100), side(skuD4))},
			want: []string{"block gpu-sku-loss azurerm_linux_virtual_machine.trainer: VM `trainer` loses its GPUs: Standard_NC24ads_A100_v4 (1 x A100) -> Standard_D4s_v5 (no GPU)"},
		},
		"SageMaker endpoint configuration variant to CPU": {
			res: []*infra.Resource{{Address: "aws_sagemaker_endpoint_configuration.llm", Type: "aws_sagemaker_endpoint_configuration",
				Kind: infra.KindEndpointConfig, Before: side(skuG5, named("llm")), After: side(skuM5, named("llm"))}},
			want: []string{"block gpu-sku-loss aws_sagemaker_endpoint_configuration.llm: endpoint configuration `llm` loses its GPUs: ml.g5.2xlarge (1 x A10G) -> ml.m5.xlarge (no GPU)"},
		},
		"SageMaker endpoint moved to a CPU configuration": {
			res: []*infra.Resource{{Address: "aws_sagemaker_endpoint.llm", Type: "aws_sagemaker_endpoint",
				Kind: infra.KindEndpoint, Before: side(skuG5, named("llm-prod")), After: side(skuM5, named("llm-prod"))}},
			want: []string{"block gpu-sku-loss aws_sagemaker_endpoint.llm: endpoint `llm-prod` loses its GPUs: ml.g5.2xlarge (1 x A10G) -> ml.m5.xlarge (no GPU)"},
		},
		"severity lowered in staging": {
			env:  "staging",
			cfg:  "version: 1\nrules:\n  gpu-sku-loss:\n    environments:\n      staging: warn\n",
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gpu")), side(skuD16, named("gpu")))},
			want: []string{"warn gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` loses its GPUs: Standard_NC6s_v3 (1 x V100) -> Standard_D16s_v5 (no GPU)"},
		},
		"a name with a backtick is no name: a summary stands for it": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6, named("gp`u")), side(skuD16, named("gp`u")))},
			want: []string{"block gpu-sku-loss azurerm_kubernetes_cluster_node_pool.gpu: node pool `(text, 1 line)` loses its GPUs: Standard_NC6s_v3 (1 x V100) -> Standard_D16s_v5 (no GPU)"},
		},
		"turned off": {
			cfg: "version: 1\nrules:\n  gpu-sku-loss:\n    severity: off\n",
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6), side(skuD16))},
		},
		"GPU to another GPU": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6), side(skuA100))},
		},
		"CPU to CPU": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.cpu", side(skuD4), side(skuD16))},
		},
		"GPU pool deleted": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6), nil)},
		},
		"new SKU not in the catalog": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6), side(skuMystic))},
		},
		"new SKU known only after apply": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuNC6), &infra.Side{})},
		},
	})
}

func TestGPUPoolSKU(t *testing.T) {
	t.Parallel()
	runRuleCases(t, RuleGPUPoolSKU, map[string]ruleCase{
		"label hardware=gpu on a CPU SKU": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.workers", side(skuNC6, named("workers")),
				side(skuD16, named("workers"), labels("hardware", "gpu")))},
			want: []string{"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.workers: node pool `workers` declares itself GPU (label hardware=gpu) but gets Standard_D16s_v5, which has no GPU"},
		},
		"taint sku=gpu:NoSchedule": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.train", nil, side(skuD16, named("train"), taints("sku=gpu:NoSchedule")))},
			want: []string{"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.train: node pool `train` declares itself GPU (taint sku=gpu:NoSchedule) but gets Standard_D16s_v5, which has no GPU"},
		},
		"name gpupool": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.p", nil, side(skuD16, named("gpupool")))},
			want: []string{"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.p: node pool `gpupool` declares itself GPU (name gpupool) but gets Standard_D16s_v5, which has no GPU"},
		},
		"tag workload=gpu on a VM": {
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.box", nil, side(skuD4, tags("workload", "gpu")))},
			want: []string{"block gpu-pool-sku azurerm_linux_virtual_machine.box: VM `box` declares itself GPU (tag workload=gpu) but gets Standard_D4s_v5, which has no GPU"},
		},
		"label accelerator=nvidia-tesla-t4": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.inf", nil, side(skuD4, named("inf"), labels("accelerator", "nvidia-tesla-t4")))},
			want: []string{"block gpu-pool-sku azurerm_kubernetes_cluster_node_pool.inf: node pool `inf` declares itself GPU (label accelerator=nvidia-tesla-t4) but gets Standard_D4s_v5, which has no GPU"},
		},
		"EKS GPU image on a CPU instance type": {
			res: []*infra.Resource{{Address: "aws_eks_node_group.train", Type: "aws_eks_node_group", Kind: infra.KindNodePool,
				After: func() *infra.Side {
					s := side(infra.SKU{Cloud: "aws", Name: "m5.2xlarge", VCPU: 8, Known: true}, named("train"))
					s.ImageType = "AL2_x86_64_GPU"
					return s
				}()}},
			want: []string{"block gpu-pool-sku aws_eks_node_group.train: node pool `train` declares itself GPU (image AL2_x86_64_GPU) but gets m5.2xlarge, which has no GPU"},
		},
		"GPU pool with a GPU SKU": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu"), labels("hardware", "gpu")))},
		},
		"CPU pool without GPU marks": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.cpu", nil, side(skuD16, named("cpu"), labels("hardware", "cpu"), tags("team", "gpu-platform")))},
		},
		"label says gpu false": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.cpu", nil, side(skuD16, named("cpu"), labels("nvidia.com/gpu", "false")))},
		},
		"unknown SKU is not judged": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuMystic, named("gpu")))},
		},
		"deleted GPU pool": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(skuD16, named("gpu")), nil)},
		},
	})
}

func TestGPUPoolTaint(t *testing.T) {
	t.Parallel()
	gke := &infra.Resource{Address: "google_container_node_pool.gpu", Type: "google_container_node_pool", Kind: infra.KindNodePool,
		After: side(infra.SKU{Cloud: "gcp", Name: "a2-highgpu-1g", GPUCount: 1, GPUModel: "NVIDIA A100 40GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}, named("gpu"))}
	runRuleCases(t, RuleGPUPoolTaint, map[string]ruleCase{
		"GPU pool without taints": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu")))},
			want: []string{"warn gpu-pool-taint azurerm_kubernetes_cluster_node_pool.gpu: GPU node pool `gpu` on Standard_NC6s_v3 (1 x V100) has no NoSchedule taint, so any pod can be scheduled onto its GPU nodes"},
		},
		"GPU pool with only a PreferNoSchedule taint": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu"), taints("sku=gpu:PreferNoSchedule")))},
			want: []string{"warn gpu-pool-taint azurerm_kubernetes_cluster_node_pool.gpu: GPU node pool `gpu` on Standard_NC6s_v3 (1 x V100) has no NoSchedule taint, so any pod can be scheduled onto its GPU nodes"},
		},
		"blocks when configured": {
			cfg:  "version: 1\nrules:\n  gpu-pool-taint: {severity: block}\n",
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu")))},
			want: []string{"block gpu-pool-taint azurerm_kubernetes_cluster_node_pool.gpu: GPU node pool `gpu` on Standard_NC6s_v3 (1 x V100) has no NoSchedule taint, so any pod can be scheduled onto its GPU nodes"},
		},
		"GPU pool with sku=gpu:NoSchedule": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu"), taints("sku=gpu:NoSchedule")))},
		},
		"EKS style NO_SCHEDULE": {
			res: []*infra.Resource{pool("aws_eks_node_group.gpu", nil, side(skuNC6, taints("nvidia.com/gpu=true:NO_SCHEDULE")))},
		},
		"GKE taints GPU pools itself": {res: []*infra.Resource{gke}},
		"CPU pool without taints": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.cpu", nil, side(skuD16))},
		},
		"VM is not a pool": {
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", nil, side(skuA100))},
		},
	})
}

func TestRequiredTags(t *testing.T) {
	t.Parallel()
	runRuleCases(t, RuleRequiredTags, map[string]ruleCase{
		"new A100 VM without cost-center": {
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", nil, side(skuA100, named("trainer-01"), tags("team", "research")))},
			want: []string{"block required-tags azurerm_linux_virtual_machine.trainer: GPU VM `trainer-01` on Standard_NC24ads_A100_v4 (1 x A100) is created without the required `cost-center` tag"},
		},
		"empty cost-center counts as missing": {
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", side(skuA100, tags("cost-center", "ml")), side(skuA100, tags("cost-center", " ")))},
			want: []string{"block required-tags azurerm_linux_virtual_machine.trainer: GPU VM `trainer` on Standard_NC24ads_A100_v4 (1 x A100) changes without the required `cost-center` tag"},
		},
		"configured tags, two missing": {
			cfg:  "version: 1\nrules:\n  required-tags:\n    tags: [cost-center, owner, team]\n",
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(skuNC6, named("gpu"), tags("team", "ml")))},
			want: []string{"block required-tags azurerm_kubernetes_cluster_node_pool.gpu: GPU node pool `gpu` on Standard_NC6s_v3 (1 x V100) is created without the required `cost-center`, `owner` tags"},
		},
		"GCP label counts as the tag": {
			res: []*infra.Resource{{Address: "google_compute_instance.t", Type: "google_compute_instance", Kind: infra.KindVM,
				After: side(infra.SKU{Name: "a2-highgpu-1g", GPUCount: 1, GPUModel: "NVIDIA A100 40GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}, labels("cost-center", "ml"))}},
		},
		"tagged A100 VM": {
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", nil, side(skuA100, tags("cost-center", "ml-research")))},
		},
		"CPU VM without tags": {
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.web", nil, side(skuD4))},
		},
		"deleted GPU VM": {
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", side(skuA100), nil)},
		},
		"endpoint configuration billed through its endpoint": {
			res: []*infra.Resource{withCost(&infra.Resource{Address: "aws_sagemaker_endpoint_configuration.llm", Type: "aws_sagemaker_endpoint_configuration",
				Kind: infra.KindEndpointConfig, After: side(skuG5)}, infra.Cost{BilledVia: "aws_sagemaker_endpoint"})},
		},
		"no tags required": {
			cfg: "version: 1\nrules:\n  required-tags:\n    tags: []\n",
			res: []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", nil, side(skuA100))},
		},
	})
}

func TestRetiredSKU(t *testing.T) {
	t.Parallel()
	retired := skuNC6
	retired.Retired, retired.RetiredOn = true, "2025-09-30"
	runRuleCases(t, RuleRetiredSKU, map[string]ruleCase{
		"new pool on a retired SKU": {
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(retired, named("gpu")))},
			want: []string{"warn retired-sku azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` gets `Standard_NC6s_v3`, which its vendor retired on 2025-09-30: new capacity on it cannot be deployed"},
		},
		"moved to a retired SKU": {
			res:  []*infra.Resource{vm("azurerm_linux_virtual_machine.trainer", side(skuA100), side(retired))},
			want: []string{"warn retired-sku azurerm_linux_virtual_machine.trainer: VM `trainer` gets `Standard_NC6s_v3`, which its vendor retired on 2025-09-30: new capacity on it cannot be deployed"},
		},
		"raised to block in prod": {
			env:  "prod",
			cfg:  "version: 1\nrules:\n  retired-sku:\n    environments:\n      prod: block\n",
			res:  []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", nil, side(retired, named("gpu")))},
			want: []string{"block retired-sku azurerm_kubernetes_cluster_node_pool.gpu: node pool `gpu` gets `Standard_NC6s_v3`, which its vendor retired on 2025-09-30: new capacity on it cannot be deployed"},
		},
		"kept on the retired SKU it already had": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(retired, nodes(1, 2, 4)), side(retired, nodes(1, 2, 8)))},
		},
		"moved off a retired SKU": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(retired), side(skuA100))},
		},
		"retired pool deleted": {
			res: []*infra.Resource{pool("azurerm_kubernetes_cluster_node_pool.gpu", side(retired), nil)},
		},
	})
}

// Each required-tags finding's remedy names the tags its own resource
// lacks, also when the resource before it lacked others.
func TestRequiredTagsRemedyNamesTheMissingTags(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, "version: 1\nrules:\n  required-tags:\n    tags: [cost-center, team]\n")
	res := []*infra.Resource{
		vm("azurerm_linux_virtual_machine.a", nil, side(skuA100, tags("team", "ml"))),
		vm("azurerm_linux_virtual_machine.b", nil, side(skuA100)),
		vm("azurerm_linux_virtual_machine.c", nil, side(skuA100, tags("team", "ml"))),
	}
	got := remedyLeads(only(RuleRequiredTags, cfg.Evaluate([]Project{{Name: "ml", Environment: "dev", Resources: res}}, nil).Findings), " so its GPU spend")
	want := []string{
		"azurerm_linux_virtual_machine.a: Add `cost-center` to its tags (or the module's default tags)",
		"azurerm_linux_virtual_machine.b: Add `cost-center`, `team` to its tags (or the module's default tags)",
		"azurerm_linux_virtual_machine.c: Add `cost-center` to its tags (or the module's default tags)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("remedies (-want +got):\n%s", diff)
	}
}

// remedyLeads lists each finding's address and its remedy up to cut.
func remedyLeads(findings []Finding, cut string) []string {
	var out []string
	for _, f := range findings {
		lead, _, _ := strings.Cut(f.Remedy, cut)
		out = append(out, f.Address+": "+lead)
	}
	return out
}
