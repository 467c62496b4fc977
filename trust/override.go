package trust

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Digest is rules.FindingDigest of the finding b was made from: what a
// grant names to cover it.
func Digest(b record.Blocking) string {
	return rules.FindingDigest(rules.Finding{Rule: b.Rule, Project: b.Project, Address: b.Address, Message: b.Message, BlobSHAs: b.BlobSHAs})
}

// Subjects lists the blocking, overridable findings of a review with each
// project's environment (envs, by project name).
func Subjects(cfg *rules.Config, findings []rules.Finding, envs map[string]string) []record.Blocking {
	var out []record.Blocking
	for _, f := range findings {
		if f.Severity == rules.SeverityBlock && cfg.Overridable(f.Rule) {
			out = append(out, record.Blocking{Rule: f.Rule, Project: f.Project, Address: f.Address, Message: f.Message, BlobSHAs: f.BlobSHAs, Environment: envs[f.Project]})
		}
	}
	return out
}

// People is what GitHub says about the people involved: the pull request's
// author, and the teams (org/slug) each login is an active member of, among
// those the config names (TeamsToAsk).
type People struct {
	Author string
	Teams  map[string][]string // by lower-case login
	// Types is GitHub's account type (User, Bot) by lower-case login,
	// where the app knows it; a login ending with [bot] is a bot anyway.
	Types map[string]string
}

func (p People) teamsOf(login string) []string { return p.Teams[strings.ToLower(login)] }

// actor is login as an Actor, with the type GitHub gave it.
func (p People) actor(login string) Actor {
	return Actor{Login: login, Type: p.Types[strings.ToLower(login)]}
}

// TeamsToAsk returns, per login (lower case), the teams whose membership
// decides whether the grants count; the app asks GitHub about each.
func TeamsToAsk(cfg *rules.Config, grants []record.Grant) map[string][]string {
	out := map[string][]string{}
	for _, g := range grants {
		_, teams, _ := cfg.Overriders(g.Rule, g.Environment)
		l := strings.ToLower(g.By)
		for _, t := range teams {
			if !slices.Contains(out[l], t) {
				out[l] = append(out[l], t)
			}
		}
	}
	return out
}

// Standing is whether a recorded grant counts in this review, and if not,
// why, in a sentence for the comment.
type Standing struct {
	Grant  record.Grant
	Counts bool
	Why    string
}

// Decision is the outcome of re-authorizing the grants of a pull request.
type Decision struct {
	// Overrides are the overrides to apply: one per finding that has as
	// many counting grants as its policy's approvals, naming its digest.
	Overrides []rules.Override
	// Standing is each grant's, in the order given.
	Standing []Standing
	// Waiting says, for findings with some but not enough approvals, how
	// many more they need.
	Waiting []string
}

// Approvals is how many different people must override a finding of rule
// in env: the largest approvals of the policies (the rule's and "*") that
// apply to env, at least 1.
func Approvals(cfg *rules.Config, rule, env string) int {
	n := 1
	for _, p := range policies(cfg, rule, env) {
		n = max(n, p.Approvals)
	}
	return n
}

// AuthorMay reports whether the pull request's author may override their
// own findings of rule in env: a policy that applies and lists them says
// allow_author: true. Never for the findings about what made the plan
// (NeverByAuthor).
func AuthorMay(cfg *rules.Config, rule, env, author string, teams []string) bool {
	if NeverByAuthor(rule) {
		return false
	}
	for _, p := range policies(cfg, rule, env) {
		if p.AllowAuthor && listed(p, author, teams) {
			return true
		}
	}
	return false
}

// NeverByAuthor reports whether rule is one whose findings the pull
// request's author may never override, allow_author or not: those about
// the code that made the plan (plan-workflow-changed,
// plan-workflow-unreadable, plan-runs-pr-code), which the author wrote.
func NeverByAuthor(rule string) bool {
	return rule == rules.RulePlanWorkflowChanged || rule == rules.RulePlanWorkflowUnreadable || rule == rules.RulePlanRunsPRCode
}

func policies(cfg *rules.Config, rule, env string) []rules.OverridePolicy {
	var out []rules.OverridePolicy
	for _, key := range []string{rule, "*"} {
		p, ok := cfg.Overrides[key]
		if ok && (len(p.Environments) == 0 || slices.Contains(p.Environments, env)) {
			out = append(out, p)
		}
	}
	return out
}

