package planparse

import (
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// TestLookupOfEveryValueKind: Lookup answers as Keys lists an object's
// entries whatever holds the object: a resource's value (read lazily), an
// output's value (decoded), a secret key renamed whose value is null; a
// list, a redacted string and an absent value have no entries.
func TestLookupOfEveryValueKind(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
"change":{"actions":["create"],"before":null,"after":{"password":"s3cr3t-tag-key-value","list":[{"a":1},{"b":2}],"tags":{"Name":"web","s3cr3t-tag-key-value":null}},"after_unknown":{},"after_sensitive":{"password":true}}}],
"output_changes":{"o":{"actions":["create"],"before":null,"after":{"a":1,"b":null,"s3cr3t-tag-key-value":"z"},"after_unknown":false}}}`)
	after := p.Changes[0].After()
	tags := after.Get("tags")
	out := p.Outputs[0].After
	renamed := tags.Keys()[0]
	if !secret.IsRedacted(renamed) || out.Keys()[0] != renamed {
		t.Fatalf("Keys: tags %q, output %q, want the secret key renamed first", tags.Keys(), out.Keys())
	}
	for name, c := range map[string]struct {
		v       Value
		key     string
		has     bool
		display string
	}{
		"a resource's tag":                  {tags, "Name", true, "web"},
		"a resource's renamed null key":     {tags, renamed, true, "null"},
		"a resource's secret key by name":   {tags, "s3cr3t-tag-key-value", false, "null"},
		"a resource's absent tag":           {tags, "Owner", false, "null"},
		"an output's entry":                 {out, "a", true, "1"},
		"an output's null entry":            {out, "b", true, "null"},
		"an output's renamed key":           {out, renamed, true, "z"},
		"an output's secret key by name":    {out, "s3cr3t-tag-key-value", false, "null"},
		"an output's absent entry":          {out, "c", false, "null"},
		"a list":                            {after.Get("list"), "a", false, "null"},
		"a redacted string":                 {after.Get("password"), "a", false, "null"},
		"an absent value":                   {after.Get("missing"), "a", false, "null"},
		"a list element, an object":         {after.Get("list", 0), "a", true, "1"},
		"a list element without the member": {after.Get("list", 1), "a", false, "null"},
	} {
		x, has := c.v.Lookup(c.key)
		if has != c.has || x.Display() != c.display {
			t.Errorf("%s: Lookup(%q) = %q, %v, want %q, %v", name, c.key, x.Display(), has, c.display, c.has)
		}
	}
}

// TestCountsPastAMachineWord: a whole number too long to be a count reads
// as the number it is, not as what its digits make in a machine word
// (2^64+7 wraps to 7).
func TestCountsPastAMachineWord(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_eks_node_group.gpu","mode":"managed","type":"aws_eks_node_group","name":"gpu",
"change":{"actions":["create"],"before":null,"after":{"wrapped":18446744073709551623,"n":7},"after_unknown":{}}}]}`)
	after := p.Changes[0].After()
	if got := after.Get("wrapped").Display(); got != "18446744073709552000" {
		t.Errorf("wrapped = %q, want 18446744073709552000", got)
	}
	if got := after.Get("n").Display(); got != "7" {
		t.Errorf("n = %q, want 7", got)
	}
}
