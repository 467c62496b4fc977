package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// GPU capacity bought other than on demand says so: a capacity
// reservation is priced at on-demand and marked, a Capacity Block is paid
// up front (no hourly figure) and marked; an on-demand instance of the
// same type carries no mark.
func TestCapacityIsMarked(t *testing.T) {
	t.Parallel()
	const plan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[
{"address":"aws_ec2_capacity_reservation.p5","mode":"managed","type":"aws_ec2_capacity_reservation","name":"p5",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,
 "after":{"instance_type":"p5.48xlarge","instance_count":2,"instance_platform":"Linux/UNIX","availability_zone":"us-east-1a"}}},
{"address":"aws_instance.block","mode":"managed","type":"aws_instance","name":"block",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,
 "after":{"instance_type":"p5.48xlarge","availability_zone":"us-east-1a","instance_market_options":[{"market_type":"capacity-block"}]}}},
{"address":"aws_instance.plain","mode":"managed","type":"aws_instance","name":"plain",
 "provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,
 "after":{"instance_type":"p5.48xlarge","availability_zone":"us-east-1a"}}}]}`
	p, err := planparse.Parse("capacity.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	md := Render(review.Build([]review.Input{{Name: "train", Environment: "prod", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{
		"| `aws_ec2_capacity_reservation.p5` | — → `p5.48xlarge` | — → NVIDIA H100 80GB × 8 | — → 2 / 2 / 2 | 0 → 16 | — → \\$110.08 (capacity reservation: billed at the on-demand rate whether used or not) in `us-east-1` |",
		"| `aws_instance.block` | — → `p5.48xlarge` | — → NVIDIA H100 80GB × 8 | — → 1 / 1 / 1 | 0 → 8 | — → unknown (Capacity Block: paid up front for the block, not by the hour) |",
		"| create | `aws_instance.block` | `aws_instance` | SKU `p5.48xlarge`; Capacity Block: paid up front for the block, not by the hour |",
		"| `aws_instance.plain` | — → `p5.48xlarge` | — → NVIDIA H100 80GB × 8 | — → 1 / 1 / 1 | 0 → 8 | — → \\$55.04 in `us-east-1` |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("want %q in:\n%s", want, md)
		}
	}
}