func listed(p rules.OverridePolicy, user string, teams []string) bool {
	if slices.ContainsFunc(p.Users, func(u string) bool { return strings.EqualFold(u, user) }) {
		return true
	}
	return slices.ContainsFunc(teams, func(t string) bool {
		return slices.ContainsFunc(p.Teams, func(pt string) bool { return strings.EqualFold(pt, t) })
	})
}

// Check says whether a grant by login of finding s would count under cfg
// now: "" when it would, else why not. A bot's or an App's grant never
// counts unless cfg lists it (MayApprove).
func Check(cfg *rules.Config, f record.Blocking, by, reason string, people People) string {
	if ok, notHuman := MayApprove(cfg, people.actor(by)); !ok && cfg.Overridable(f.Rule) {
		return notHuman
	}
	return CheckApprover(cfg, f, by, reason, people)
}

// CheckApprover is Check for someone MayApprove already lets approve (an
// /override's commenter, asked with the account type GitHub gave): the
// same answer, without asking MayApprove again.
func CheckApprover(cfg *rules.Config, f record.Blocking, by, reason string, people People) string {
	switch {
	case !cfg.Overridable(f.Rule):
		return fmt.Sprintf("%s cannot be overridden", f.Rule)
	case strings.TrimSpace(reason) == "":
		return "it gives no reason (write /override RULE [ADDRESS] -- reason)"
	case strings.EqualFold(by, people.Author) && !AuthorMay(cfg, f.Rule, f.Environment, by, people.teamsOf(by)):
		if NeverByAuthor(f.Rule) {
			return fmt.Sprintf("%s wrote this pull request, and its author never overrides %s", by, f.Rule)
		}
		return fmt.Sprintf("%s wrote this pull request, and the config does not let authors override their own findings (allow_author)", by)
	case !cfg.MayOverride(f.Rule, f.Environment, by, people.teamsOf(by), nil):
		return fmt.Sprintf("%s may not override %s in %s under the base branch's config", by, f.Rule, f.Environment)
	}
	return ""
}

// Judge re-authorizes every recorded grant against cfg (the base branch's
// config of this review) for this review's findings. A grant counts when
// its finding (by digest) is still there, in the environment it was given
// in, it has a reason, its author may still override the rule there
// (users and teams of cfg; labels never count for a recorded grant), and it
// is not the pull request author's own (unless allow_author). A finding is
// overridden when different people's counting grants reach its approvals.
func Judge(cfg *rules.Config, subjects []record.Blocking, grants []record.Grant, people People) Decision {
	var d Decision
	byDigest := map[string]record.Blocking{}
	for _, s := range subjects {
		byDigest[Digest(s)] = s
	}
	counting := map[string][]record.Grant{}
	for _, g := range grants {
		st := Standing{Grant: g}
		s, ok := byDigest[g.Digest]
		switch {
		case !ok:
			st.Why = fmt.Sprintf("the %s finding on %s it was given for%s is gone or says something else now", g.Rule, orUnknown(g.Address), givenOn(g))
		case s.Environment != g.Environment:
			st.Why = fmt.Sprintf("it was given in %s, and the finding is in %s now", g.Environment, s.Environment)
		default:
			st.Why = Check(cfg, s, g.By, g.Reason, people)
		}
		if st.Counts = st.Why == ""; st.Counts && !slices.ContainsFunc(counting[g.Digest], func(o record.Grant) bool { return strings.EqualFold(o.By, g.By) }) {
			counting[g.Digest] = append(counting[g.Digest], g)
		}
		d.Standing = append(d.Standing, st)
	}
	for _, s := range subjects {
		dg := Digest(s)
		gs := counting[dg]
		if len(gs) == 0 {
			continue
		}
		need := Approvals(cfg, s.Rule, s.Environment)
		if len(gs) < need {
			d.Waiting = append(d.Waiting, fmt.Sprintf("%s on %s has %d of the %d approvals it needs", s.Rule, s.Address, len(gs), need))
			continue
		}
		o := rules.Override{Rule: s.Rule, Address: s.Address, Project: s.Project, Digest: dg}
		var by, why []string
		for _, g := range gs {
			by = append(by, g.By)
			why = append(why, g.Reason)
			if g.At.After(o.At) {
				o.At = g.At
			}
		}
		o.By, o.Reason = strings.Join(by, ", "), strings.Join(why, "; ")
		d.Overrides = append(d.Overrides, o)
	}
	return d
}

func givenOn(g record.Grant) string {
	if g.HeadSHA == "" {
		return ""
	}
	return " (on " + short(g.HeadSHA) + ")"
}
