package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// Fleet GPUs of a side whose SKU or accelerated count is known only after
// apply read "unknown", never 0 (a GPU fleet shown dropping to 0); so do
// the nodes and fleet of an endpoint whose old configuration is not in the
// plan.
func TestFleetGPUsUnknownIsNotZero(t *testing.T) {
	const plan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[
{"address":"azurerm_linux_virtual_machine.v","mode":"managed","type":"azurerm_linux_virtual_machine","name":"v",
 "provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["update"],
 "before":{"name":"v","size":"Standard_NC24ads_A100_v4","location":"eastus"},
 "after":{"name":"v","location":"eastus"},"after_unknown":{"size":true}}},
{"address":"aws_eks_node_group.g","mode":"managed","type":"aws_eks_node_group","name":"g",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["update"],
 "before":{"node_group_name":"gpu","instance_types":["p4d.24xlarge"],"region":"us-east-1","scaling_config":[{"min_size":1,"desired_size":2,"max_size":4}]},
 "after":{"node_group_name":"gpu","instance_types":["p4d.24xlarge"],"region":"us-east-1","scaling_config":[{"desired_size":2,"max_size":4}]},
 "after_unknown":{"scaling_config":[{"min_size":true}]}}},
{"address":"aws_sagemaker_endpoint_configuration.new","mode":"managed","type":"aws_sagemaker_endpoint_configuration","name":"new",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,
 "after":{"name":"cfg-new","region":"us-east-1","production_variants":[{"variant_name":"main","instance_type":"ml.g5.2xlarge","initial_instance_count":2}]}}},
{"address":"aws_sagemaker_endpoint.e","mode":"managed","type":"aws_sagemaker_endpoint","name":"e",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["update"],
 "before":{"name":"llm","endpoint_config_name":"cfg-old","region":"us-east-1"},
 "after":{"name":"llm","endpoint_config_name":"cfg-new","region":"us-east-1"}}},
{"address":"google_compute_instance.g","mode":"managed","type":"google_compute_instance","name":"g",
 "provider_name":"registry.terraform.io/hashicorp/google","change":{"actions":["update"],
 "before":{"name":"g","machine_type":"n1-standard-8","zone":"us-central1-a","guest_accelerator":[{"type":"nvidia-tesla-t4","count":1}]},
 "after":{"name":"g","machine_type":"n1-standard-8","zone":"us-central1-a","guest_accelerator":[{"type":"nvidia-tesla-t4"}]},
 "after_unknown":{"guest_accelerator":[{"count":true}]}}}]}`
	p, err := planparse.Parse("unknown.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	body := Render(review.Build([]review.Input{{Name: "a", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{
		"| `azurerm_linux_virtual_machine.v` | `Standard_NC24ads_A100_v4` → unknown | NVIDIA A100 80GB PCIe × 1 → unknown | 1 / 1 / 1 | 1 → unknown |",
		"| `aws_eks_node_group.g` | `p4d.24xlarge` | NVIDIA A100 40GB × 8 | 1 / 2 / 4 → known after apply | 16 → unknown (at max 32 → unknown) |",
		"| `google_compute_instance.g` | `n1-standard-8` | NVIDIA T4 16GB × 1 → attached accelerator known after apply | 1 / 1 / 1 | 1 → unknown |",
		"| `aws_sagemaker_endpoint.e` | unknown → `ml.g5.2xlarge` | unknown → NVIDIA A10G 24GB × 1 | unknown → 2 / 2 / 2 | unknown → 2 |",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
}
