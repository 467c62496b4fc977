package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/planwarden/planwarden/rules"
)

// checkEnvironments refuses an --environment the config does not know
// (its environments and the built-in prod and staging), compared exactly:
// `Prod` or `prd` is a typo, never a new, unprotected environment.
func checkEnvironments(cfg *rules.Config, envs []string) error {
	known := cfg.EnvironmentNames()
	for _, e := range envs {
		if _, ok := cfg.Environment(e); ok {
			continue
		}
		msg := fmt.Sprintf("--environment %q is not an environment of %s; expected one of: %s", e, configName(cfg), strings.Join(known, ", "))
		if s := rules.Suggest(e, known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return fmt.Errorf("%s; declare it under environments to use it", msg)
	}
	return nil
}

// configName names where the environments come from.
func configName(cfg *rules.Config) string {
	if f := cfg.File(); f != "" {
		return f
	}
	return "the defaults (no repo config)"
}

// projectEnvironment is the environment a plan is reviewed in: the
// config's for a project it declares with one (a different --environment
// is noted on stderr and does not change it), else given ("" lets the
// review use DefaultEnvironmentName).
func projectEnvironment(cfg *rules.Config, project, given string, stderr io.Writer) string {
	if env := cfg.EnvironmentOf(project); env != "" {
		if given != "" && given != env {
			fmt.Fprintf(stderr, "planwarden review: %s puts project %s in %s; --environment %s applies only to projects it does not declare\n", cfg.File(), project, env, given)
		}
		return env
	}
	return given
}
