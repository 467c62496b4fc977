package planparse

import "strings"

// pulumiClassicTypes maps the classic (Terraform-bridged) providers' type
// tokens to the Terraform resource types they bridge: the compute, ML,
// storage, database and IAM types planwarden's readers and rules know.
// A change of one of these types is reported under its Terraform type,
// its values in Terraform's shape (terraformShape); its address keeps
// Pulumi's type.
var pulumiClassicTypes = map[string]string{
	// Azure (pulumi-azure, azurerm)
	"azure:containerservice/kubernetesCluster:KubernetesCluster":                 "azurerm_kubernetes_cluster",
	"azure:containerservice/kubernetesClusterNodePool:KubernetesClusterNodePool": "azurerm_kubernetes_cluster_node_pool",
	"azure:compute/linuxVirtualMachine:LinuxVirtualMachine":                      "azurerm_linux_virtual_machine",
	"azure:compute/windowsVirtualMachine:WindowsVirtualMachine":                  "azurerm_windows_virtual_machine",
	"azure:compute/virtualMachine:VirtualMachine":                                "azurerm_virtual_machine",
	"azure:compute/linuxVirtualMachineScaleSet:LinuxVirtualMachineScaleSet":      "azurerm_linux_virtual_machine_scale_set",
	"azure:compute/windowsVirtualMachineScaleSet:WindowsVirtualMachineScaleSet":  "azurerm_windows_virtual_machine_scale_set",
	"azure:compute/managedDisk:ManagedDisk":                                      "azurerm_managed_disk",
	"azure:machinelearning/computeCluster:ComputeCluster":                        "azurerm_machine_learning_compute_cluster",
	"azure:storage/account:Account":                                              "azurerm_storage_account",
	"azure:storage/container:Container":                                          "azurerm_storage_container",
	"azure:storage/share:Share":                                                  "azurerm_storage_share",
	"azure:mssql/server:Server":                                                  "azurerm_mssql_server",
	"azure:mssql/database:Database":                                              "azurerm_mssql_database",
	"azure:postgresql/flexibleServer:FlexibleServer":                             "azurerm_postgresql_flexible_server",
	"azure:mysql/flexibleServer:FlexibleServer":                                  "azurerm_mysql_flexible_server",
	"azure:cosmosdb/account:Account":                                             "azurerm_cosmosdb_account",
	"azure:keyvault/keyVault:KeyVault":                                           "azurerm_key_vault",
	"azure:authorization/assignment:Assignment":                                  "azurerm_role_assignment",
	"azure:core/resourceGroup:ResourceGroup":                                     "azurerm_resource_group",
	// AWS (pulumi-aws)
	"aws:ec2/instance:Instance":                                         "aws_instance",
	"aws:ec2/launchTemplate:LaunchTemplate":                             "aws_launch_template",
	"aws:ec2/capacityReservation:CapacityReservation":                   "aws_ec2_capacity_reservation",
	"aws:autoscaling/group:Group":                                       "aws_autoscaling_group",
	"aws:eks/cluster:Cluster":                                           "aws_eks_cluster",
	"aws:eks/nodeGroup:NodeGroup":                                       "aws_eks_node_group",
	"aws:sagemaker/endpoint:Endpoint":                                   "aws_sagemaker_endpoint",
	"aws:sagemaker/endpointConfiguration:EndpointConfiguration":         "aws_sagemaker_endpoint_configuration",
	"aws:sagemaker/notebookInstance:NotebookInstance":                   "aws_sagemaker_notebook_instance",
	"aws:s3/bucket:Bucket":                                              "aws_s3_bucket",
	"aws:s3/bucketV2:BucketV2":                                          "aws_s3_bucket",
	"aws:rds/instance:Instance":                                         "aws_db_instance",
	"aws:rds/cluster:Cluster":                                           "aws_rds_cluster",
	"aws:dynamodb/table:Table":                                          "aws_dynamodb_table",
	"aws:ebs/volume:Volume":                                             "aws_ebs_volume",
	"aws:efs/fileSystem:FileSystem":                                     "aws_efs_file_system",
	"aws:fsx/lustreFileSystem:LustreFileSystem":                         "aws_fsx_lustre_file_system",
	"aws:ecr/repository:Repository":                                     "aws_ecr_repository",
	"aws:opensearch/domain:Domain":                                      "aws_opensearch_domain",
	"aws:iam/role:Role":                                                 "aws_iam_role",
	"aws:iam/policy:Policy":                                             "aws_iam_policy",
	"aws:iam/rolePolicy:RolePolicy":                                     "aws_iam_role_policy",
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment":                 "aws_iam_role_policy_attachment",
	"aws:iam/userPolicyAttachment:UserPolicyAttachment":                 "aws_iam_user_policy_attachment",
	"aws:iam/groupPolicyAttachment:GroupPolicyAttachment":               "aws_iam_group_policy_attachment",
	"aws:bedrock/provisionedModelThroughput:ProvisionedModelThroughput": "aws_bedrock_provisioned_model_throughput",
	// Google Cloud (pulumi-gcp)
	"gcp:compute/instance:Instance":              "google_compute_instance",
	"gcp:compute/disk:Disk":                      "google_compute_disk",
	"gcp:compute/regionDisk:RegionDisk":          "google_compute_region_disk",
	"gcp:container/cluster:Cluster":              "google_container_cluster",
	"gcp:container/nodePool:NodePool":            "google_container_node_pool",
	"gcp:storage/bucket:Bucket":                  "google_storage_bucket",
	"gcp:sql/databaseInstance:DatabaseInstance":  "google_sql_database_instance",
	"gcp:sql/database:Database":                  "google_sql_database",
	"gcp:bigquery/dataset:Dataset":               "google_bigquery_dataset",
	"gcp:vertex/aiEndpoint:AiEndpoint":           "google_vertex_ai_endpoint",
	"gcp:vertex/aiIndexEndpoint:AiIndexEndpoint": "google_vertex_ai_index_endpoint",
}

