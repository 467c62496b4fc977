package infra

import "testing"

// An Application Auto Scaling target scales the side of an endpoint it
// exists on: one created by the plan does not bound the fleet as it was,
// one destroyed does not bound it as it will be. The comment shows these
// maxima ("max $5.63/h -> $11.27/h").
func TestEndpointAutoscalingTargetPerSide(t *testing.T) {
	cfg := endpointConfig("cfg-a", []any{variant("main", "ml.g5.xlarge", 1)}, nil)
	ep := map[string]any{"name": "llm", "endpoint_config_name": "cfg-a"}
	const id = "endpoint/llm/variant/main"
	tests := map[string]struct {
		target                      rc
		before, maxBefore, maxAfter string
	}{
		"a target updated from 2..4 to 2..8 bounds each side": {
			target: rc{addr: "aws_appautoscaling_target.llm", actions: []string{"update"}, before: target(id, 2, 4), after: target(id, 2, 8)},
			before: "2.8168", maxBefore: "5.6336", maxAfter: "11.2672",
		},
		"a target created by the plan leaves the old fleet fixed": {
			target: rc{addr: "aws_appautoscaling_target.llm", actions: []string{"create"}, after: target(id, 1, 10)},
			before: "1.4084", maxBefore: "1.4084", maxAfter: "14.084",
		},
		"a target destroyed by the plan leaves the new fleet fixed": {
			target: rc{addr: "aws_appautoscaling_target.llm", actions: []string{"delete"}, before: target(id, 2, 4)},
			before: "2.8168", maxBefore: "5.6336", maxAfter: "1.4084",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tp := tplan{providers: awsProvider("us-east-1"), changes: []rc{
				{addr: "aws_sagemaker_endpoint_configuration.a", actions: []string{"no-op"}, before: cfg, after: cfg},
				{addr: "aws_sagemaker_endpoint.llm", actions: []string{"update"}, before: ep, after: ep},
				tc.target,
			}}
			var c Cost
			for _, r := range analyze(t, tp, Options{}) {
				if r.Address == "aws_sagemaker_endpoint.llm" {
					c = r.Cost
				}
			}
			if b, mb, ma := fmtPtr(c.HourlyBefore), fmtPtr(c.MaxHourlyBefore), fmtPtr(c.MaxHourlyAfter); b != tc.before || mb != tc.maxBefore || ma != tc.maxAfter {
				t.Errorf("endpoint cost: before %s (max %s), max after %s; want %s (max %s), max after %s", b, mb, ma, tc.before, tc.maxBefore, tc.maxAfter)
			}
		})
	}
}
