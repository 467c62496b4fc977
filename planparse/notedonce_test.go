package planparse

import (
	"strings"
	"testing"
)

// A change's after that is its before byte for byte takes no secret notes
// of its own (readChange): the before's notes find the same. One that
// differs, by one byte of a secret under a secret name, is noted: its
// secret is hidden where another change echoes it.
func TestAfterNotedUnlessItIsTheBefore(t *testing.T) {
	t.Parallel()
	const other = "Zq8vLm3Np0Rt7Xy3" // auditSecret but its last byte
	value := func(pw string) string {
		return `{"identifier":"db-1","admin_password":"` + pw + `","tags":{"team":"data"}}`
	}
	for name, c := range map[string]struct{ before, after, echoed string }{
		"after is the before":                       {value(auditSecret), value(auditSecret), auditSecret},
		"after differs by the secret's last byte":   {value(auditSecret), value(other), other},
		"before differs by the secret's last byte":  {value(other), value(auditSecret), other},
		"after adds a member to the before":         {`{"a":"x"}`, `{"a":"x","admin_password":"` + other + `"}`, other},
		"after in a list, the before's first entry": {`[` + value(auditSecret) + `]`, `[` + value(auditSecret) + `,` + value(other) + `]`, other},
	} {
		t.Run(name, func(t *testing.T) {
			data := []byte(`{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[` +
				`{"address":"aws_db_instance.a","mode":"managed","type":"aws_db_instance","name":"a","provider_name":"aws",` +
				`"change":{"actions":["update"],"before":` + c.before + `,"after":` + c.after + `,"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}},` +
				`{"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b","provider_name":"aws",` +
				`"change":{"actions":["create"],"before":null,"after":{"description":"db ` + c.echoed + `"}}}]}`)
			shown, redacted := shownAndRedacted(t, "plan.json", data)
			notShown(t, shown, redacted, c.echoed)
			if !strings.Contains(redacted, `"identifier"`) && strings.Contains(c.after, `"identifier"`) {
				t.Errorf("the redacted plan lost the values:\n%s", redacted)
			}
		})
	}
}
