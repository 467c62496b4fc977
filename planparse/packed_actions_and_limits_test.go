package planparse

import (
	"errors"
	"strings"
	"testing"
)

// TestEveryActionListKeepsItsAction: a record packs its change's action
// list as an index of the common lists (or of the plan's odd ones); every
// common list, first and last included, and odd lists between them read
// back as the action the plan gives.
func TestEveryActionListKeepsItsAction(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, actions, want string }{
		{"noop", `"actions":["no-op"]`, "no-op "},
		{"odd1", `"actions":["create"],"actions":["delete"]`, "replace create-then-delete"},
		{"create", `"actions":["create"]`, "create "},
		{"update", `"actions":["update"]`, "update "},
		{"delete", `"actions":["delete"]`, "delete "},
		{"read", `"actions":["read"]`, "read "},
		{"odd2", `"actions":["delete"],"actions":["create"]`, "replace delete-then-create"},
		{"dc", `"actions":["delete","create"]`, "replace delete-then-create"},
		{"cd", `"actions":["create","delete"]`, "replace create-then-delete"},
		{"forget", `"actions":["forget"]`, "forget "},
		{"none", `"actions":[]`, "no-op "},
		{"absent", `"action_reason":"replace_by_request"`, "no-op "},
	}
	var changes []string
	for _, c := range cases {
		changes = append(changes, `{"address":"a.`+c.name+`","type":"a","name":"`+c.name+`","change":{`+c.actions+`,"before":{},"after":{}}}`)
	}
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[`+strings.Join(changes, ",")+`]}`)
	if len(p.Changes) != len(cases) {
		t.Fatalf("%d changes, want %d", len(p.Changes), len(cases))
	}
	for i, c := range cases {
		got := p.Changes[i]
		if got.Address != "a."+c.name || string(got.Action)+" "+string(got.ReplaceOrder) != c.want {
			t.Errorf("change %d: %s %s %s, want a.%s %s", i, got.Address, got.Action, got.ReplaceOrder, c.name, c.want)
		}
	}
}

// TestChangePackedUpToItsLimit: a change whose farthest value ends exactly
// where a record's spans reach (spanMax; lowered here) is read whole; one
// byte less of reach and Parse refuses it, naming the change's line and
// column.
func TestChangePackedUpToItsLimit(t *testing.T) {
	defer func(m uint64) { spanMax = m }(spanMax)
	change := `{"address":"a.c","type":"a","name":"c","change":{"actions":["create"],"before":null,"after":{"k":"` + strings.Repeat("v", 50) + `"}}}`
	plan := "{\"format_version\":\"1.2\",\n\"resource_changes\":[\n " + change + "]}"
	reach := uint64(strings.LastIndex(change, "}}}") + 1) // after's value ends at its closing brace

	spanMax = reach
	p, err := Parse("plan.json", []byte(plan))
	if err != nil {
		t.Fatalf("Parse with the spans reaching the change's end = %v", err)
	}
	if s, _ := p.Changes[0].After().Get("k").Str(); s != strings.Repeat("v", 50) {
		t.Errorf("after.k = %q", s)
	}

	spanMax = reach - 1
	_, err = Parse("plan.json", []byte(plan))
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrNotPlan || e.Line != 3 || e.Column != 2 || !strings.Contains(e.Detail, "4 GiB") {
		t.Fatalf("Parse with the spans one byte short = %v, want the change refused at 3:2", err)
	}
}
