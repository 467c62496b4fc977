package comment

import (
	"os"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// A replacement and its deposed object's delete share one address: the
// comment says which row is the deposed object, in the GPU table and in the
// change list, and gives each its own SKU.
func TestDeposedObjectIsNamed(t *testing.T) {
	data, err := os.ReadFile("../planparse/testdata/deposed-replace.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("deposed-replace.json", data)
	if err != nil {
		t.Fatal(err)
	}
	body := Render(review.Build([]review.Input{{Name: "a", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{
		"| `aws_instance.a` | `g5.xlarge` → `g5.2xlarge` |",
		"| `aws_instance.a` (deposed `00000001`) | `p3.2xlarge` → — |",
		"| **replace** | `aws_instance.a` | `aws_instance` | SKU `g5.xlarge` → `g5.2xlarge`; priced in `us-east-1`; new one first |",
		"| **delete** | `aws_instance.a` | `aws_instance` | deposed object `00000001`; SKU `p3.2xlarge`; priced in `us-east-1` |",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
}
