package command

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// /override RULE [ADDRESS] -- reason, /override --revoke RULE [ADDRESS] and
// /override alone: authorized by the PR's base branch's config (the policy
// is package trust's). Each reply is a thread of its own, like the other
// commands': a newer reply hides it.
//
// An override is recorded in the PR's state as one grant per blocking
// finding it covers (record.Grant: the finding's digest and environment).
// Every review re-authorizes every grant against the base branch's config
// of that moment (trust.Judge, in app/run), so a grant lapses, visibly,
// when a push changes its finding or its author is no longer listed.

// maxGrants bounds what one PR remembers.
const maxGrants = 100

// overriding is what one /override comes to: its answer, the config it
// was decided under, and whether the latest plan is to be reviewed again
// (the plan run runID of pull request pr).
type overriding struct {
	answer comment.OverrideAnswer
	cfg    *rules.Config
	// quiet: the command was handled before (a retried job): its reply is
	// there, only its review may be left.
	quiet bool
	again bool
	pr    int
	runID int64
}

// override is `/override`: with no arguments it lists what may be
// overridden and by whom; with a rule it checks the commenter's authority
// against the base branch's config before anything else (nothing is
// downloaded for a refusal), records one grant per blocking finding of the
// last review it covers, and reviews the latest plans again. What it comes
// to is decided first (decide), then answered in a thread of its own, then
// reviewed.
func (x *Commands) override(ctx context.Context, c command) error {
	o, err := x.decide(ctx, c)
	if err != nil {
		return err
	}
	if !o.quiet {
		if err := x.answer(ctx, c, o.cfg, o.answer); err != nil {
			return err
		}
	}
	if !o.again {
		return nil
	}
	return x.reviewAgain(ctx, c.gh, c.repo, o.pr, o.runID)
}

// decide reads what an /override needs (the pull request, the base
// branch's config, the PR's state, the commenter's authority) and decides
// its answer; an override it records or revokes is in the PR's state when
// it returns.
func (x *Commands) decide(ctx context.Context, c command) (overriding, error) {
	revoking := len(c.args) > 0 && c.args[0] == "--revoke"
	args := c.args
	if revoking {
		args = args[1:]
	}
	rule, address, reason := overrideArgs(args)
	pr, err := c.gh.GetPullRequest(ctx, c.repo, c.job.PR)
	if err != nil {
		return overriding{}, err
	}
	o := overriding{pr: pr.Number, answer: comment.OverrideAnswer{Sender: c.sender, Rule: rule, Address: address, PR: pr.Number,
		Head: pr.HeadSHA, Base: pr.BaseRef, State: pr.State, Repo: c.repo.String()}}
	a := &o.answer
	if pr.State != "open" {
		a.Kind = comment.OverrideClosed
		return o, nil
	}
	cfg, err := repoconfig.Read(ctx, c.gh, c.repo, pr.BaseRef)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		a.Kind, a.ConfigFile, a.ConfigRef, a.ConfigErr = comment.OverrideBadConfig, bad.File, bad.Ref, bad.Err
		return o, nil
	}
	if err != nil {
		return o, err
	}
	o.cfg, a.Config = cfg, cfg
	// Humans approve: a bot's or App's command counts only when the
	// base branch's config lists it (never github-actions[bot]).
	if ok, why := trust.MayApprove(cfg, trust.Actor{Login: c.sender, Type: c.senderType}); !ok {
		a.Kind, a.Why = comment.OverrideByBot, why
		return o, nil
	}
	st, _, err := x.state.PR(ctx, c.job.GroupKey())
	prior := publish.FindThread(&st, job.ThreadID(c.job.PR, c.commentID))
	if err != nil || prior != nil {
		// Handled before: a recorded or revoked override still needs its
		// review.
		o.quiet = true
		o.again = err == nil && prior.Command() == "override" && st.RunID != 0 && st.HeadSHA == pr.HeadSHA
		o.runID = st.RunID
		return o, err
	}
	o.runID = st.RunID
	reviewed := st.RunID != 0 && st.HeadSHA == pr.HeadSHA
	known := slices.Contains(rules.BuiltinRules(), rule) || slices.ContainsFunc(cfg.CustomRules, func(r rules.CustomRule) bool { return r.ID == rule })
	switch {
	case revoking:
		return o, x.revoke(ctx, c, &o, reviewed)
	case rule != "" && !known:
		a.Kind = comment.OverrideUnknownRule
	case rule != "" && !cfg.Overridable(rule):
		a.Kind = comment.OverrideNotOverridable
	case rule != "" && strings.TrimSpace(reason) == "":
		a.Kind = comment.OverrideNeedsReason
	case !reviewed && rule == "":
		a.Kind = comment.OverridePolicy
	case !reviewed:
		a.Kind = comment.OverrideNoReviewYet
	case rule == "":
		a.Kind, a.Findings, a.Multi = comment.OverrideList, overridable(cfg, st), len(projectsOf(st.Blocking)) > 1
	default:
		return o, x.grant(ctx, c, pr, st, &o, reason)
	}
	return o, nil
}

