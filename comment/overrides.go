package comment

import (
	"fmt"
	"strings"

	pw "github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// The words of /override: its refusals (reasons for Refusal) and its
// answers (texts for Note). What the command may record, and who may, is
// package trust's to decide; app/command decides which answer is due.

// Where is what an /override names: the rule, on the address when one is
// given.
func Where(rule, address string) string {
	where := quote(rule)
	if address != "" {
		where += " on " + quote(address)
	}
	return where
}

// UnknownRule refuses an /override of rule, no rule of the repository.
func UnknownRule(rule string) string {
	return fmt.Sprintf("%s is not a rule of this repo. Write `/override RULE [ADDRESS] -- reason`; `/override` alone lists what may be overridden.", quote(rule))
}

// NotOverridable refuses an /override of rule, which cannot be overridden.
func NotOverridable(rule string) string {
	return fmt.Sprintf("%s cannot be overridden. Fix what it reports and plan again.", quote(rule))
}

// NeedsReason refuses an /override of rule that gives no reason.
func NeedsReason(rule string) string {
	return fmt.Sprintf("needs a reason: write `/override %s [ADDRESS] -- why this is acceptable`.", rule)
}

// NoReviewYet refuses an /override while head, the head of pull request
// pr, has no review.
func NoReviewYet(head string, pr int) string {
	return fmt.Sprintf("there is no review of %s (the head of #%d) yet, so there is nothing to override. Wait for the plan workflow, then try again.", shortSHA(head), pr)
}

// NoBlockingFinding refuses an /override of where (Where) that no blocking
// finding of the review of head is.
func NoBlockingFinding(head, where string) string {
	return fmt.Sprintf("the review of %s has no blocking finding of %s. `/override` alone lists what may be overridden.", shortSHA(head), where)
}

// Denied refuses sender's /override of rule on where (Where): why (trust's
// reasons, joined) says why not, and who may in each environment of envs,
// per the config on base.
func Denied(cfg *rules.Config, sender, rule, where, why, base string, envs []string) string {
	var who []string
	for _, env := range envs {
		who = append(who, "in "+quote(env)+": "+overriders(cfg, rule, env))
	}
	return fmt.Sprintf("%s may not override %s (%s). Who may, per %s on %s: %s.",
		quote(sender), where, plainWords(why), quote(configFile(cfg)), quote(base), strings.Join(who, "; "))
}

// RevokeNeedsRule refuses `/override --revoke` without a rule.
const RevokeNeedsRule = "`--revoke` needs a rule: `/override --revoke RULE [ADDRESS]`."

// NothingToRevoke refuses `/override --revoke` of where (Where) when pull
// request pr records no such override.
func NothingToRevoke(pr int, where string) string {
	return fmt.Sprintf("`--revoke`: #%d has no recorded override of %s.", pr, where)
}

// NoReviewInfo answers `/override` alone while head has no review: what
// the config says of overrides.
func NoReviewInfo(cfg *rules.Config, head string) string {
	return "`/override`: there is no review of " + shortSHA(head) + " yet.\n\n" + policyList(cfg)
}

// LabelOverrides answers an /override of where (Where) that only a label
// on pull request pr allows: the label overrides it while it stays.
func LabelOverrides(pr int, where string) string {
	return fmt.Sprintf("`/override`: a label on #%d already overrides %s while it stays there; nothing to record. `/override` records overrides of the users and teams the config lists.", pr, where)
}

// Overrode is the answer to an /override that recorded grants.
type Overrode struct {
	Sender, Rule, Address, Head string
	// Projects are the projects of the findings it covers, named when the
	// review has more than one project.
	Projects []string
	Findings int
	// Approvals is how many different people the rule needs (1: one).
	Approvals int
	// Denied counts the findings it does not cover, Why says why not.
	Denied int
	Why    string
}

// Text is the answer.
func (o Overrode) Text() string {
	msg := fmt.Sprintf("`/override`: %s overrode %s on %s", quote(o.Sender), Where(o.Rule, o.Address), shortSHA(o.Head))
	if len(o.Projects) > 0 {
		msg += " in " + quoteList(o.Projects)
	}
	msg += fmt.Sprintf(" (%d finding(s)). Reviewing the plan again.", o.Findings)
	if o.Approvals > 1 {
		msg += fmt.Sprintf(" This rule needs %d different people's overrides.", o.Approvals)
	}
	if o.Denied > 0 {
		msg += fmt.Sprintf(" Not %d other finding(s): %s.", o.Denied, plainWords(o.Why))
	}
	return msg
}

// Revoked is the answer to sender's `/override --revoke` of where (Where)
// that dropped n recorded overrides.
func Revoked(sender string, n int, where string) string {
	return fmt.Sprintf("`/override --revoke`: %s revoked %d override(s) of %s. Reviewing the plan again.", quote(sender), n, where)
}

// Overridable is a blocking finding of the latest review as `/override`
// alone lists it: how many different people must override it
// (Approvals), and who did (By).
type Overridable struct {
	record.Blocking
	Approvals int
	By        []string
}

// FindingList answers `/override` alone: each blocking finding of the
// latest review (at most 30), who may override it under cfg and who did;
// multi names each finding's project.
func FindingList(cfg *rules.Config, subjects []Overridable, multi bool) string {
	var b strings.Builder
	for n, s := range subjects {
		if n == 30 {
			b.WriteString("- … and more: see the review comment.\n")
			break
		}
		fmt.Fprintf(&b, "- %s on %s", quote(s.Rule), quote(s.Address))
		if multi {
			fmt.Fprintf(&b, " in %s", quote(s.Project))
		}
		fmt.Fprintf(&b, ": %s", overriders(cfg, s.Rule, s.Environment))
		if s.Approvals > 1 {
			fmt.Fprintf(&b, " (%d different people)", s.Approvals)
		}
		if len(s.By) > 0 {
			fmt.Fprintf(&b, "; overridden by %s", quoteList(s.By))
		}
		b.WriteString("\n")
	}
	if len(subjects) == 0 {
		return "`/override`: the latest review has no blocking finding that may be overridden; nothing to override."
	}
	return "`/override`: blocking findings of the latest review:\n\n" + b.String() +
		"\nOverride one with `/override RULE [ADDRESS] -- reason`."
}

// plainWords keeps a sentence made of logins, rule ids and environment
// names from becoming markdown or a mention.
func plainWords(s string) string {
	return strings.NewReplacer("`", "'", "@", "", "<", "", ">", "", "\n", " ", "*", "", "_", "\\_").Replace(pw.Clamp(s, 1000))
}

// OverrideKind is what an /override answers.
type OverrideKind int

// The answers of /override: refusals first, then notes.
const (
	// OverrideClosed refuses: the pull request is not open (State).
	OverrideClosed OverrideKind = iota
	// OverrideBadConfig refuses: the base branch's config cannot be used
	// (ConfigFile, ConfigRef, ConfigErr).
	OverrideBadConfig
	// OverrideUnknownRule refuses: Rule is no rule of the repository.
	OverrideUnknownRule
	// OverrideNotOverridable refuses: Rule cannot be overridden.
	OverrideNotOverridable
	// OverrideNeedsReason refuses: no reason was given.
	OverrideNeedsReason
	// OverrideNoReviewYet refuses: the head has no review.
	OverrideNoReviewYet
	// OverrideNoBlockingFinding refuses: the review has no blocking
	// finding of Rule (on Address).
	OverrideNoBlockingFinding
	// OverrideDenied refuses: Sender may not override any finding it
	// names (Why), in Environments.
	OverrideDenied
	// OverrideRevokeNeedsRule refuses: --revoke without a rule.
	OverrideRevokeNeedsRule
	// OverrideRevokeNeedsWrite refuses: Sender has only Permission.
	OverrideRevokeNeedsWrite
	// OverrideNothingToRevoke refuses: no recorded override of Rule (on
	// Address).
	OverrideNothingToRevoke
	// OverrideByBot refuses: Sender is a bot or App the config does not
	// let approve (Why).
	OverrideByBot
	// OverridePolicy answers `/override` alone before any review: who may
	// override, per the config.
	OverridePolicy
	// OverrideList answers `/override` alone: the review's blocking
	// findings (Findings), who may override each and who did.
	OverrideList
	// OverrideByLabel answers: a label already overrides the findings.
	OverrideByLabel
	// OverrideRecorded answers: the override is recorded (Recorded).
	OverrideRecorded
	// OverrideRevoked answers: Revoked overrides are dropped.
	OverrideRevoked
)

// OverrideAnswer is what an /override answers, as app/command decided it,
// and what the answer needs to say it.
type OverrideAnswer struct {
	Kind                  OverrideKind
	Sender, Rule, Address string
	PR                    int
	Head, Base, State     string
	Repo, Permission      string
	Config                *rules.Config
	ConfigFile, ConfigRef string
	ConfigErr             error
	Why                   string
	Environments          []string
	Findings              []Overridable
	Multi                 bool
	Recorded              Overrode
	Revoked               int
}

// Refused reports whether the answer refuses the command.
func (a OverrideAnswer) Refused() bool { return a.Kind < OverridePolicy }

// Command names the answer's reply in its marker: override for what is
// recorded or revoked (the plan is reviewed again), override-info for a
// note.
func (a OverrideAnswer) Command() string {
	if a.Kind == OverrideRecorded || a.Kind == OverrideRevoked {
		return "override"
	}
	return "override-info"
}

// Words is the refusal's reason, or the note's text.
func (a OverrideAnswer) Words() string {
	where := Where(a.Rule, a.Address)
	switch a.Kind {
	case OverrideClosed:
		return OpenOnly(a.PR, a.State)
	case OverrideBadConfig:
		return UnusableConfig(a.ConfigFile, a.ConfigRef, a.ConfigErr)
	case OverrideUnknownRule:
		return UnknownRule(a.Rule)
	case OverrideNotOverridable:
		return NotOverridable(a.Rule)
	case OverrideNeedsReason:
		return NeedsReason(a.Rule)
	case OverrideNoReviewYet:
		return NoReviewYet(a.Head, a.PR)
	case OverrideNoBlockingFinding:
		return NoBlockingFinding(a.Head, where)
	case OverrideDenied:
		return Denied(a.Config, a.Sender, a.Rule, where, a.Why, a.Base, a.Environments)
	case OverrideRevokeNeedsRule:
		return RevokeNeedsRule
	case OverrideRevokeNeedsWrite:
		return RevokeNeedsWrite(a.Repo, a.Sender, a.Permission)
	case OverrideNothingToRevoke:
		return NothingToRevoke(a.PR, where)
	case OverrideByBot:
		return BotMayNotApprove(a.Why)
	case OverridePolicy:
		return NoReviewInfo(a.Config, a.Head)
	case OverrideList:
		return FindingList(a.Config, a.Findings, a.Multi)
	case OverrideByLabel:
		return LabelOverrides(a.PR, where)
	case OverrideRecorded:
		return a.Recorded.Text()
	}
	return Revoked(a.Sender, a.Revoked, where)
}

// BotMayNotApprove is the refusal of an /override, or the note on an
// override label, by a bot or App that may not approve (why, trust's
// sentence).
func BotMayNotApprove(why string) string {
	return fmt.Sprintf("Only people approve: %s. A bot's command or label counts only when the base branch's config lists the bot under approving_bots.", plainWords(why))
}

// BotLabelNote is the note on an override label a bot or App added that
// may not approve (why).
func BotLabelNote(label, why string) string {
	return fmt.Sprintf("The label %q does not count. %s", label, BotMayNotApprove(why))
}
