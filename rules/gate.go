package rules

import (
	"fmt"
	"slices"
	"strings"
)

// The gate's keys of the config: what passes without a plan
// (no_plan_paths), where trusted plans come from (plan_source), and which
// bots may approve (approving_bots).

// DefaultNoPlanPaths are the files that need no plan when the config
// names none: documentation only. A pull request whose every changed file
// matches one passes at once.
var DefaultNoPlanPaths = []string{
	"**/*.md", "**/*.mdx", "**/*.rst", "**/*.adoc", "docs/**",
	"LICENSE*", "NOTICE*", "AUTHORS*",
	".github/ISSUE_TEMPLATE/**", ".github/PULL_REQUEST_TEMPLATE*",
}

// Plan sources (Config.PlanSource).
const (
	// PlanSourceArtifact trusts runs of the plan workflows that GitHub
	// starts for the pull request (the default).
	PlanSourceArtifact = "artifact"
	// PlanSourceDispatch trusts only the runs planwarden dispatches itself
	// on the default branch, with the pull request's number and head SHA.
	PlanSourceDispatch = "dispatch"
)

// ActionsBot is the login GitHub Actions' token acts as. It acts for
// whoever triggered the workflow, so it never approves anything.
const ActionsBot = "github-actions[bot]"

// NoPlanGlobs returns the globs of the files that need no plan:
// no_plan_paths when the config sets it (an empty list: none), else
// DefaultNoPlanPaths.
func (c *Config) NoPlanGlobs() []string {
	if c.NoPlanPaths != nil {
		return c.NoPlanPaths
	}
	return DefaultNoPlanPaths
}

// Dispatches reports whether planwarden dispatches the plan workflow
// itself (plan_source: dispatch) rather than trusting the runs GitHub
// starts for the pull request.
func (c *Config) Dispatches() bool { return c.PlanSource == PlanSourceDispatch }

// BotMayApprove reports whether the config lists the bot login under
// approving_bots (case-insensitively). ActionsBot never may.
func (c *Config) BotMayApprove(login string) bool {
	return !strings.EqualFold(login, ActionsBot) &&
		slices.ContainsFunc(c.ApprovingBots, func(b string) bool { return strings.EqualFold(b, login) })
}

// checkGate validates the gate's keys.
func (ps *problems) checkGate(c *Config) {
	for i, g := range c.NoPlanPaths {
		checkGlob(ps, fmt.Sprintf("no_plan_paths[%d]", i), g, "docs/**")
	}
	for i, b := range c.ApprovingBots {
		p := fmt.Sprintf("approving_bots[%d]", i)
		switch {
		case strings.EqualFold(b, ActionsBot):
			ps.at(p, "%s cannot approve: it acts for whoever triggered the workflow, so a pull request's author can make it add a label or a comment; remove it", ActionsBot)
		case strings.TrimSpace(b) == "" || strings.ContainsAny(b, " /@"):
			ps.at(p, "expected a bot's login such as renovate[bot], got %q", b)
		}
	}
}
