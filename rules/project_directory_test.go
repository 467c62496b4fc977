package rules

import "testing"

// A config's projects[] may name a Terragrunt unit by its directory: the
// unit's path as Terragrunt prints it, the repo path, or its unique tail.
func TestProjectByDirectory(t *testing.T) {
	t.Parallel()
	c := &Config{Projects: []ProjectConfig{
		{Name: "gpu-cluster", Directory: "infra/live/prod/aks-gpu", Environment: "prod"},
		{Name: "artifacts-prod", Directory: "infra/live/prod/artifacts"},
		{Name: "artifacts-staging", Directory: "infra/live/staging/artifacts"},
		{Name: "aks-gpu", Directory: "other"},
		{Name: "root"},
	}}
	tests := map[string]struct {
		name, want string
		found      bool
	}{
		"by name":                             {"gpu-cluster", "gpu-cluster", true},
		"a name wins over a directory":        {"aks-gpu", "aks-gpu", true},
		"by the repo path":                    {"infra/live/prod/artifacts", "artifacts-prod", true},
		"by the unit's path under live":       {"prod/aks-gpu", "gpu-cluster", true},
		"a tail two directories share":        {"artifacts", "", false},
		"a tail that is no whole directory":   {"rod/aks-gpu", "", false},
		"a unit named by its order":           {"run-all#1", "", false},
		"nothing":                             {"", "", false},
		"the unique tail of a deeper path":    {"staging/artifacts", "artifacts-staging", true},
		"a project without a directory is no": {"root-dir", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, ok := c.Project(tc.name)
			if ok != tc.found || p.Name != tc.want {
				t.Errorf("Project(%q) = %q, %v; want %q, %v", tc.name, p.Name, ok, tc.want, tc.found)
			}
		})
	}
	if env := c.EnvironmentOf("prod/aks-gpu"); env != "prod" {
		t.Errorf("EnvironmentOf a unit's directory = %q, want prod", env)
	}
}
