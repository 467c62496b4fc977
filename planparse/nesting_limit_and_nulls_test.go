package planparse

import (
	"errors"
	"strings"
	"testing"
)

// TestNestingLimitCountsEveryLevel: a plan nested deeper than MaxDepth
// levels is refused and one nested exactly MaxDepth deep is read, wherever
// the deep value sits: under a key the reader does not know at the top, in
// a resource change, its change, its importing block or a deferred change,
// or under one it reads as raw JSON. The levels around the value count.
func TestNestingLimitCountsEveryLevel(t *testing.T) {
	t.Parallel()
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	const rc = `"address":"a.b","type":"a","name":"b"`
	for what, loc := range map[string]struct {
		around int // containers enclosing the value
		plan   func(x string) string
	}{
		"unknown top-level key": {1, func(x string) string { return `{"format_version":"1.2","resource_changes":[],"zz":` + x + `}` }},
		"resource change index": {3, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[{` + rc + `,"index":` + x + `,"change":{"actions":["create"],"after":{}}}]}`
		}},
		"unknown key of a resource change": {3, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[{` + rc + `,"zz":` + x + `,"change":{"actions":["create"],"after":{}}}]}`
		}},
		"after_unknown": {4, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[{` + rc + `,"change":{"actions":["create"],"after":{},"after_unknown":` + x + `}}]}`
		}},
		"unknown key of a change": {4, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[{` + rc + `,"change":{"actions":["create"],"after":{},"zz":` + x + `}}]}`
		}},
		"unknown key of importing": {5, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[{` + rc + `,"change":{"actions":["create"],"after":{},"importing":{"id":"x","zz":` + x + `}}}]}`
		}},
		"unknown key of a deferred change": {3, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[],"deferred_changes":[{"reason":"absent_prereq","zz":` + x + `,"resource_change":{` + rc + `,"change":{"actions":["create"],"after":{}}}}]}`
		}},
		"unknown key of a deferred resource change": {4, func(x string) string {
			return `{"format_version":"1.2","resource_changes":[],"deferred_changes":[{"reason":"absent_prereq","resource_change":{` + rc + `,"zz":` + x + `,"change":{"actions":["create"],"after":{}}}}]}`
		}},
	} {
		n := MaxDepth - loc.around
		if _, err := Parse("plan.json", []byte(loc.plan(nest(n)))); err != nil {
			t.Errorf("%s: %d levels in all: %v", what, MaxDepth, err)
		}
		_, err := Parse("plan.json", []byte(loc.plan(nest(n+1))))
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Detail, "nested deeper than 256 levels") {
			t.Errorf("%s: %d levels in all: %v, want refused as nested too deep", what, MaxDepth+1, err)
		}
	}
}

// TestNullFields: null where the reader expects an object, a list, a
// string or a bool reads as the field left out, and the fields after it
// are still read.
func TestNullFields(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","errored":null,"output_changes":null,"resource_changes":[
{"address":"aws_instance.a","previous_address":null,"deposed":null,"mode":"managed","type":"aws_instance","name":"a",
 "change":{"importing":null,"replace_paths":null,"actions":["update"],"before":{"instance_type":"g5.xlarge"},"after":{"instance_type":"g5.2xlarge"},"after_unknown":{}}},
{"address":"aws_instance.gone","type":"aws_instance","name":"gone","change":null}],
"deferred_changes":[{"resource_change":null,"reason":"absent_prereq"},{"reason":"instance_count_unknown","resource_change":{"address":"aws_instance.c","type":"aws_instance","name":"c","change":{"actions":["create"],"before":null,"after":{"instance_type":"p5.48xlarge"}}}}],
"complete":false}`)
	var got []string
	for _, c := range p.Changes {
		got = append(got, c.Address+" "+string(c.Action)+" "+c.Before().Get("instance_type").Display()+" -> "+c.After().Get("instance_type").Display())
	}
	if !strings.HasPrefix(strings.Join(got, "; "), "aws_instance.a update g5.xlarge -> g5.2xlarge") {
		t.Errorf("changes: %q", got)
	}
	if d := p.Deferred; len(d) != 2 || d[1].Change.Address != "aws_instance.c" || d[1].Reason != "its count or for_each is not known yet" || d[0].Reason != "a resource it needs does not exist yet" {
		for _, x := range d {
			t.Errorf("deferred: %q %+v", x.Reason, x.Change)
		}
	}
	if p.Complete == nil || *p.Complete {
		t.Errorf("complete = %v, want false (read after the nulls)", p.Complete)
	}
}
