package review_test

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// A create_before_destroy replacement that left a deposed object lists one
// address twice: the replacement and the deposed object's delete. Each row
// carries its own change's SKUs and figures, not those of the other change
// at the same address.
func TestRowsOfADeposedObjectKeepTheirOwnFigures(t *testing.T) {
	t.Parallel()
	const prov = `"provider_name":"registry.terraform.io/hashicorp/aws"`
	p, err := planparse.Parse("deposed.json", []byte(`{"format_version":"1.2","resource_changes":[
		{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",`+prov+`,"change":{"actions":["create","delete"],
			"before":{"instance_type":"g5.xlarge","availability_zone":"us-east-1a"},"after":{"instance_type":"g5.2xlarge","availability_zone":"us-east-1a"}}},
		{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a","deposed":"00000001",`+prov+`,"change":{"actions":["delete"],
			"before":{"instance_type":"p3.2xlarge","availability_zone":"us-east-1a"},"after":null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rows := review.Build([]review.Input{{Name: "x", Plan: p}}, review.Options{}).Projects[0].Changes
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for i, want := range [][2]string{{"g5.xlarge", "g5.2xlarge"}, {"p3.2xlarge", ""}} {
		if got := [2]string{rows[i].SKUBefore(), rows[i].SKUAfter()}; got != want {
			t.Errorf("row %d (%s): SKUs %q, want %q", i, rows[i].Action(), got, want)
		}
	}
	if h := rows[1].HourlyAfter(); h == nil || *h != 0 {
		t.Errorf("the deposed object's delete costs %v per hour after; want 0", h)
	}
}
