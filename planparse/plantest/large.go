// Package plantest generates plan JSON for tests and benchmarks of the
// packages that read plans.
package plantest

import (
	"bytes"
	"fmt"
	"strings"
)

// Large returns a `terraform show -json` plan with n resource changes
// (about 1.4 KB each, so 20,000 make about 28 MB): a mix of AKS GPU node
// pools, AWS instances, SageMaker endpoint configs, S3 buckets and plain
// resources, over creates, updates, replaces and deletes, with prior
// state, planned values and configuration like a real plan.
func Large(n int) []byte {
	var rc, prior, planned, cfg bytes.Buffer
	actions := []string{`["create"]`, `["update"]`, `["delete","create"]`, `["delete"]`, `["no-op"]`, `["create","delete"]`}
	for i := 0; i < n; i++ {
		if i > 0 {
			rc.WriteByte(',')
			prior.WriteByte(',')
			planned.WriteByte(',')
		}
		act := actions[i%len(actions)]
		var typ, before, after string
		switch i % 5 {
		case 0:
			typ = "azurerm_kubernetes_cluster_node_pool"
			before = fmt.Sprintf(`{"name":"pool%d","vm_size":"Standard_NC24ads_A100_v4","node_count":2,"enable_auto_scaling":true,"min_count":1,"max_count":%d,"kubernetes_cluster_id":"/subscriptions/0000","node_labels":{"hardware":"gpu"},"node_taints":["sku=gpu:NoSchedule"],"tags":{"cost-center":"ml","team":"t%d"}}`, i, 4+i%7, i%13)
			after = fmt.Sprintf(`{"name":"pool%d","vm_size":"Standard_NC48ads_A100_v4","node_count":2,"enable_auto_scaling":true,"min_count":1,"max_count":%d,"kubernetes_cluster_id":"/subscriptions/0000","node_labels":{"hardware":"gpu"},"node_taints":["sku=gpu:NoSchedule"],"tags":{"cost-center":"ml","team":"t%d"}}`, i, 8+i%7, i%13)
		case 1:
			typ = "aws_instance"
			before = fmt.Sprintf(`{"ami":"ami-0abcdef1234567890","instance_type":"g5.2xlarge","availability_zone":"us-east-1a","tags":{"Name":"worker-%d","cost-center":"ml"}}`, i)
			after = fmt.Sprintf(`{"ami":"ami-0abcdef1234567890","instance_type":"p4d.24xlarge","availability_zone":"us-east-1a","tags":{"Name":"worker-%d","cost-center":"ml"}}`, i)
		case 2:
			typ = "aws_sagemaker_endpoint_configuration"
			before = fmt.Sprintf(`{"name":"cfg-%d","production_variants":[{"variant_name":"primary","model_name":"m%d","instance_type":"ml.g5.2xlarge","initial_instance_count":2,"initial_variant_weight":1}],"tags":{"cost-center":"serving"}}`, i, i)
			after = fmt.Sprintf(`{"name":"cfg-%d","production_variants":[{"variant_name":"primary","model_name":"m%d","instance_type":"ml.g5.4xlarge","initial_instance_count":3,"initial_variant_weight":1}],"tags":{"cost-center":"serving"}}`, i, i)
		case 3:
			typ = "aws_s3_bucket"
			before = fmt.Sprintf(`{"bucket":"ml-artifacts-%d","force_destroy":false,"tags":{"cost-center":"ml"},"arn":"arn:aws:s3:::ml-artifacts-%d","region":"us-east-1"}`, i, i)
			after = fmt.Sprintf(`{"bucket":"ml-artifacts-%d","force_destroy":false,"tags":{"cost-center":"ml","retention":"90d"},"arn":"arn:aws:s3:::ml-artifacts-%d","region":"us-east-1"}`, i, i)
		default:
			typ = "terraform_data"
			before = fmt.Sprintf(`{"id":"00000000-0000-0000-0000-%012d","input":{"step":%d},"output":{"step":%d},"triggers_replace":null}`, i, i, i)
			after = fmt.Sprintf(`{"id":"00000000-0000-0000-0000-%012d","input":{"step":%d},"output":{"step":%d},"triggers_replace":null}`, i, i+1, i+1)
		}
		b, a := before, after
		switch act {
		case `["create"]`:
			b = "null"
		case `["delete"]`:
			a = "null"
		}
		name := fmt.Sprintf("r%d", i)
		addr := fmt.Sprintf("module.m%d.%s.%s", i%50, typ, name)
		fmt.Fprintf(&rc, `{"address":%q,"module_address":"module.m%d","mode":"managed","type":%q,"name":%q,"provider_name":"registry.terraform.io/hashicorp/x","change":{"actions":%s,"before":%s,"after":%s,"after_unknown":{"id":true},"before_sensitive":{},"after_sensitive":{}}}`,
			addr, i%50, typ, name, act, b, a)
		fmt.Fprintf(&prior, `{"address":%q,"mode":"managed","type":%q,"name":%q,"provider_name":"registry.terraform.io/hashicorp/x","values":%s,"sensitive_values":{}}`, addr, typ, name, before)
		fmt.Fprintf(&planned, `{"address":%q,"mode":"managed","type":%q,"name":%q,"provider_name":"registry.terraform.io/hashicorp/x","values":%s,"sensitive_values":{}}`, addr, typ, name, after)
		if i < 5 { // one configuration block per resource type, as count would give
			if i > 0 {
				cfg.WriteByte(',')
			}
			fmt.Fprintf(&cfg, `{"address":"%s.r","mode":"managed","type":%q,"name":"r","provider_config_key":"x","expressions":{"name":{"constant_value":"r"}},"schema_version":0,"count_expression":{"constant_value":4000}}`, typ, typ)
		}
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, `{"format_version":"1.2","terraform_version":"1.9.8","timestamp":"2026-12-01T17:42:10Z","applyable":true,"complete":true,"errored":false,`+
		`"planned_values":{"root_module":{"resources":[%s]}},"resource_changes":[%s],`+
		`"prior_state":{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{"resources":[%s]}}},`+
		`"configuration":{"provider_config":{"x":{"name":"x","full_name":"registry.terraform.io/hashicorp/x","expressions":{"region":{"constant_value":"eastus"}}}},"root_module":{"resources":[%s]}}}`,
		planned.String(), rc.String(), prior.String(), cfg.String())
	return out.Bytes()
}

