package infra

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// bigPlan writes a plan of n changes: one in ten a supported compute type
// (AKS pools under one cluster, EC2 instances, SageMaker endpoints), the
// rest storage, IAM and network resources with realistic attribute bulk.
func bigPlan(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format_version":"1.2","terraform_version":"1.9.5","configuration":{"provider_config":{"aws":{"name":"aws","full_name":"registry.terraform.io/hashicorp/aws","expressions":{"region":{"constant_value":"us-east-1"}}}}},"resource_changes":[`)
	const id = "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/big"
	fmt.Fprintf(&b, `{"address":"azurerm_kubernetes_cluster.big","mode":"managed","type":"azurerm_kubernetes_cluster","name":"big","provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["no-op"],"before":{"id":%q,"location":"westeurope","default_node_pool":[{"name":"system","vm_size":"Standard_D4s_v5","node_count":3}]},"after":{"id":%q,"location":"westeurope","default_node_pool":[{"name":"system","vm_size":"Standard_D4s_v5","node_count":3}]}}}`, id, id)
	for i := 1; i < n; i++ {
		b.WriteByte(',')
		switch {
		case i%30 == 0:
			fmt.Fprintf(&b, `{"address":"azurerm_kubernetes_cluster_node_pool.p%d","mode":"managed","type":"azurerm_kubernetes_cluster_node_pool","name":"p%d","provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["delete","create"],"replace_paths":[["vm_size"]],"before":{"name":"p%d","kubernetes_cluster_id":%q,"vm_size":"Standard_NC6s_v3","enable_auto_scaling":true,"node_count":2,"min_count":0,"max_count":8,"node_labels":{"hardware":"gpu"},"node_taints":["nvidia.com/gpu=present:NoSchedule"],"tags":{"cost-center":"ml"}},"after":{"name":"p%d","kubernetes_cluster_id":%q,"vm_size":"Standard_D16s_v5","enable_auto_scaling":true,"node_count":2,"min_count":0,"max_count":8,"node_labels":{"hardware":"gpu"},"node_taints":["nvidia.com/gpu=present:NoSchedule"],"tags":{"cost-center":"ml"}}}}`, i, i, i, id, i, id)
		case i%30 == 10:
			fmt.Fprintf(&b, `{"address":"aws_instance.i%d","mode":"managed","type":"aws_instance","name":"i%d","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["update"],"before":{"instance_type":"g5.xlarge","tags":{"Name":"i%d"},"tags_all":{"Name":"i%d","cost-center":"ml"}},"after":{"instance_type":"p4d.24xlarge","tags":{"Name":"i%d"},"tags_all":{"Name":"i%d","cost-center":"ml"}}}}`, i, i, i, i, i, i)
		case i%30 == 20:
			fmt.Fprintf(&b, `{"address":"aws_sagemaker_endpoint_configuration.c%d","mode":"managed","type":"aws_sagemaker_endpoint_configuration","name":"c%d","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,"after":{"name":"cfg-%d","production_variants":[{"variant_name":"main","instance_type":"ml.g5.xlarge","initial_instance_count":2}]}}},`, i, i, i)
			fmt.Fprintf(&b, `{"address":"aws_sagemaker_endpoint.e%d","mode":"managed","type":"aws_sagemaker_endpoint","name":"e%d","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,"after":{"name":"ep-%d","endpoint_config_name":"cfg-%d"}}}`, i, i, i, i)
			i++
		default:
			fmt.Fprintf(&b, `{"address":"aws_s3_bucket.b%d","mode":"managed","type":"aws_s3_bucket","name":"b%d","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["update"],"before":{"bucket":"bucket-%d","tags":{"team":"data","env":"prod"},"versioning":[{"enabled":false,"mfa_delete":false}],"lifecycle_rule":[{"id":"expire","enabled":true,"expiration":[{"days":30}]}],"policy":"{\"Version\":\"2012-10-17\",\"Statement\":[]}"},"after":{"bucket":"bucket-%d","tags":{"team":"data","env":"prod","owner":"x"},"versioning":[{"enabled":true,"mfa_delete":false}],"lifecycle_rule":[{"id":"expire","enabled":true,"expiration":[{"days":30}]}],"policy":"{\"Version\":\"2012-10-17\",\"Statement\":[]}"},"after_unknown":{"arn":true}}}`, i, i, i, i)
		}
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// checkBig: every resource but the endpoint configurations (billed via
// their endpoints) is priced, and there are about 2 per 15 changes.
func checkBig(tb testing.TB, n int, rs []*Resource, pc PlanCost) {
	configs := 0
	for _, r := range rs {
		if r.Cost.BilledVia != "" {
			configs++
		}
	}
	if len(rs) < n*2/15 || pc.Priced != len(rs)-configs || pc.UnpricedResources != 0 || pc.HourlyDelta == nil {
		tb.Fatalf("big plan of %d: %d resources (%d configs), %d priced, %d unpriced, delta %s",
			n, len(rs), configs, pc.Priced, pc.UnpricedResources, fmtPtr(pc.HourlyDelta))
	}
}

// BenchmarkAnalyze20000 prices a parsed 20,000-change plan (Analyze + Sum).
// Parsing is outside the timer; values are decoded lazily, so each
// iteration parses a fresh plan with the timer stopped.
func BenchmarkAnalyze20000(b *testing.B) {
	data := bigPlan(20000)
	cat := DefaultCatalog()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p, err := planparse.Parse("big.json", data)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rs := Analyze(p, cat, Options{})
		pc := Sum(rs)
		b.StopTimer()
		checkBig(b, 20000, rs, pc)
		b.StartTimer()
	}
}

// BenchmarkParseAnalyze20000 is the same plan parsed and priced, the share
// of the foundation's review target (under ~0.6 s and 150 MB) this path takes.
func BenchmarkParseAnalyze20000(b *testing.B) {
	data := bigPlan(20000)
	cat := DefaultCatalog()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := planparse.Parse("big.json", data)
		if err != nil {
			b.Fatal(err)
		}
		Sum(Analyze(p, cat, Options{}))
	}
}

