package planparse

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestEncodingLayersLookedThrough: the detector decodes a base64 blob and
// searches what it holds, three layers deep at most (each layer is another
// decode of a hostile plan's string, so the work stays bounded). A DB_PASS=
// in a script encoded three times is hidden; encoded four times it is
// shown, and so is the same script's public line.
func TestEncodingLayersLookedThrough(t *testing.T) {
	t.Parallel()
	script := "#!/bin/bash\nexport DB_PASS=" + foundSecret + "\n/opt/app/start\n"
	wrap := func(n int) string {
		s := script
		for range n {
			s = base64.StdEncoding.EncodeToString([]byte(s))
		}
		return s
	}
	for layers, hidden := range map[int]bool{1: true, 2: true, 3: true, 4: false, 5: false} {
		blob := wrap(layers)
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a",
"change":{"actions":["create"],"before":null,"after":{"notes":"`+blob+`"},"after_unknown":{},"after_sensitive":{}}}]}`)
		got := p.Changes[0].After().Get("notes").Display()
		if hidden && got != SensitiveText {
			t.Errorf("%d layers of base64: notes = %.40q…, want %s", layers, got, SensitiveText)
		}
		if !hidden && !strings.Contains(got, blob) {
			t.Errorf("%d layers of base64 (beyond the three looked through): notes = %q, want the blob shown", layers, got)
		}
	}
}