// pulumiKubernetesKinds are the Kubernetes kinds of Pulumi's kubernetes
// provider read as a kubernetes_manifest (its state is the object).
var pulumiKubernetesKinds = map[string]bool{
	"Deployment": true, "StatefulSet": true, "Job": true, "DaemonSet": true, "NodePool": true,
}

// pulumiType is the type a change of Pulumi type token tok is reported
// under, and how its values are shaped: a classic provider's Terraform
// type (shapeTerraform), a Kubernetes workload or Karpenter NodePool as a
// kubernetes_manifest (shapeManifest), a Helm release as a helm_release
// (shapeHelm), else the token itself, a native provider's versioned
// module (azure-native:compute/v20240701:VirtualMachine) read as its
// unversioned one.
func pulumiType(tok string) (string, pulumiShape) {
	if tf, ok := pulumiClassicTypes[tok]; ok {
		return tf, shapeTerraform
	}
	parts := strings.Split(tok, ":")
	if len(parts) != 3 {
		return tok, shapeAsIs
	}
	if parts[0] == "kubernetes" {
		switch {
		case parts[1] == "helm.sh/v3" && parts[2] == "Release", parts[1] == "helm.sh/v4" && parts[2] == "Release":
			return "helm_release", shapeHelm
		case pulumiKubernetesKinds[parts[2]]:
			return "kubernetes_manifest", shapeManifest
		}
		return tok, shapeAsIs
	}
	if mod, ver, ok := strings.Cut(parts[1], "/"); ok && strings.HasSuffix(parts[0], "-native") && strings.HasPrefix(ver, "v") {
		return parts[0] + ":" + mod + ":" + parts[2], shapeAsIs
	}
	return tok, shapeAsIs
}

// pulumiShape says how a Pulumi state is turned into a change's value.
type pulumiShape int

const (
	shapeAsIs pulumiShape = iota
	shapeTerraform
	shapeManifest
	shapeHelm
)
