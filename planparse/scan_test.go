package planparse

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nested builds a plan whose one change's after value nests depth levels.
func nested(depth int) []byte {
	v := func(leaf string) string {
		return strings.Repeat(`{"a":[`, depth/2) + leaf + strings.Repeat(`]}`, depth/2)
	}
	return []byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["update"],"before":` + v("1") + `,"after":` + v("2") + `}}]}`)
}

func TestNestingLimit(t *testing.T) {
	t.Parallel()
	t.Run("2 KB of nesting is refused with the place it goes too deep", func(t *testing.T) {
		data := []byte(`{"format_version":"1.2","x":` + strings.Repeat("[", 2048) + strings.Repeat("]", 2048) + `}`)
		_, err := Parse("deep.json", data)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrNotPlan) {
			t.Fatalf("want a not-a-plan *Error, got %v", err)
		}
		// The value opens at column 29; the 256th bracket is the first too deep.
		if pe.Line != 1 || pe.Column != 28+MaxDepth {
			t.Errorf("error at %d:%d, want 1:%d", pe.Line, pe.Column, 28+MaxDepth)
		}
		if !strings.Contains(err.Error(), "deep.json:1:") || !strings.Contains(err.Error(), "deeper than 256 levels") {
			t.Errorf("error %q does not say where and what", err)
		}
	})
	t.Run("a value nested deep inside a change counts from the document root", func(t *testing.T) {
		if _, err := Parse("deep.json", nested(MaxDepth)); err == nil {
			t.Fatal("a change value nesting 256 levels under the plan's own 5 was accepted")
		}
	})
	t.Run("deep but within the limit is read and diffed", func(t *testing.T) {
		p, err := Parse("ok.json", nested(240))
		if err != nil {
			t.Fatal(err)
		}
		d := p.Changes[0].Diff()
		if len(d) != 1 || !strings.HasSuffix(d[0].Path, "a[0]") || d[0].After.Display() != "2" {
			t.Errorf("diff = %+v", d)
		}
	})
}

// TestSyntaxErrors: what encoding/json refuses is refused, at the byte
// where it goes wrong.
func TestSyntaxErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   string
		line int
		col  int
		says string
	}{
		"missing value":        {"{\"format_version\":}", 1, 19, "looking for beginning of value"},
		"bad escape":           {"{\"a\":\"\\x\"}", 1, 8, "string escape"},
		"control character":    {"{\"a\":\"x\ny\"}", 1, 8, "in string literal"},
		"leading zero":         {"{\"a\":01}", 1, 7, "after object key:value pair"},
		"bad literal":          {"{\n \"a\": tru }", 2, 10, "in literal true"},
		"trailing comma":       {"{\"a\":[1,]}", 1, 9, "looking for beginning of value"},
		"truncated":            {"{\"format_version\":\"1.2\",\"resource_changes\":[{", 1, 46, "unexpected end"},
		"truncated in a list":  {"{\"format_version\":\"1.2\",\"resource_changes\":[", 1, 45, "unexpected end"},
		"truncated at a value": {"{\"format_version\":\"1.2\",\"output_changes\":", 1, 42, "unexpected end"},
		"unterminated string":  {"{\"a\":\"abc", 1, 10, "unexpected end"},
		"text after":           {"{}\n{}", 2, 1, "more than one JSON document"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if json.Valid([]byte(tc.in)) {
				t.Fatalf("encoding/json accepts %q", tc.in)
			}
			_, err := Parse("bad.json", []byte(tc.in))
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrNotJSON) {
				t.Fatalf("want ErrNotJSON, got %v", err)
			}
			if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("got %d:%d %q, want %d:%d saying %q", pe.Line, pe.Column, err, tc.line, tc.col, tc.says)
			}
		})
	}
}

// TestKindErrors: a field of the wrong kind names the field and where it is.
func TestKindErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   string
		says string
	}{
		"resource_changes an object": {`{"format_version":"1.2","resource_changes":{}}`, `field "resource_changes" holds an object where a plan has a list`},
		"address a number":           {`{"format_version":"1.2","resource_changes":[{"address":5}]}`, `field "address" holds a number where a plan has a string`},
		"errored a string":           {`{"format_version":"1.2","errored":"yes"}`, `field "errored" holds a string where a plan has true or false`},
		"change a list":              {`{"format_version":"1.2","resource_changes":[{"address":"a.b","change":[]}]}`, `field "change" holds an array where a plan has an object`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("kind.json", []byte(tc.in))
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrNotPlan) {
				t.Fatalf("want ErrNotPlan, got %v", err)
			}
			if pe.Line != 1 || pe.Column == 0 || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("got %q at %d:%d, want it to say %q with a position", err, pe.Line, pe.Column, tc.says)
			}
		})
	}
}

// TestExtraFieldsKept: top-level fields planparse does not model stay
// available, unbuilt, for the readers of newer format parts.
func TestExtraFieldsKept(t *testing.T) {
	t.Parallel()
	w, err := readPlan([]byte(`{"format_version":"1.2","newer_section":[{"address":"action.a"}],"relevant_attributes":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(w.Extra["newer_section"]); got != `[{"address":"action.a"}]` {
		t.Errorf("newer_section = %q", got)
	}
}

