package command

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
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

// override is `/override`: with no arguments it lists what may be
// overridden and by whom; with a rule it checks the commenter's authority
// against the base branch's config before anything else (nothing is
// downloaded for a refusal), records one grant per blocking finding of the
// last review it covers, and reviews the latest plans again.
func (x *Commands) override(ctx context.Context, c command) error {
	pr, err := c.gh.GetPullRequest(ctx, c.repo, c.job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return x.refuse(ctx, c, comment.OpenOnly(pr.Number, pr.State))
	}
	cfg, err := repoconfig.Read(ctx, c.gh, c.repo, pr.BaseRef)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		return x.refuse(ctx, c, comment.UnusableConfig(bad.File, bad.Ref, bad.Err))
	}
	if err != nil {
		return err
	}
	st, _, prior, err := x.openThread(ctx, c)
	if err != nil || prior != nil {
		return x.handledBefore(ctx, c, pr, st, prior, err)
	}
	if len(c.args) > 0 && c.args[0] == "--revoke" {
		return x.revoke(ctx, c, pr, cfg)
	}
	rule, address, reason := overrideArgs(c.args)
	switch {
	case rule != "" && !knownRule(cfg, rule):
		return x.refuse(ctx, c, comment.UnknownRule(rule))
	case rule != "" && !cfg.Overridable(rule):
		return x.refuse(ctx, c, comment.NotOverridable(rule))
	case rule != "" && strings.TrimSpace(reason) == "":
		return x.refuse(ctx, c, comment.NeedsReason(rule))
	case st.RunID == 0 || st.HeadSHA != pr.HeadSHA:
		if rule == "" {
			return x.answer(ctx, c, cfg, "override-info", "eyes", comment.NoReviewInfo(cfg, pr.HeadSHA))
		}
		return x.refuse(ctx, c, comment.NoReviewYet(pr.HeadSHA, pr.Number))
	case rule == "":
		return x.answer(ctx, c, cfg, "override-info", "eyes", comment.FindingList(cfg, overridable(cfg, st), len(projectsOf(st.Blocking)) > 1))
	}
	return x.grant(ctx, c, pr, cfg, st, rule, address, reason)
}

// handledBefore finishes an /override whose job ran before (a retry): its
// reply is there; a recorded or revoked override still needs its review.
func (x *Commands) handledBefore(ctx context.Context, c command, pr port.PullRequest, st port.PRState, prior *record.Thread, err error) error {
	if err != nil || prior.Command() != "override" || st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		return err
	}
	return x.reviewAgain(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// grant records the commenter's override of the blocking findings of rule
// (at address, or all) they may override, and reviews again.
func (x *Commands) grant(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, st port.PRState, rule, address, reason string) error {
	var match []record.Blocking
	for _, s := range st.Blocking {
		if s.Rule == rule && (address == "" || s.Address == address) {
			match = append(match, s)
		}
	}
	where := comment.Where(rule, address)
	if len(match) == 0 {
		return x.refuse(ctx, c, comment.NoBlockingFinding(pr.HeadSHA, where))
	}
	d, err := x.decideGrants(ctx, c, pr, cfg, match, rule, reason)
	if err != nil {
		return err
	}
	if len(d.grants) == 0 && len(d.denied) == 0 && len(d.byLabel) > 0 {
		return x.answer(ctx, c, cfg, "override-info", "eyes", comment.LabelOverrides(pr.Number, where))
	}
	whyNot := strings.Join(d.whyNot, "; ")
	if len(d.grants) == 0 {
		envs := map[string]bool{}
		for _, s := range d.denied {
			envs[s.Environment] = true
		}
		return x.refuse(ctx, c, comment.Denied(cfg, c.sender, rule, where, whyNot, pr.BaseRef, slices.Sorted(maps.Keys(envs))))
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
	worklog.From(ctx).Info("override recorded", "rule", rule, "sender", c.sender, "findings", len(d.grants))
	answer := comment.Overrode{Sender: c.sender, Rule: rule, Address: address, Head: pr.HeadSHA, Findings: len(d.grants),
		Approvals: trust.Approvals(cfg, rule, d.grants[0].Environment), Denied: len(d.denied), Why: whyNot}
	if len(projectsOf(st.Blocking)) > 1 {
		for _, g := range d.grants {
			if !slices.Contains(answer.Projects, g.Project) {
				answer.Projects = append(answer.Projects, g.Project)
			}
		}
	}
	if err := x.answer(ctx, c, cfg, "override", "+1", answer.Text()); err != nil {
		return err
	}
	return x.reviewAgain(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// revoke is `/override --revoke RULE [ADDRESS]`: it drops the recorded
// overrides of the rule (those covering the address, or all) and reviews
// the latest plan again. Revoking only makes the review stricter, so
// anyone with write access may.
func (x *Commands) revoke(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config) error {
	rule, address, _ := overrideArgs(c.args[1:])
	if rule == "" {
		return x.refuse(ctx, c, comment.RevokeNeedsRule)
	}
	perm, err := c.gh.GetPermission(ctx, c.repo, c.sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return x.refuse(ctx, c, comment.RevokeNeedsWrite(c.repo.String(), c.sender, perm))
	}
	unlock := x.state.Lock(c.job.GroupKey())
	var n int
	st, err := x.state.Update(ctx, c.job.GroupKey(), func(st *port.PRState) (bool, error) {
		n = len(st.Grants)
		st.Grants = slices.DeleteFunc(st.Grants, func(g record.Grant) bool {
			return g.Rule == rule && (address == "" || g.Address == address)
		})
		return len(st.Grants) < n, nil
	})
	unlock()
	if err != nil {
		return err
	}
	where := comment.Where(rule, address)
	if len(st.Grants) == n {
		return x.refuse(ctx, c, comment.NothingToRevoke(pr.Number, where))
	}
	worklog.From(ctx).Info("override revoked", "rule", rule, "sender", c.sender, "revoked", n-len(st.Grants))
	if err := x.answer(ctx, c, cfg, "override", "+1", comment.Revoked(c.sender, n-len(st.Grants), where)); err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		return nil
	}
	return x.reviewAgain(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// answer reacts and replies to an /override in a thread of its own
// (kind: override for what reviews again, override-info for a note),
// hiding the older replies it supersedes.
func (x *Commands) answer(ctx context.Context, c command, cfg *rules.Config, kind, reaction, text string) error {
	if err := c.gh.React(ctx, c.repo, c.commentID, reaction); err != nil {
		return err
	}
	t := record.Thread{ID: job.ThreadID(c.job.PR, c.commentID), By: c.sender, At: x.state.Now(), Note: &record.Note{Command: kind}}
	return x.postThread(ctx, c, cfg, t, comment.Note(t.ID, kind, text), nil)
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
		why := trust.Check(cfg, s, c.sender, reason, people)
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