// grant decides which blocking findings of the answer's rule (at its
// address, or all) the commenter may override, and records a grant for
// each; the latest plan is then reviewed again.
func (x *Commands) grant(ctx context.Context, c command, pr port.PullRequest, st port.PRState, o *overriding, reason string) error {
	a, cfg := &o.answer, o.cfg
	var match []record.Blocking
	for _, s := range st.Blocking {
		if s.Rule == a.Rule && (a.Address == "" || s.Address == a.Address) {
			match = append(match, s)
		}
	}
	if len(match) == 0 {
		a.Kind = comment.OverrideNoBlockingFinding
		return nil
	}
	d, err := x.decideGrants(ctx, c, pr, cfg, match, a.Rule, reason)
	if err != nil {
		return err
	}
	a.Why = strings.Join(d.whyNot, "; ")
	switch {
	case len(d.grants) == 0 && len(d.denied) == 0 && len(d.byLabel) > 0:
		a.Kind = comment.OverrideByLabel
		return nil
	case len(d.grants) == 0:
		envs := map[string]bool{}
		for _, s := range d.denied {
			envs[s.Environment] = true
		}
		a.Kind, a.Environments = comment.OverrideDenied, slices.Sorted(maps.Keys(envs))
		return nil
	}
	unlock := x.state.Lock(c.job.GroupKey())
	_, err = x.state.Update(ctx, c.job.GroupKey(), func(st *port.PRState) (bool, error) {
		st.Grants = recordGrants(st.Grants, d.grants)
		return true, nil
	})
	unlock()
	if err != nil {
		return err
	}
	worklog.From(ctx).Info("override recorded", "rule", a.Rule, "sender", c.sender, "findings", len(d.grants))
	a.Kind, o.again = comment.OverrideRecorded, true
	a.Recorded = comment.Overrode{Sender: c.sender, Rule: a.Rule, Address: a.Address, Head: pr.HeadSHA, Findings: len(d.grants),
		Approvals: trust.Approvals(cfg, a.Rule, d.grants[0].Environment), Denied: len(d.denied), Why: a.Why}
	if len(projectsOf(st.Blocking)) > 1 {
		for _, g := range d.grants {
			if !slices.Contains(a.Recorded.Projects, g.Project) {
				a.Recorded.Projects = append(a.Recorded.Projects, g.Project)
			}
		}
	}
	return nil
}

// revoke is `/override --revoke RULE [ADDRESS]`: it drops the recorded
// overrides of the rule (those covering the address, or all), and the
// latest plan, when the head has a review, is reviewed again. Revoking
// only makes the review stricter, so anyone with write access may.
func (x *Commands) revoke(ctx context.Context, c command, o *overriding, reviewed bool) error {
	a := &o.answer
	if a.Rule == "" {
		a.Kind = comment.OverrideRevokeNeedsRule
		return nil
	}
	perm, err := c.gh.GetPermission(ctx, c.repo, c.sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		a.Kind, a.Permission = comment.OverrideRevokeNeedsWrite, perm
		return nil
	}
	unlock := x.state.Lock(c.job.GroupKey())
	var n int
	st, err := x.state.Update(ctx, c.job.GroupKey(), func(st *port.PRState) (bool, error) {
		n = len(st.Grants)
		st.Grants = slices.DeleteFunc(st.Grants, func(g record.Grant) bool {
			return g.Rule == a.Rule && (a.Address == "" || g.Address == a.Address)
		})
		return len(st.Grants) < n, nil
	})
	unlock()
	if err != nil {
		return err
	}
	if len(st.Grants) == n {
		a.Kind = comment.OverrideNothingToRevoke
		return nil
	}
	worklog.From(ctx).Info("override revoked", "rule", a.Rule, "sender", c.sender, "revoked", n-len(st.Grants))
	a.Kind, a.Revoked = comment.OverrideRevoked, n-len(st.Grants)
	o.again, o.runID = st.RunID != 0 && st.HeadSHA == a.Head, st.RunID
	return nil
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
func (x *Commands) decideGrants(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, match []record.Blocking, rule, reason string) (grantDecision, error) {
	ask := map[string][]string{}
	for _, s := range match {
		for k, v := range trust.TeamsToAsk(cfg, []record.Grant{{Rule: rule, Environment: s.Environment, By: c.sender}}) {
			for _, t := range v {
				if !slices.Contains(ask[k], t) {
					ask[k] = append(ask[k], t)
				}
			}
		}
	}
	people, err := run.People(ctx, c.gh, pr.Author, ask)
	if err != nil {
		return grantDecision{}, err
	}
	var d grantDecision
	for _, s := range match {
		// decide let the commenter approve (trust.MayApprove).
		why := trust.CheckApprover(cfg, s, c.sender, reason, people)
		switch {
		case why == "":
			d.grants = append(d.grants, record.Grant{Rule: rule, Project: s.Project, Address: s.Address, Environment: s.Environment,
				Digest: trust.Digest(s), By: c.sender, At: x.state.Now(), Reason: prose.Clamp(reason, 500), HeadSHA: pr.HeadSHA})
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

// overridable are the blocking findings of the latest review, with how
// many people must override each and who did.
func overridable(cfg *rules.Config, st port.PRState) []comment.Overridable {
	var out []comment.Overridable
	for _, s := range st.Blocking {
		o := comment.Overridable{Blocking: s, Approvals: trust.Approvals(cfg, s.Rule, s.Environment)}
		for _, g := range st.Grants {
			if g.Digest == trust.Digest(s) {
				o.By = append(o.By, g.By)
			}
		}
		out = append(out, o)
	}
	return out
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
