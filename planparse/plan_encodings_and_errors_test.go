package planparse

import (
	"encoding/binary"
	"errors"
	"testing"
	"unicode/utf16"
)

// TestUTF16Plans: a plan saved as UTF-16 with a byte order mark
// (PowerShell's Out-File, -Encoding Unicode or BigEndianUnicode) reads as
// the same plan, non-ASCII text included.
func TestUTF16Plans(t *testing.T) {
	t.Parallel()
	const plan = `{"format_version":"1.2","resource_changes":[{"address":"azurerm_linux_virtual_machine.gpu","mode":"managed","type":"azurerm_linux_virtual_machine","name":"gpu",
"change":{"actions":["update"],"before":{"size":"Standard_NC6s_v3","tags":{"owner":"Zoë"}},"after":{"size":"Standard_NC24ads_A100_v4","tags":{"owner":"Zoë"}},"after_unknown":{}}}]}`
	units := utf16.Encode([]rune(plan))
	for name, order := range map[string]binary.ByteOrder{"UTF-16LE": binary.LittleEndian, "UTF-16BE": binary.BigEndian} {
		data := make([]byte, 2+2*len(units))
		order.PutUint16(data, 0xFEFF)
		for i, u := range units {
			order.PutUint16(data[2+2*i:], u)
		}
		p, err := Parse("plan.json", data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		c := p.Changes[0]
		if got := c.Before().Get("size").Display() + " -> " + c.After().Get("size").Display(); got != "Standard_NC6s_v3 -> Standard_NC24ads_A100_v4" {
			t.Errorf("%s: size %s", name, got)
		}
		if got := c.After().Get("tags", "owner").Display(); got != "Zoë" {
			t.Errorf("%s: tags.owner = %q, want Zoë", name, got)
		}
	}
}

// TestNotPlanSays: the error for JSON that is not a plan says what it has.
func TestNotPlanSays(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]string{
		`{"resource_changes":[{"address":"a.b","change":{"actions":["create"]}}]}`: "it has resource_changes but no format_version",
		`{"resource_changes":[],"foo":1}`:                                          "it has no format_version",
		`{"foo":1}`:                                                                "it has no format_version",
		`{"version":4,"serial":3,"lineage":"x","resources":[]}`:                    "this is a raw Terraform state file (it has serial/lineage)",
	} {
		_, err := Parse("x.json", []byte(doc))
		var pe *Error
		if !errors.As(err, &pe) || pe.Kind != ErrNotPlan || pe.Detail != want {
			t.Errorf("Parse(%s) = %v, want ErrNotPlan saying %q", doc, err, want)
		}
	}
}

// TestDeferredReasonWords: a deferred change's reason in words; an empty
// reason and one planwarden does not know are said as such.
func TestDeferredReasonWords(t *testing.T) {
	t.Parallel()
	for reason, want := range map[string]string{
		"instance_count_unknown": "its count or for_each is not known yet",
		"":                       "no reason given",
		"future_reason":          "deferred (future_reason)",
	} {
		p := mustParse(t, "plan.json", `{"format_version":"1.2","complete":false,"resource_changes":[],"deferred_changes":[{"reason":"`+reason+`","resource_change":{"address":"aws_instance.gpu","type":"aws_instance","name":"gpu","change":{"actions":["create"],"before":null,"after":{"instance_type":"p5.48xlarge"}}}}]}`)
		if len(p.Deferred) != 1 || p.Deferred[0].Reason != want {
			t.Errorf("reason %q: deferred %+v, want %q", reason, p.Deferred, want)
		}
	}
}
