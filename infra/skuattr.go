package infra

import "strings"

// skuAttributes names, for each supported resource type, the attribute
// its SKU is read from, as a reviewer finds it in the Terraform code (or
// the ARM payload). TestEverySupportedTypeNamesItsSKUAttribute keeps it
// in step with the adapters.
var skuAttributes = map[string]string{
	"azurerm_kubernetes_cluster":                "default_node_pool.vm_size",
	"azurerm_kubernetes_cluster_node_pool":      "vm_size",
	"azurerm_linux_virtual_machine":             "size",
	"azurerm_windows_virtual_machine":           "size",
	"azurerm_virtual_machine":                   "vm_size",
	"azurerm_linux_virtual_machine_scale_set":   "sku",
	"azurerm_windows_virtual_machine_scale_set": "sku",
	"azurerm_machine_learning_compute_cluster":  "vm_size",
	"aws_instance":                              "instance_type",
	"aws_eks_node_group":                        "instance_types",
	"aws_autoscaling_group":                     "launch_template",
	"aws_sagemaker_endpoint_configuration":      "production_variants.instance_type",
	"aws_sagemaker_endpoint":                    "endpoint_config_name",
	"aws_sagemaker_notebook_instance":           "instance_type",
	"google_compute_instance":                   "machine_type",
	"google_container_node_pool":                "node_config.machine_type",
	"aws_spot_instance_request":                 "instance_type",
	"aws_ec2_capacity_reservation":              "instance_type",
	"aws_ec2_capacity_block_reservation":        "instance_type",
	"aws_ebs_volume":                            "type",
	"azurerm_managed_disk":                      "storage_account_type",
	"google_compute_disk":                       "type",
	"azapi_resource":                            "body.properties.instanceType",

	// Pulumi's native providers (the classic ones read as Terraform's types).
	"azure-native:compute:VirtualMachine":          "hardwareProfile.vmSize",
	"azure-native:compute:VirtualMachineScaleSet":  "sku.name",
	"azure-native:containerservice:ManagedCluster": "agentPoolProfiles.vmSize",
	"azure-native:containerservice:AgentPool":      "vmSize",
	"aws-native:ec2:Instance":                      "instanceType",
	"aws-native:eks:Nodegroup":                     "instanceTypes",
	"aws-native:sagemaker:EndpointConfig":          "productionVariants.instanceType",
	"aws-native:sagemaker:Endpoint":                "endpointConfigName",
	"google-native:container:NodePool":             "config.machineType",

	// Workloads request GPUs; a Karpenter NodePool allows instance families.
	"kubernetes_deployment":      "spec.template.spec.container.resources.limits",
	"kubernetes_deployment_v1":   "spec.template.spec.container.resources.limits",
	"kubernetes_stateful_set":    "spec.template.spec.container.resources.limits",
	"kubernetes_stateful_set_v1": "spec.template.spec.container.resources.limits",
	"kubernetes_daemonset":       "spec.template.spec.container.resources.limits",
	"kubernetes_daemon_set_v1":   "spec.template.spec.container.resources.limits",
	"kubernetes_job":             "spec.template.spec.container.resources.limits",
	"kubernetes_job_v1":          "spec.template.spec.container.resources.limits",
	"kubernetes_manifest":        "manifest.spec (resources.limits, or a NodePool's requirements)",
	"helm_release":               "values (resources.limits)",

	"Microsoft.Compute/virtualMachines":                                        "properties.hardwareProfile.vmSize",
	"Microsoft.Compute/virtualMachineScaleSets":                                "sku.name",
	"Microsoft.ContainerService/managedClusters":                               "properties.agentPoolProfiles.vmSize",
	"Microsoft.ContainerService/managedClusters/agentPools":                    "properties.vmSize",
	"Microsoft.MachineLearningServices/workspaces/computes":                    "properties.properties.vmSize",
	"Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments": "properties.instanceType",
}

// SKUAttribute names the attribute of a supported resource type that
// holds its SKU, or points at what does (an EKS node group's
// instance_types, else its launch template; an ASG's launch_template; a
// SageMaker endpoint's endpoint_config_name), as a reviewer finds it in
// the code: "vm_size", "node_config.machine_type". It is "" for a type
// planwarden does not read. ARM types match in any case.
func SKUAttribute(typ string) string {
	if a, ok := skuAttributes[typ]; ok {
		return a
	}
	for t, a := range skuAttributes {
		if strings.Contains(t, "/") && strings.EqualFold(t, typ) {
			return a
		}
	}
	return ""
}

// AttachedUnknown reports whether the type or count of an accelerator
// attached to the group (GCP guest_accelerator) is known only after
// apply: the group's GPUs are then unknown.
func (g *Group) AttachedUnknown() bool {
	for _, a := range g.Attached {
		if a.Type == unknownAccelerator {
			return true
		}
	}
	return false
}
