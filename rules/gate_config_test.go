package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The gate's keys as the app reads them: no_plan_paths (unset: the
// documentation defaults; [] : nothing passes without a plan),
// plan_source, approving_bots.
func TestGateKeys(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		yml      string
		noPlan   []string
		dispatch bool
		mayByBot map[string]bool
	}{
		"no config: documentation only, artifact mode, no bot approves": {
			noPlan: DefaultNoPlanPaths, mayByBot: map[string]bool{"renovate[bot]": false, ActionsBot: false},
		},
		"no_plan_paths replaces the defaults": {
			yml: "version: 1\nno_plan_paths: [\"apps/web/**\"]\n", noPlan: []string{"apps/web/**"},
		},
		"an empty no_plan_paths means every pull request waits for a plan": {
			yml: "version: 1\nno_plan_paths: []\n", noPlan: []string{},
		},
		"plan_source: dispatch": {
			yml: "version: 1\nplan_source: dispatch\n", noPlan: DefaultNoPlanPaths, dispatch: true,
		},
		"plan_source: artifact is the default's": {
			yml: "version: 1\nplan_source: artifact\n", noPlan: DefaultNoPlanPaths,
		},
		"a listed bot approves, in any case; another does not": {
			yml: "version: 1\napproving_bots: [\"Renovate[bot]\"]\n", noPlan: DefaultNoPlanPaths,
			mayByBot: map[string]bool{"renovate[bot]": true, "dependabot[bot]": false, ActionsBot: false},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := mustConfig(t, tc.yml)
			if diff := cmp.Diff(tc.noPlan, c.NoPlanGlobs()); diff != "" {
				t.Errorf("NoPlanGlobs (-want +got):\n%s", diff)
			}
			if c.Dispatches() != tc.dispatch {
				t.Errorf("Dispatches = %v, want %v", c.Dispatches(), tc.dispatch)
			}
			for bot, want := range tc.mayByBot {
				if got := c.BotMayApprove(bot); got != want {
					t.Errorf("BotMayApprove(%q) = %v, want %v", bot, got, want)
				}
			}
		})
	}
}

// Bad gate keys are config errors that say why and what to do;
// github-actions[bot] is refused even when listed on purpose.
func TestGateKeyErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		yml  string
		want []string
	}{
		"github-actions[bot] cannot approve": {
			yml:  "version: 1\napproving_bots: [\"renovate[bot]\", \"GitHub-Actions[bot]\"]\n",
			want: []string{"planwarden.yml:2: approving_bots[1]: github-actions[bot] cannot approve: it acts for whoever triggered the workflow, so a pull request's author can make it add a label or a comment; remove it"},
		},
		"a bot must be a login": {
			yml:  "version: 1\napproving_bots: [\"apps/renovate\"]\n",
			want: []string{`planwarden.yml:2: approving_bots[0]: expected a bot's login such as renovate[bot], got "apps/renovate"`},
		},
		"an unknown plan source": {
			yml:  "version: 1\nplan_source: pull_request\n",
			want: []string{`planwarden.yml:2: plan_source: "pull_request" is not allowed; expected one of: artifact, dispatch`},
		},
		"a glob leaving the repo": {
			yml:  "version: 1\nno_plan_paths: [\"../docs/**\"]\n",
			want: []string{`planwarden.yml:2: no_plan_paths[0]: expected a glob relative to the repo root, such as docs/**, got "../docs/**"`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig("planwarden.yml", []byte(tc.yml))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("ParseConfig error = %v, want a *ConfigError", err)
			}
			if diff := cmp.Diff(tc.want, strings.Split(err.Error(), "\n")); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
