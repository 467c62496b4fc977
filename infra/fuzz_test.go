package infra

import (
	"encoding/json"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// FuzzAnalyze feeds attribute values of any shape to every adapter: it
// must not panic, and a nil figure must always come with a reason.
// Seeds cover wrong types (numbers as strings, maps where lists belong).
func FuzzAnalyze(f *testing.F) {
	seeds := []string{
		`{"vm_size":"Standard_NC6s_v3","node_count":"2","location":"westeurope"}`,
		`{"default_node_pool":{"vm_size":1},"location":["x"]}`,
		`{"instance_type":"p4d.24xlarge","scaling_config":[{"min_size":-1,"max_size":-5,"desired_size":1e9}]}`,
		`{"production_variants":[{"instance_type":"ml.g5.xlarge","initial_instance_count":2,"serverless_config":{}}],"shadow_production_variants":"x"}`,
		`{"machine_type":"a2-highgpu-1g","zone":"us-central1-a","guest_accelerator":[{"type":"nvidia-tesla-a100","count":"one"}]}`,
		`{"node_config":[{"machine_type":"g2-standard-4"}],"autoscaling":[{"total_max_node_count":3}],"node_locations":{}}`,
		`{"launch_template":[{"id":"lt-1"}],"mixed_instances_policy":[{"launch_template":[{"override":[{}]}]}],"min_size":1,"max_size":2}`,
		`{"scale_settings":[{"min_node_count":2,"max_node_count":1}],"vm_size":"Standard_NC24ads_A100_v4"}`,
		`null`, `[]`, `"x"`,
	}
	types := SupportedTypes()
	for i, s := range seeds {
		f.Add(uint8(i), s, s)
	}
	f.Fuzz(func(t *testing.T, typ uint8, before, after string) {
		var b, a any
		if json.Unmarshal([]byte(before), &b) != nil || json.Unmarshal([]byte(after), &a) != nil {
			return
		}
		rt := types[int(typ)%len(types)]
		doc := map[string]any{"format_version": "1.2", "resource_changes": []any{
			map[string]any{"address": rt + ".x", "mode": "managed", "type": rt, "name": "x", "provider_name": providerOf(rt),
				"change": map[string]any{"actions": []string{"update"}, "before": b, "after": a}},
			map[string]any{"address": "aws_launch_template.lt", "mode": "managed", "type": "aws_launch_template", "name": "lt",
				"provider_name": providerOf("aws_"), "change": map[string]any{"actions": []string{"no-op"}, "before": b, "after": a}},
		}}
		data, err := json.Marshal(doc)
		if err != nil {
			return
		}
		p, err := planparse.Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, r := range Analyze(p, DefaultCatalog(), Options{DefaultRegion: "eastus"}) {
			checkInvariants(t, r)
		}
	})
}
