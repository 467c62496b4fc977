package planparse

import "testing"

// A change whose "actions" key is repeated reads as both lists together:
// a hand-edited plan cannot hide the delete of a replace behind a second
// key (the last list alone would read as a create), and a combination no
// Terraform writes is refused rather than read as one of its parts.
func TestRepeatedActionsKeyAddsUp(t *testing.T) {
	t.Parallel()
	plan := func(actions string) string {
		return `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu",
"change":{` + actions + `,"before":{},"after":{}}}]}`
	}
	p, err := Parse("plan.json", []byte(plan(`"actions":["delete"],"actions":["create"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Changes[0]; c.Action != ActionReplace || c.ReplaceOrder != DeleteThenCreate {
		t.Errorf("actions [delete] then [create]: %s %s, want a replace, delete first", c.Action, c.ReplaceOrder)
	}
	if _, err := Parse("plan.json", []byte(plan(`"actions":["update"],"actions":["delete"]`))); err == nil {
		t.Errorf("actions [update] then [delete]: no error, want unknown actions [update delete]")
	}
}
