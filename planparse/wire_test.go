package planparse

import (
	"errors"
	"strings"
	"testing"
)

// TestChangeTooBigToPack refuses a resource change whose values reach past
// what a record packs (4 GiB; lowered here), naming the change's line and
// column, where a record would keep a wrong span.
func TestChangeTooBigToPack(t *testing.T) {
	defer func(m uint64) { spanMax = m }(spanMax)
	spanMax = 200
	small := `{"address":"a.b","type":"a","name":"b","change":{"actions":["create"],"before":null,"after":{"k":"v"}}}`
	big := `{"address":"a.c","type":"a","name":"c","change":{"actions":["create"],"before":null,"after":{"k":"` + strings.Repeat("v", 300) + `"}}}`
	plan := "{\"format_version\":\"1.2\",\n\"resource_changes\":[" + small + ",\n  " + big + "]}"
	_, err := Parse("plan.json", []byte(plan))
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrNotPlan || e.Line != 3 || e.Column != 3 || !strings.Contains(e.Detail, "4 GiB") {
		t.Fatalf("Parse = %v, want a 4 GiB change refused at 3:3", err)
	}
	spanMax = 1 << 32
	p, err := Parse("plan.json", []byte(plan))
	if err != nil || len(p.Changes) != 2 {
		t.Fatalf("Parse = %v: the big change not read", err)
	}
	if s, _ := p.Changes[1].After().Get("k").Str(); s != strings.Repeat("v", 300) {
		t.Fatalf("the big change's after.k = %q", s)
	}
}

// TestOddActionListsKeepTheirChange reads two changes whose action lists
// are no common list (repeated keys add up): each keeps its own.
func TestOddActionListsKeepTheirChange(t *testing.T) {
	t.Parallel()
	change := func(name, actions string) string {
		return `{"address":"a.` + name + `","type":"a","name":"` + name + `","change":{` + actions + `,"before":{},"after":{}}}`
	}
	plan := `{"format_version":"1.2","resource_changes":[` + change("x", `"actions":["delete"],"actions":["create"]`) + "," +
		change("y", `"actions":["update"]`) + "," + change("z", `"actions":["create"],"actions":["delete"]`) + `]}`
	p, err := Parse("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, c := range p.Changes {
		got += c.Address + " " + string(c.Action) + " " + string(c.ReplaceOrder) + "; "
	}
	if want := "a.x replace delete-then-create; a.y update ; a.z replace create-then-delete; "; got != want {
		t.Errorf("changes: %s\nwant     %s", got, want)
	}
}
