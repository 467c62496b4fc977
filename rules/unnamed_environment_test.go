package rules

import (
	"strings"
	"testing"
)

// TestAnEnvironmentNobodyNamedIsTreatedAsProtected: with no config (or a
// config that gives the project no environment) a plan could be prod's,
// so a SageMaker endpoint replacement blocks and says how to make it a
// warning; the same plan in a named unprotected environment only warns.
func TestAnEnvironmentNobodyNamedIsTreatedAsProtected(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		cfg, env    string
		want        Severity
		wantUnnamed bool // the remedy says the environment is unknown
	}{
		"no config, no environment":                  {env: "", want: SeverityBlock, wantUnnamed: true},
		"a config without projects":                  {cfg: "version: 1\nenvironments:\n  dev: {}\n", want: SeverityBlock, wantUnnamed: true},
		"no config, prod":                            {env: "prod", want: SeverityBlock},
		"no config, staging named":                   {env: "staging", want: SeverityWarn},
		"the config names the project's environment": {cfg: "version: 1\nprojects:\n  - name: sagemaker-rename\n    environment: dev\nenvironments:\n  dev: {}\n", want: SeverityWarn},
		"an environment declared as default":         {cfg: "version: 1\nenvironments:\n  default: {}\n", want: SeverityWarn},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := DefaultConfig()
			if tc.cfg != "" {
				cfg = mustConfig(t, tc.cfg)
			}
			fs := only(RuleEndpointReplacement, cfg.Evaluate([]Project{storyProject(t, "sagemaker-rename", tc.env)}, nil).Findings)
			if len(fs) == 0 {
				t.Fatal("no endpoint-replacement finding")
			}
			for _, f := range fs {
				if f.Severity != tc.want {
					t.Errorf("%s: severity %s, want %s", f.Address, f.Severity, tc.want)
				}
				if got := strings.Contains(f.Remedy, "no environment is known for the project"); got != tc.wantUnnamed {
					t.Errorf("%s: remedy says the environment is unknown = %v, want %v: %s", f.Address, got, tc.wantUnnamed, f.Remedy)
				}
			}
		})
	}
}
