package rules

import "testing"

// Override policies at the edge of what the config check refuses: each is
// a valid policy that a reviewer can satisfy, so it must load.
func TestOverridePoliciesThatCanBeMet(t *testing.T) {
	tests := map[string]string{
		"one approval by label only":         "version: 1\noverrides:\n  iam-admin:\n    labels: [planwarden-ok]\n    approvals: 1\n",
		"as many users as approvals":         "version: 1\noverrides:\n  iam-admin:\n    users: [alice, bob]\n    approvals: 2\n",
		"approvals above 1 given by a team":  "version: 1\noverrides:\n  iam-admin:\n    teams: [acme/sre]\n    approvals: 3\n",
		"one approval by one user, no label": "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n    approvals: 1\n",
	}
	for name, yml := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseConfig("planwarden.yml", []byte(yml)); err != nil {
				t.Errorf("ParseConfig refused a policy that can be met:\n%s\nerror: %v", yml, err)
			}
		})
	}
}
