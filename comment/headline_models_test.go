package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// The headline names the GPU models that change as reviewers say them,
// each once: an A100 40GB and an A100 80GB are both "A100"; the roll-up
// by cost center adds them up under that name.
func TestHeadlineModelsShortAndOnce(t *testing.T) {
	t.Parallel()
	vm := func(name, typ string) string {
		return `{"address":"aws_instance.` + name + `","mode":"managed","type":"aws_instance","name":"` + name + `",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,
 "after":{"instance_type":"` + typ + `","availability_zone":"us-east-1a","tags":{"cost-center":"ml"}}}}`
	}
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[` +
		vm("a", "p4d.24xlarge") + "," + vm("b", "p4de.24xlarge") + "," + vm("c", "g5.xlarge") + `]}`
	p, err := planparse.Parse("models.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	md := Render(review.Build([]review.Input{{Name: "train", Environment: "prod", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{"**GPUs:** 0 → 17 (A100, A10G) · ", "| `ml` | none → 16 × A100, 1 × A10G | none → 16 × A100, 1 × A10G |"} {
		if !strings.Contains(md, want) {
			t.Errorf("want %q in:\n%s", want, md)
		}
	}
}
