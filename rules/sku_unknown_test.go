package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
)

// A SKU known only after apply is never judged by gpu-sku-loss,
// gpu-pool-sku or allowed-skus; sku-unknown says so where one of them
// would have judged it (GPUs before, a pool that declares itself GPU, an
// allow-list), blocking in protected environments. Each case read from a
// plan the way the CLI and the app read it (planparse, then infra), with
// its honest twin: the same change with the SKU known.
func TestSKUUnknown(t *testing.T) {
	t.Parallel()
	aks := func(before, after map[string]any, unknown map[string]any) change {
		return change{addr: "azurerm_kubernetes_cluster_node_pool.pool", actions: update, before: before, after: after, unknown: unknown}
	}
	tests := map[string]struct {
		env, cfg string
		ch       change
		chs      []change // several changes, for what a resource reads from another
		want     []string
	}{
		"a GPU instance whose instance_type becomes known after apply, in prod": {
			ch: change{addr: "aws_instance.train", actions: update,
				before: map[string]any{"instance_type": "p4d.24xlarge", "tags": map[string]any{"Name": "train"}},
				after:  map[string]any{"tags": map[string]any{"Name": "train"}}, unknown: map[string]any{"instance_type": true}},
			want: []string{"block sku-unknown aws_instance.train: VM `train` gets its SKU (`instance_type`) known only after apply, so planwarden cannot judge it: it has p4d.24xlarge (8 x A100) now, and may lose its GPUs"},
		},
		"the same outside a protected environment warns": {
			env: "staging",
			ch: change{addr: "aws_instance.train", actions: update,
				before: map[string]any{"instance_type": "p4d.24xlarge"}, after: map[string]any{}, unknown: map[string]any{"instance_type": true}},
			want: []string{"warn sku-unknown aws_instance.train: VM `train` gets its SKU (`instance_type`) known only after apply, so planwarden cannot judge it: it has p4d.24xlarge (8 x A100) now, and may lose its GPUs"},
		},
		"twin: the instance_type known (gpu-sku-loss judges it)": {
			ch: change{addr: "aws_instance.train", actions: update,
				before: map[string]any{"instance_type": "p4d.24xlarge"}, after: map[string]any{"instance_type": "m5.large"}},
		},
		"a CPU instance whose type becomes unknown judges nothing": {
			ch: change{addr: "aws_instance.web", actions: update,
				before: map[string]any{"instance_type": "m5.large"}, after: map[string]any{}, unknown: map[string]any{"instance_type": true}},
		},
		"a tainted GPU pool whose vm_size becomes unknown": {
			ch: aks(map[string]any{"name": "batch", "vm_size": "Standard_D4s_v5", "node_taints": []any{"sku=gpu:NoSchedule"}},
				map[string]any{"name": "batch", "node_taints": []any{"sku=gpu:NoSchedule"}}, map[string]any{"vm_size": true}),
			want: []string{"block sku-unknown azurerm_kubernetes_cluster_node_pool.pool: node pool `batch` gets its SKU (`vm_size`) known only after apply, so planwarden cannot judge it: it declares itself GPU (taint sku=gpu:NoSchedule)"},
		},
		"twin: the same pool without a GPU taint": {
			ch: aks(map[string]any{"name": "batch", "vm_size": "Standard_D4s_v5"}, map[string]any{"name": "batch"}, map[string]any{"vm_size": true}),
		},
		"a new VM of unknown size where allowed_skus is set": {
			cfg: "version: 1\nenvironments:\n  prod: {protected: true, allowed_skus: [Standard_NC*]}\n",
			ch: change{addr: "azurerm_linux_virtual_machine.box", actions: create,
				after: map[string]any{"name": "box"}, unknown: map[string]any{"size": true}},
			want: []string{"block sku-unknown azurerm_linux_virtual_machine.box: VM `box` gets its SKU (`size`) known only after apply, so planwarden cannot judge it: prod allows only Standard_NC*"},
		},
		"twin: the same VM without an allow-list": {
			ch: change{addr: "azurerm_linux_virtual_machine.box", actions: create,
				after: map[string]any{"name": "box"}, unknown: map[string]any{"size": true}},
		},
		"an EKS node group whose instance_types become unknown": {
			ch: change{addr: "aws_eks_node_group.gpu", actions: update,
				before:  map[string]any{"node_group_name": "ng", "instance_types": []any{"g5.xlarge"}, "scaling_config": []any{map[string]any{"min_size": 1, "desired_size": 1, "max_size": 1}}},
				after:   map[string]any{"node_group_name": "ng", "scaling_config": []any{map[string]any{"min_size": 1, "desired_size": 1, "max_size": 1}}},
				unknown: map[string]any{"instance_types": true}},
			want: []string{"block sku-unknown aws_eks_node_group.gpu: node pool `ng` gets its SKU (`instance_types`) known only after apply, so planwarden cannot judge it: it has g5.xlarge (1 x A10G) now, and may lose its GPUs"},
		},
		"a GCE instance whose attached GPUs become unknown": {
			ch: change{addr: "google_compute_instance.vm", actions: update,
				before:  map[string]any{"name": "vm", "zone": "us-central1-a", "machine_type": "n1-standard-8", "guest_accelerator": []any{map[string]any{"type": "nvidia-tesla-t4", "count": 1}}},
				after:   map[string]any{"name": "vm", "zone": "us-central1-a", "machine_type": "n1-standard-8", "guest_accelerator": []any{map[string]any{"type": "nvidia-tesla-t4"}}},
				unknown: map[string]any{"guest_accelerator": []any{map[string]any{"count": true}}}},
			want: []string{"block sku-unknown google_compute_instance.vm: VM `vm` gets its attached accelerators (`guest_accelerator`) known only after apply, so planwarden cannot judge it: it has n1-standard-8 (1 x T4 attached) now, and may lose its GPUs"},
		},
		"a SageMaker endpoint whose configuration becomes known after apply": {
			chs: []change{
				{addr: "aws_sagemaker_endpoint_configuration.old", actions: noop,
					before: map[string]any{"name": "llm-g5", "production_variants": []any{map[string]any{"variant_name": "main", "instance_type": "ml.g5.2xlarge", "initial_instance_count": 1}}},
					after:  map[string]any{"name": "llm-g5", "production_variants": []any{map[string]any{"variant_name": "main", "instance_type": "ml.g5.2xlarge", "initial_instance_count": 1}}}},
				{addr: "aws_sagemaker_endpoint.llm", actions: update,
					before: map[string]any{"name": "llm", "endpoint_config_name": "llm-g5"}, after: map[string]any{"name": "llm"},
					unknown: map[string]any{"endpoint_config_name": true}},
			},
			want: []string{"block sku-unknown aws_sagemaker_endpoint.llm: endpoint `llm` gets its SKU (`endpoint_config_name`) known only after apply, so planwarden cannot judge it: it has ml.g5.2xlarge (1 x A10G) now, and may lose its GPUs"},
		},
		"turned off": {
			cfg: "version: 1\nrules:\n  sku-unknown: {severity: off}\n",
			ch: change{addr: "aws_instance.train", actions: update,
				before: map[string]any{"instance_type": "p4d.24xlarge"}, after: map[string]any{}, unknown: map[string]any{"instance_type": true}},
		},
		"a delete judges nothing": {
			ch: change{addr: "aws_instance.train", actions: del, before: map[string]any{"instance_type": "p4d.24xlarge"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := tc.env
			if env == "" {
				env = "prod"
			}
			chs := tc.chs
			if chs == nil {
				chs = []change{tc.ch}
			}
			p := plan(t, false, chs...)
			res := mustConfig(t, tc.cfg).Evaluate([]Project{{Name: "ml", Environment: env, Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}, nil)
			got := lines(only(RuleSKUUnknown, res.Findings))
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sku-unknown findings (-want +got):\n%s", diff)
			}
		})
	}
}
