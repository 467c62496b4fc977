package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// Overrides of blocking findings. Two ways in:
//   - `/override RULE [ADDRESS] -- reason`, authorized against the base
//     branch's config (users, teams), recorded in PRState as one grant per
//     finding it covers (record.Grant: the finding's digest and
//     environment);
//   - a label the config lists for a rule, live: while the PR carries it,
//     added by someone GitHub's issue events name (labelAdders).
//
// Every review re-authorizes every grant against the base branch's config
// of that moment (trust.Judge): a grant covers the exact finding it was
// given for, in the environment it was given in, and lapses, visibly, when
// a push changes the finding, when its author is no longer listed, or when
// it was the PR author's own and the config does not allow that.

// maxGrants bounds what one PR remembers.
const maxGrants = 100

// overrideArgs splits `/override RULE [ADDRESS] [-- reason]`.
func overrideArgs(args []string) (rule, address, reason string) {
	if i := slices.Index(args, "--"); i >= 0 {
		reason = strings.Join(args[i+1:], " ")
		args = args[:i]
	}
	if len(args) > 0 {
		rule = args[0]
	}
	if len(args) > 1 {
		address = strings.Join(args[1:], " ")
	}
	return rule, address, reason
}

// knownRule reports whether rule is a built-in or one of cfg's custom rules.
func knownRule(cfg *rules.Config, rule string) bool {
	if slices.Contains(rules.BuiltinRules(), rule) {
		return true
	}
	for _, c := range cfg.CustomRules {
		if c.ID == rule {
			return true
		}
	}
	return false
}

// grantDecision is what an /override may record: a grant per finding the
// commenter may override, the findings only a label on the PR allows (that
// label already overrides while it is there: recording it would outlive
// the label), and the findings denied, with why.
type grantDecision struct {
	grants          []record.Grant
	byLabel, denied []record.Blocking
	whyNot          []string
}

// decideGrants checks the commenter's authority over each matched finding
// where it is, asking GitHub only about the teams that matter.
func (a *App) decideGrants(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, match []record.Blocking, rule, reason string) (grantDecision, error) {
	ask := map[string][]string{}
	for _, s := range match {
		ask = mergeAsk(ask, trust.TeamsToAsk(cfg, []record.Grant{{Rule: rule, Environment: s.Environment, By: c.sender}}))
	}
	people, err := run.People(ctx, c.gh, pr.Author, ask)
	if err != nil {
		return grantDecision{}, err
	}
	var d grantDecision
	for _, s := range match {
		why := trust.Check(cfg, s, c.sender, reason, people)
		switch {
		case why == "":
			d.grants = append(d.grants, record.Grant{Rule: rule, Project: s.Project, Address: s.Address, Environment: s.Environment,
				Digest: trust.Digest(s), By: c.sender, At: a.now(), Reason: clamp(reason, 500), HeadSHA: pr.HeadSHA})
		case cfg.MayOverride(rule, s.Environment, "", nil, pr.Labels) && !strings.EqualFold(c.sender, pr.Author):
			d.byLabel = append(d.byLabel, s)
		default:
			d.denied = append(d.denied, s)
			if !slices.Contains(d.whyNot, why) {
				d.whyNot = append(d.whyNot, why)
			}
		}
	}
	return d, nil
}

func mergeAsk(a, b map[string][]string) map[string][]string {
	for k, v := range b {
		for _, t := range v {
			if !slices.Contains(a[k], t) {
				a[k] = append(a[k], t)
			}
		}
	}
	return a
}

func projectsOf(subjects []record.Blocking) []string {
	var out []string
	for _, s := range subjects {
		if !slices.Contains(out, s.Project) {
			out = append(out, s.Project)
		}
	}
	return out
}

// recordGrants adds grants, replacing one by the same person for the same
// finding; the oldest go beyond maxGrants.
func recordGrants(have, add []record.Grant) []record.Grant {
	for _, g := range add {
		have = slices.DeleteFunc(have, func(h record.Grant) bool {
			return h.Digest == g.Digest && strings.EqualFold(h.By, g.By)
		})
		have = append(have, g)
	}
	if len(have) > maxGrants {
		have = have[len(have)-maxGrants:]
	}
	return have
}

// findingList answers `/override` alone: each blocking finding of the
// latest review and who may override it.
func findingList(cfg *rules.Config, subjects []record.Blocking, grants []record.Grant, multi bool) string {
	var b strings.Builder
	for n, s := range subjects {
		f := s
		if n == 30 {
			b.WriteString("- … and more: see the review comment.\n")
			break
		}
		fmt.Fprintf(&b, "- %s on %s", code(f.Rule), code(f.Address))
		if multi {
			fmt.Fprintf(&b, " in %s", code(f.Project))
		}
		var by []string
		for _, g := range grants {
			if g.Digest == trust.Digest(f) {
				by = append(by, g.By)
			}
		}
		fmt.Fprintf(&b, ": %s", overriders(cfg, f.Rule, s.Environment))
		if need := trust.Approvals(cfg, f.Rule, s.Environment); need > 1 {
			fmt.Fprintf(&b, " (%d different people)", need)
		}
		if len(by) > 0 {
			fmt.Fprintf(&b, "; overridden by %s", codeList(by))
		}
		b.WriteString("\n")
	}
	if len(subjects) == 0 {
		return "`/override`: the latest review has no blocking finding that may be overridden; nothing to override."
	}
	return "`/override`: blocking findings of the latest review:\n\n" + b.String() +
		"\nOverride one with `/override RULE [ADDRESS] -- reason`."
}

// policyList is what the config says, when there is no review to list.
func policyList(cfg *rules.Config) string {
	if len(cfg.Overrides) == 0 {
		return fmt.Sprintf("%s names no one who may override a blocking finding (key `overrides`).", code(configFile(cfg)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Who may override, per %s:\n\n", code(configFile(cfg)))
	for _, rule := range slices.Sorted(maps.Keys(cfg.Overrides)) {
		p := cfg.Overrides[rule]
		fmt.Fprintf(&b, "- %s: %s", code(rule), who(p.Users, p.Teams, p.Labels))
		if len(p.Environments) > 0 {
			fmt.Fprintf(&b, " (in %s)", codeList(p.Environments))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// overriders says who may override rule in env.
func overriders(cfg *rules.Config, rule, env string) string {
	users, teams, labels := cfg.Overriders(rule, env)
	return who(users, teams, labels)
}

func who(users, teams, labels []string) string {
	var parts []string
	switch len(users) {
	case 0:
	case 1:
		parts = append(parts, "the user "+codeList(users))
	default:
		parts = append(parts, "the users "+codeList(users))
	}
	if len(teams) > 0 {
		parts = append(parts, "members of "+codeList(teams))
	}
	if len(labels) > 0 {
		parts = append(parts, "the pull request label "+codeList(labels))
	}
	if len(parts) == 0 {
		return "no one may override it"
	}
	return strings.Join(parts, ", or ")
}

func codeList(l []string) string {
	q := make([]string, 0, len(l))
	for _, s := range l {
		q = append(q, code(s))
	}
	return strings.Join(q, ", ")
}

func configFile(cfg *rules.Config) string {
	if cfg.File() != "" {
		return cfg.File()
	}
	return rules.ConfigPath
}

// plainWords keeps a sentence made of logins, rule ids and environment
// names from becoming markdown or a mention.
func plainWords(s string) string {
	return strings.NewReplacer("`", "'", "@", "", "<", "", ">", "", "\n", " ", "*", "", "_", "\\_").Replace(clamp(s, 1000))
}
