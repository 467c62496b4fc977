package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// A serving endpoint that bills other than by a VM rate is listed as not
// estimated with why; a type whose kind says enough (a firewall) is
// listed with its kind alone.
func TestNotEstimatedEndpointsSayWhy(t *testing.T) {
	t.Parallel()
	const plan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[
{"address":"google_vertex_ai_endpoint.e","mode":"managed","type":"google_vertex_ai_endpoint","name":"e",
 "provider_name":"registry.terraform.io/hashicorp/google","change":{"actions":["create"],"before":null,
 "after":{"name":"llm","location":"us-central1"}}},
{"address":"azurerm_firewall.hub","mode":"managed","type":"azurerm_firewall","name":"hub",
 "provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["create"],"before":null,
 "after":{"name":"hub","location":"eastus","sku_name":"AZFW_VNet","sku_tier":"Standard"}}}]}`
	p, err := planparse.Parse("endpoints.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	md := Render(review.Build([]review.Input{{Name: "serve", Environment: "prod", Plan: p}}, review.Options{}), Options{})
	want := "- Not estimated, left out of the figures: 1 × `google_vertex_ai_endpoint` (serving endpoint: bills the nodes of the models deployed to it, which the plan does not describe), 1 × `azurerm_firewall` (firewall)."
	if !strings.Contains(md, want) {
		t.Errorf("want %q in:\n%s", want, md)
	}
	if strings.Contains(md, "✅") {
		t.Errorf("a ✅ beside resources left out of the estimate:\n%s", md)
	}
}