// TestStateLookups: prior_state and planned_values are found by address
// and by type, root module first, with the plan's sensitivity applied.
func TestStateLookups(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "state.json", `{"format_version":"1.2","resource_changes":[],
	 "prior_state":{"format_version":"1.0","values":{"root_module":{
	   "resources":[{"address":"aws_s3_bucket.a","mode":"managed","type":"aws_s3_bucket","name":"a","values":{"bucket":"one"}},
	                {"address":"aws_db_instance.d","mode":"managed","type":"aws_db_instance","name":"d","values":{"identifier":"db","master_user_secret":"hunter2-secret"},"sensitive_values":{"master_user_secret":true}}],
	   "child_modules":[{"address":"module.m","resources":[{"address":"module.m.aws_s3_bucket.b","type":"aws_s3_bucket","name":"b","values":{"bucket":"two"}}]}]}}},
	 "planned_values":{"root_module":{"resources":[{"address":"aws_s3_bucket.a","mode":"managed","type":"aws_s3_bucket","name":"a","values":{"bucket":"one-renamed"}}]}}}`)
	var got []string
	for _, r := range p.PriorResourcesOfType("aws_s3_bucket") {
		got = append(got, r.Address+"="+r.Values.Get("bucket").Display())
	}
	if diff := cmp.Diff([]string{"aws_s3_bucket.a=one", "module.m.aws_s3_bucket.b=two"}, got); diff != "" {
		t.Errorf("prior buckets (-want +got):\n%s", diff)
	}
	if r := p.PriorResource("module.m.aws_s3_bucket.b"); r == nil || r.Mode != ModeManaged || r.Name != "b" {
		t.Errorf("module resource = %+v", r)
	}
	if r := p.PriorResource("aws_db_instance.d"); r == nil || !r.Values.Get("master_user_secret").IsSensitive() {
		t.Errorf("sensitive state value not redacted: %+v", r)
	}
	if r := p.PlannedResource("aws_s3_bucket.a"); r == nil || r.Values.Get("bucket").Display() != "one-renamed" {
		t.Errorf("planned bucket = %+v", r)
	}
	if p.PlannedResource("module.m.aws_s3_bucket.b") != nil || len(p.PlannedResourcesOfType("aws_db_instance")) != 0 {
		t.Error("planned_values lookup found a resource that is only in prior_state")
	}
	if n := len(p.PriorResources()); n != 3 {
		t.Errorf("PriorResources has %d resources, want 3", n)
	}
}

// TestRepeatedKeys: when an object repeats a key, the first counts for
// Get, for the decoded tree (Display, Diff) and for sensitivity marks alike.
func TestRepeatedKeys(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "dup.json", `{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["update"],
	  "before":{"size":"small"},"after":{"size":"gpu","size":"cpu","note":"x","note":"y"},"after_sensitive":{"note":true,"note":false}}}]}`)
	after := p.Changes[0].After()
	if got := after.Get("size").Display(); got != "gpu" {
		t.Errorf("Get(size) = %q, want the first, gpu", got)
	}
	if got := after.Display(); got != `{"note":"(sensitive)","size":"gpu"}` {
		t.Errorf("Display = %s", got)
	}
	if !after.Get("note").IsSensitive() {
		t.Error("the first sensitivity mark of a repeated key was not applied")
	}
}