// Clusters returns a plan with n resource changes of a different mix from
// Large (about 1.3 KB per change): AKS GPU node pools whose parent
// clusters are only in prior_state (read as data sources, so infra looks
// them up there), VMs with sensitive passwords, buckets deleted, IAM
// policies, auto scaling groups whose launch templates are only in
// prior_state, SageMaker endpoints replaced onto configurations in
// planned_values, and many unchanged resources, as a large brownfield plan
// looks.
func Clusters(n int) []byte {
	var rc, prior, planned bytes.Buffer
	sep := func(b *bytes.Buffer) {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
	}
	res := func(b *bytes.Buffer, mode, addr, typ, name, values, sens string) {
		sep(b)
		fmt.Fprintf(b, `{"address":%q,"mode":%q,"type":%q,"name":%q,"provider_name":"registry.terraform.io/hashicorp/x","schema_version":0,"values":%s,"sensitive_values":%s}`,
			addr, mode, typ, name, values, sens)
	}
	clusters := max(1, n/1000)
	for k := 0; k < clusters; k++ {
		id := fmt.Sprintf("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/Microsoft.ContainerService/managedClusters/aks-%d", k)
		res(&prior, "data", fmt.Sprintf("data.azurerm_kubernetes_cluster.c%d", k), "azurerm_kubernetes_cluster", fmt.Sprintf("c%d", k),
			fmt.Sprintf(`{"id":%q,"name":"aks-%d","location":"westeurope","kubernetes_version":"1.30.3","kube_config_raw":"apiVersion: v1","tags":{"cost-center":"ml"}}`, id, k), `{"kube_config_raw":true}`)
		sep(&prior)
		fmt.Fprintf(&prior, `{"address":"aws_launch_template.lt%d","mode":"managed","type":"aws_launch_template","name":"lt%d","provider_name":"registry.terraform.io/hashicorp/aws","values":{"id":"lt-%017d","name":"gpu-%d","instance_type":"g5.12xlarge","image_id":"ami-0123456789abcdef0","user_data":"IyEvYmluL2Jhc2g="},"sensitive_values":{}}`, k, k, k, k)
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%d", i)
		module := fmt.Sprintf("module.team%d", i%40)
		var typ, act, before, after, bs, as, unk, extra string
		bs, as, unk = `{}`, `{}`, `{}`
		switch i % 10 {
		case 0:
			typ, act = "azurerm_kubernetes_cluster_node_pool", `["update"]`
			cl := fmt.Sprintf("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/Microsoft.ContainerService/managedClusters/aks-%d", i%clusters)
			before = fmt.Sprintf(`{"name":"gpu%d","vm_size":"Standard_NC24ads_A100_v4","node_count":1,"auto_scaling_enabled":true,"min_count":0,"max_count":4,"kubernetes_cluster_id":%q,"node_labels":{"accelerator":"nvidia"},"node_taints":["nvidia.com/gpu=present:NoSchedule"],"tags":{"cost-center":"ml"}}`, i, cl)
			after = strings.Replace(before, `"max_count":4`, `"max_count":8`, 1)
		case 1:
			typ, act = "azurerm_linux_virtual_machine", `["create"]`
			before = "null"
			after = fmt.Sprintf(`{"name":"vm-%d","size":"Standard_NC6s_v3","location":"eastus","admin_username":"azureuser","admin_password":"Sup3r-Secret-%d","custom_data":"I2Nsb3VkLWNvbmZpZw==","tags":{"cost-center":"research","owner":"team-%d"}}`, i, i, i%40)
			as = `{"admin_password":true,"custom_data":true,"tags":{}}`
			unk = `{"id":true,"private_ip_address":true,"public_ip_address":true}`
		case 2:
			typ, act = "aws_s3_bucket", `["delete"]`
			before = fmt.Sprintf(`{"bucket":"datasets-%d","force_destroy":false,"arn":"arn:aws:s3:::datasets-%d","region":"eu-west-1","tags":{"cost-center":"data"}}`, i, i)
			after = "null"
			extra = `,"action_reason":"delete_because_no_resource_config"`
		case 3:
			typ, act = "aws_iam_role_policy", `["update"]`
			pol := `{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":\"*\"}]}`
			wide := pol
			if i%50 == 3 {
				wide = `{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}`
			}
			before = fmt.Sprintf(`{"name":"p%d","role":"ml-runner","policy":"%s"}`, i, pol)
			after = fmt.Sprintf(`{"name":"p%d","role":"ml-runner","policy":"%s"}`, i, wide)
		case 4, 7, 9:
			typ, act = "aws_instance", `["no-op"]`
			before = fmt.Sprintf(`{"ami":"ami-0abcdef1234567890","instance_type":"m6i.large","availability_zone":"eu-west-1b","tags":{"Name":"svc-%d","cost-center":"platform"},"root_block_device":[{"volume_size":50,"volume_type":"gp3"}]}`, i)
			after = before
		case 5:
			typ, act = "aws_autoscaling_group", `["update"]`
			before = fmt.Sprintf(`{"name":"asg-%d","min_size":0,"max_size":4,"desired_capacity":1,"launch_template":[{"id":"lt-%017d","version":"$Latest","name":""}],"tags":[]}`, i, i%clusters)
			after = strings.Replace(before, `"max_size":4`, `"max_size":10`, 1)
		case 6:
			typ, act = "aws_sagemaker_endpoint", `["delete","create"]`
			before = fmt.Sprintf(`{"name":"serve-%d","endpoint_config_name":"cfg-%d-v1","tags":{"cost-center":"serving"}}`, i, i)
			after = fmt.Sprintf(`{"name":"serve-%d","endpoint_config_name":"cfg-%d-v2","tags":{"cost-center":"serving"}}`, i, i)
			extra = `,"action_reason":"replace_because_cannot_update"`
			res(&planned, "managed", fmt.Sprintf("%s.aws_sagemaker_endpoint_configuration.%s", module, name), "aws_sagemaker_endpoint_configuration", name,
				fmt.Sprintf(`{"name":"cfg-%d-v2","production_variants":[{"variant_name":"primary","model_name":"m%d","instance_type":"ml.g5.2xlarge","initial_instance_count":2}]}`, i, i), `{}`)
		case 8:
			typ, act = "aws_db_instance", `["update"]`
			before = fmt.Sprintf(`{"identifier":"db-%d","instance_class":"db.r6g.large","allocated_storage":100,"password":"db-pass-%d","username":"admin","tags":{"cost-center":"data"}}`, i, i)
			after = strings.Replace(before, `"allocated_storage":100`, `"allocated_storage":200`, 1)
			bs, as = `{"password":true,"tags":{}}`, `{"password":true,"tags":{}}`
		}
		addr := module + "." + typ + "." + name
		replace := ""
		if act == `["delete","create"]` {
			replace = `,"replace_paths":[["endpoint_config_name"]]`
		}
		sep(&rc)
		fmt.Fprintf(&rc, `{"address":%q,"module_address":%q,"mode":"managed","type":%q,"name":%q,"provider_name":"registry.terraform.io/hashicorp/x","change":{"actions":%s,"before":%s,"after":%s,"after_unknown":%s,"before_sensitive":%s,"after_sensitive":%s%s}%s}`,
			addr, module, typ, name, act, before, after, unk, bs, as, replace, extra)
		if before != "null" {
			res(&prior, "managed", addr, typ, name, before, bs)
		}
		if after != "null" {
			res(&planned, "managed", addr, typ, name, after, as)
		}
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, `{"format_version":"1.2","terraform_version":"1.9.8","timestamp":"2026-12-01T17:42:10Z","applyable":true,"complete":true,"errored":false,`+
		`"planned_values":{"outputs":{"db_password":{"sensitive":true,"value":"root-pass-0001"}},"root_module":{"resources":[%s]}},"resource_changes":[%s],`+
		`"output_changes":{"db_password":{"actions":["no-op"],"before":"root-pass-0001","after":"root-pass-0001","after_unknown":false,"before_sensitive":true,"after_sensitive":true}},`+
		`"prior_state":{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{"resources":[%s]}}},`+
		`"configuration":{"provider_config":{"azurerm":{"name":"azurerm","full_name":"registry.terraform.io/hashicorp/azurerm","expressions":{"features":[{}]}},"aws":{"name":"aws","full_name":"registry.terraform.io/hashicorp/aws","expressions":{"region":{"constant_value":"eu-west-1"}}}},"root_module":{}}}`,
		planned.String(), rc.String(), prior.String())
	return out.Bytes()
}
