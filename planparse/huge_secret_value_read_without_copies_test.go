package planparse

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// A plan holding a 16 MB value under a secret name (user_data_base64) is
// read without a copy of the value: the detector's notes judge it in
// place (no unquoted copy, no lower-cased copy, no copy as a map key) and
// the secret set keeps its digest. The value is still hidden, and so is
// the same value the plan repeats under a plain name; the honest twin, the
// value with one byte changed under a plain name, is shown.
func TestAHugeSecretNamedValueIsReadWithoutCopies(t *testing.T) {
	value := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("#!/bin/bash\necho train\n"), 12_000_000/24))
	other := value[:1000] + "Q" + value[1001:]
	plan := []byte(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","provider_name":"registry.terraform.io/hashicorp/aws",` +
		`"change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge","user_data_base64":"` + value + `","script":"` + value + `","near":"` + other + `"},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`)
	var p *Plan
	var err error
	if n := allocated(func() { p, err = Parse("plan.json", plan) }); n > 4<<20 {
		t.Errorf("reading a plan with a %d MiB secret-named value allocated %d KiB; want at most 4 MiB", len(value)>>20, n>>10)
	}
	if err != nil {
		t.Fatal(err)
	}
	after := p.Changes[0].After()
	for key, hidden := range map[string]bool{"user_data_base64": true, "script": true, "near": false} {
		v, _ := after.Lookup(key)
		if v.IsSensitive() != hidden {
			t.Errorf("%s: hidden %v; want %v", key, v.IsSensitive(), hidden)
		}
	}
}
