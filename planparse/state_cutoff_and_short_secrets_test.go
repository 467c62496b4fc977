package planparse

import (
	"errors"
	"testing"
)

// TestStateCutOffInAResource: a plan cut off inside a state resource (at
// a member's value, inside its values) is refused as cut off, at the end
// of the file's one line, not read past its end.
func TestStateCutOffInAResource(t *testing.T) {
	t.Parallel()
	for name, head := range map[string]string{
		"prior_state":    `{"format_version":"1.2","prior_state":{"values":{"root_module":{"resources":[{`,
		"planned_values": `{"format_version":"1.2","planned_values":{"root_module":{"resources":[{`,
	} {
		for _, tail := range []string{`"type":`, `"address": `, `"values":{"id":`, `"values":{"name":"n`, `"type":"t`} {
			doc := head + tail
			_, err := Parse("plan.json", []byte(doc))
			var e *Error
			if !errors.As(err, &e) || e.Kind != ErrNotJSON || e.File != "plan.json" || e.Line != 1 || e.Column != len(doc)+1 {
				t.Errorf("%s cut off at %s: %v, want not JSON at 1:%d", name, tail, err, len(doc)+1)
			}
		}
	}
}

// TestStateCredentialOfTheShortestScannedLength: a string of 12 bytes, the
// shortest the reader searches for credential formats (secret.MinScanLen), holding
// one (a URL's password) in a state resource, as a member of it or of its
// values, is learnt: where a change echoes the password unmarked, it is
// hidden.
func TestStateCredentialOfTheShortestScannedLength(t *testing.T) {
	t.Parallel()
	const url = "ss://u:p4ss@" // the password p4ss, 12 bytes in all
	for name, prior := range map[string]string{
		"a resource's member": `{"values":{"root_module":{"resources":[{"address":"t.a","type":"t","note":"` + url + `","values":{}}]}}}`,
		"a member of values":  `{"values":{"root_module":{"resources":[{"address":"t.a","type":"t","values":{"note":"` + url + `"}}]}}}`,
		"values' id":          `{"values":{"root_module":{"resources":[{"address":"t.a","type":"t","values":{"id":"` + url + `"}}]}}}`,
	} {
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[`+echoChange("p4ss")+`],"prior_state":`+prior+`}`)
		if got := p.Changes[0].After().Get("tags", "note").Display(); got != SensitiveText {
			t.Errorf("a URL with a password in %s: the echo shows tags.note = %q", name, got)
		}
	}
}