func TestBigPlanIsPriced(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("big.json", bigPlan(3000))
	if err != nil {
		t.Fatal(err)
	}
	rs := Analyze(p, DefaultCatalog(), Options{})
	checkBig(t, 3000, rs, Sum(rs))
}

// BenchmarkAnalyzeFoundationPlan prices the foundation issue's
// 20,000-change plan (planparse/plantest.Large): 12,000 of its changes
// are supported compute types. Parsing is outside the timer.
func BenchmarkAnalyzeFoundationPlan(b *testing.B) {
	benchAnalyzePlan(b, "large.json", plantest.Large(20000))
}

// BenchmarkAnalyzeClustersPlan prices the brownfield 20,000-change plan
// (planparse/plantest.Clusters): node pools whose clusters and launch
// templates are found in prior_state. Parsing is outside the timer.
func BenchmarkAnalyzeClustersPlan(b *testing.B) {
	benchAnalyzePlan(b, "clusters.json", plantest.Clusters(20000))
}

func benchAnalyzePlan(b *testing.B, name string, data []byte) {
	cat := DefaultCatalog()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p, err := planparse.Parse(name, data)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		pc := Sum(Analyze(p, cat, Options{}))
		b.StopTimer()
		if pc.Priced == 0 {
			b.Fatal("nothing priced")
		}
		b.StartTimer()
	}
}

// BenchmarkParseAnalyzeFoundationPlan is parse + Analyze + Sum of the same plan.
func BenchmarkParseAnalyzeFoundationPlan(b *testing.B) {
	data := plantest.Large(20000)
	cat := DefaultCatalog()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := planparse.Parse("large.json", data)
		if err != nil {
			b.Fatal(err)
		}
		Sum(Analyze(p, cat, Options{}))
	}
}
