package infra

import "testing"

// A scaling target whose resource_id is known only after apply is found by
// its reference to the endpoint; on an endpoint with several variants it
// scales only the variant it refers to, never every variant.
func TestEndpointTargetScalesOnlyItsVariant(t *testing.T) {
	t.Parallel()
	tags := map[string]string{"cost-center": "ml"}
	cfg := endpointConfig("cfg", []any{variant("main", "ml.g5.xlarge", 1), variant("side", "ml.g5.2xlarge", 1)}, nil)
	ep := map[string]any{"name": "llm", "endpoint_config_name": "cfg", "tags_all": map[string]any{"cost-center": "ml"}}
	plan := func(refs ...any) tplan {
		return tplan{providers: awsProvider("us-east-1"), changes: []rc{
			{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"create"}, after: cfg},
			{addr: "aws_sagemaker_endpoint.llm", actions: []string{"create"}, after: ep},
			{addr: "aws_appautoscaling_target.llm", actions: []string{"create"}, after: target("", 1, 10), unknown: map[string]any{"resource_id": true}}},
			config: []map[string]any{{"address": "aws_appautoscaling_target.llm", "mode": "managed", "type": "aws_appautoscaling_target", "name": "llm",
				"expressions": map[string]any{"resource_id": map[string]any{"references": append([]any{"aws_sagemaker_endpoint.llm.name", "aws_sagemaker_endpoint.llm"}, refs...)}}}}}
	}
	side := func(main Scale) *sview {
		return &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: main,
			GPUs: 2, MaxGPUs: float64(main.Max + 1), GPUModel: "NVIDIA A10G 24GB", Name: "llm", Tags: tags}
	}
	variantRef := func(i string) []any {
		return []any{"aws_sagemaker_endpoint_configuration.a.production_variants[" + i + "].variant_name",
			"aws_sagemaker_endpoint_configuration.a.production_variants[" + i + "]",
			"aws_sagemaker_endpoint_configuration.a.production_variants", "aws_sagemaker_endpoint_configuration.a"}
	}
	runAdapterCases(t, map[string]adapterCase{
		"naming no variant of two: scales neither": {
			plan: plan(),
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 2, Hourly: "0 -> 2.9234 (max 2.9234)", Overlap: "nil", After: side(fixed(1))},
		},
		"naming the second variant: scales it alone": {
			plan: plan(variantRef("1")...),
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 2, Hourly: "0 -> 2.9234 (max 16.5584)", Overlap: "nil",
				After: func() *sview { s := side(fixed(1)); s.MaxGPUs = 11; return s }()},
		},
		"naming the first variant: scales it alone": {
			plan: plan(variantRef("0")...),
			addr: "aws_sagemaker_endpoint.llm",
			want: rview{Kind: KindEndpoint, GroupsA: 2, Hourly: "0 -> 2.9234 (max 15.599)", Overlap: "nil", After: side(auto(1, 1, 10))},
		},
	})
}
