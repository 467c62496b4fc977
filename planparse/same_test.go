package planparse

import (
	"fmt"
	"testing"
)

// samePlan is a plan of one change with the given before, after and
// sensitivity and unknown marks.
func samePlan(t *testing.T, before, after, beforeSens, afterSens, afterUnknown string) *Change {
	t.Helper()
	p := mustParse(t, "same.json", fmt.Sprintf(`{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
		"change":{"actions":["no-op"],"before":%s,"after":%s,"before_sensitive":%s,"after_sensitive":%s,"after_unknown":%s}}]}`,
		before, after, beforeSens, afterSens, afterUnknown))
	return p.Changes[0]
}

func TestSame(t *testing.T) {
	const v = `{"instance_type":"g5.xlarge","tags":{"Name":"a"},"password":"hunter2-hunter2"}`
	for _, tc := range []struct {
		name                                  string
		before, after, bSens, aSens, aUnknown string
		want                                  bool
	}{
		{"same bytes, same marks", v, v, `{}`, `{}`, `{}`, true},
		{"same bytes, same sensitive key", v, v, `{"password":true}`, `{"password":true}`, `{}`, true},
		{"same bytes, no marks written two ways", v, v, `{"password":true}`, `{"password":true}`, `false`, true},
		{"the after side marks a key sensitive", v, v, `{}`, `{"password":true}`, `{}`, false},
		{"the before side marks a key sensitive", v, v, `{"password":true}`, `{}`, `{}`, false},
		{"the after side has an unknown", v, v, `{}`, `{}`, `{"tags":{"Name":true}}`, false},
		{"other bytes", v, `{"instance_type":"g5.2xlarge","tags":{"Name":"a"},"password":"hunter2-hunter2"}`, `{}`, `{}`, `{}`, false},
	} {
		c := samePlan(t, tc.before, tc.after, tc.bSens, tc.aSens, tc.aUnknown)
		if got := c.Before().Same(c.After()); got != tc.want {
			t.Errorf("%s: Same = %v, want %v", tc.name, got, tc.want)
		}
		if tc.want && c.Before().Get("password").Display() != c.After().Get("password").Display() {
			t.Errorf("%s: Same, but the sides read differently", tc.name)
		}
	}
	// The same bytes in two plans: each plan's secrets are its own.
	a, b := samePlan(t, v, v, `{}`, `{}`, `{}`), samePlan(t, v, v, `{}`, `{}`, `{}`)
	if a.Before().Same(b.Before()) {
		t.Error("values of two plans are Same")
	}
	// Scalars are never Same (false says only that they may differ), nor
	// is a value not read from a plan's bytes.
	c := samePlan(t, v, v, `{}`, `{}`, `{}`)
	if c.Before().Get("instance_type").Same(c.After().Get("instance_type")) {
		t.Error("two scalars are Same")
	}
	if (Value{}).Same(Value{}) {
		t.Error("two null values are Same")
	}
}
