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

// Endpoints made with for_each: a target found by its reference scales the
// endpoint instance with its own key (for_each = the endpoints), or the one
// a static key names, never another instance.
func TestEndpointTargetScalesOnlyItsInstance(t *testing.T) {
	t.Parallel()
	tags := map[string]string{"cost-center": "ml"}
	cfg := endpointConfig("cfg", []any{variant("main", "ml.g5.xlarge", 1)}, nil)
	ep := func(name string) map[string]any {
		return map[string]any{"name": name, "endpoint_config_name": "cfg", "tags_all": map[string]any{"cost-center": "ml"}}
	}
	plan := func(target string, refs ...any) tplan {
		return tplan{providers: awsProvider("us-east-1"), changes: []rc{
			{addr: "aws_sagemaker_endpoint_configuration.c", actions: []string{"create"}, after: cfg},
			{addr: `aws_sagemaker_endpoint.e["a"]`, actions: []string{"create"}, after: ep("a")},
			{addr: `aws_sagemaker_endpoint.e["b"]`, actions: []string{"create"}, after: ep("b")},
			{addr: target, actions: []string{"create"}, after: map[string]any{"scalable_dimension": "sagemaker:variant:DesiredInstanceCount",
				"service_namespace": "sagemaker", "min_capacity": 1, "max_capacity": 10}, unknown: map[string]any{"resource_id": true}}},
			config: []map[string]any{{"address": "aws_appautoscaling_target.t", "mode": "managed", "type": "aws_appautoscaling_target", "name": "t",
				"expressions": map[string]any{"resource_id": map[string]any{"references": refs}}}}}
	}
	side := func(name string, s Scale) *sview {
		return &sview{SKU: "ml.g5.xlarge", Region: "us-east-1", Source: RegionFromProvider, Scale: s, GPUs: 1, MaxGPUs: float64(s.Max),
			GPUModel: "NVIDIA A10G 24GB", Name: name, Tags: tags}
	}
	scaled := func(name string) rview {
		return rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> 1.4084 (max 14.084)", Overlap: "nil", After: side(name, auto(1, 1, 10))}
	}
	fixedOne := func(name string) rview {
		return rview{Kind: KindEndpoint, GroupsA: 1, Hourly: "0 -> 1.4084 (max 1.4084)", Overlap: "nil", After: side(name, fixed(1))}
	}
	eachKey := []any{"aws_sagemaker_endpoint.e.name", "aws_sagemaker_endpoint.e"}
	staticB := []any{`aws_sagemaker_endpoint.e["b"].name`, `aws_sagemaker_endpoint.e["b"]`, "aws_sagemaker_endpoint.e"}
	runAdapterCases(t, map[string]adapterCase{
		"each.key target of a: a scales":   {plan: plan(`aws_appautoscaling_target.t["a"]`, eachKey...), addr: `aws_sagemaker_endpoint.e["a"]`, want: scaled("a")},
		"each.key target of a: b does not": {plan: plan(`aws_appautoscaling_target.t["a"]`, eachKey...), addr: `aws_sagemaker_endpoint.e["b"]`, want: fixedOne("b")},
		"static key b: b scales":           {plan: plan("aws_appautoscaling_target.t", staticB...), addr: `aws_sagemaker_endpoint.e["b"]`, want: scaled("b")},
		"static key b: a does not":         {plan: plan("aws_appautoscaling_target.t", staticB...), addr: `aws_sagemaker_endpoint.e["a"]`, want: fixedOne("a")},
	})
}
