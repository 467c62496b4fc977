// Package plantest generates plan JSON for tests and benchmarks of the
// packages that read plans.
package plantest

import (
	"bytes"
	"fmt"
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
