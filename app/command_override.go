package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// /override RULE [ADDRESS] -- reason, /override --revoke RULE [ADDRESS] and
// /override alone: authorized by the PR's base branch's config (the policy
// is override.go's and package trust's). Each reply is a thread of its
// own, like the other commands': a newer reply hides it.

// processOverride is `/override`: with no arguments it lists what may be
// overridden and by whom; with a rule it checks the commenter's authority
// against the base branch's config before anything else (nothing is
// downloaded for a refusal), records one grant per blocking finding of the
// last review it covers, and reviews the latest plans again.
func (a *App) processOverride(ctx context.Context, c command) error {
	pr, err := c.gh.GetPullRequest(ctx, c.repo, c.job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return a.refuse(ctx, c, fmt.Sprintf("works on open pull requests only; #%d is %s.", pr.Number, pr.State))
	}
	cfg, err := repoconfig.Base(ctx, c.gh, c.repo, pr.BaseRef)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		return a.refuse(ctx, c, refusal(bad))
	}
	if err != nil {
		return err
	}
	st, _, prior, err := a.openThread(ctx, c)
	if err != nil || prior != nil {
		return a.overrideHandledBefore(ctx, c, pr, st, prior, err)
	}
	if len(c.args) > 0 && c.args[0] == "--revoke" {
		return a.revokeOverride(ctx, c, pr, cfg)
	}
	rule, address, reason := overrideArgs(c.args)
	switch {
	case rule != "" && !knownRule(cfg, rule):
		return a.refuse(ctx, c, fmt.Sprintf("%s is not a rule of this repo. Write `/override RULE [ADDRESS] -- reason`; `/override` alone lists what may be overridden.", code(rule)))
	case rule != "" && !cfg.Overridable(rule):
		return a.refuse(ctx, c, fmt.Sprintf("%s cannot be overridden. Fix what it reports and plan again.", code(rule)))
	case rule != "" && strings.TrimSpace(reason) == "":
		return a.refuse(ctx, c, fmt.Sprintf("needs a reason: write `/override %s [ADDRESS] -- why this is acceptable`.", rule))
	case st.RunID == 0 || st.HeadSHA != pr.HeadSHA:
		if rule == "" {
			return a.answer(ctx, c, cfg, "override-info", "eyes", "`/override`: there is no review of "+short(pr.HeadSHA)+" yet.\n\n"+policyList(cfg))
		}
		return a.refuse(ctx, c, fmt.Sprintf("there is no review of %s (the head of #%d) yet, so there is nothing to override. Wait for the plan workflow, then try again.", short(pr.HeadSHA), pr.Number))
	case rule == "":
		return a.answer(ctx, c, cfg, "override-info", "eyes", findingList(cfg, st.Blocking, st.Grants, len(projectsOf(st.Blocking)) > 1))
	}
	return a.grantOverride(ctx, c, pr, cfg, st, rule, address, reason)
}

// overrideHandledBefore finishes an /override whose job ran before (a
// retry): its reply is there; a recorded or revoked override still needs
// its review.
func (a *App) overrideHandledBefore(ctx context.Context, c command, pr PullRequest, st PRState, prior *record.Thread, err error) error {
	if err != nil || prior.Command() != "override" || st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		return err
	}
	return a.run.Again(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// grantOverride records the commenter's override of the blocking findings
// of rule (at address, or all) they may override, and reviews again.
func (a *App) grantOverride(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, st PRState, rule, address, reason string) error {
	var match []record.Blocking
	for _, s := range st.Blocking {
		if s.Rule == rule && (address == "" || s.Address == address) {
			match = append(match, s)
		}
	}
	where := code(rule)
	if address != "" {
		where += " on " + code(address)
	}
	if len(match) == 0 {
		return a.refuse(ctx, c, fmt.Sprintf("the review of %s has no blocking finding of %s. `/override` alone lists what may be overridden.", short(pr.HeadSHA), where))
	}
	d, err := a.decideGrants(ctx, c, pr, cfg, match, rule, reason)
	if err != nil {
		return err
	}
	if len(d.grants) == 0 && len(d.denied) == 0 && len(d.byLabel) > 0 {
		return a.answer(ctx, c, cfg, "override-info", "eyes", fmt.Sprintf("`/override`: a label on #%d already overrides %s while it stays there; nothing to record. `/override` records overrides of the users and teams the config lists.", pr.Number, where))
	}
	whyNot := plainWords(strings.Join(d.whyNot, "; "))
	if len(d.grants) == 0 {
		envs := map[string]bool{}
		for _, s := range d.denied {
			envs[s.Environment] = true
		}
		var who []string
		for _, env := range slices.Sorted(maps.Keys(envs)) {
			who = append(who, "in "+code(env)+": "+overriders(cfg, rule, env))
		}
		return a.refuse(ctx, c, fmt.Sprintf("%s may not override %s (%s). Who may, per %s on %s: %s.",
			code(c.sender), where, whyNot, code(configFile(cfg)), code(pr.BaseRef), strings.Join(who, "; ")))
	}
	unlock := a.state.Lock(c.job.GroupKey())
	_, err = a.state.Update(ctx, c.job.GroupKey(), func(st *PRState) (bool, error) {
		st.Grants = recordGrants(st.Grants, d.grants)
		return true, nil
	})
	unlock()
	if err != nil {
		return err
	}
	worklog.From(ctx).Info("override recorded", "rule", rule, "sender", c.sender, "findings", len(d.grants))
	msg := fmt.Sprintf("`/override`: %s overrode %s on %s", code(c.sender), where, short(pr.HeadSHA))
	if projects := projectsOf(st.Blocking); len(projects) > 1 {
		var in []string
		for _, g := range d.grants {
			if !slices.Contains(in, g.Project) {
				in = append(in, g.Project)
			}
		}
		msg += " in " + codeList(in)
	}
	msg += fmt.Sprintf(" (%d finding(s)). Reviewing the plan again.", len(d.grants))
	if need := trust.Approvals(cfg, rule, d.grants[0].Environment); need > 1 {
		msg += fmt.Sprintf(" This rule needs %d different people's overrides.", need)
	}
	if len(d.denied) > 0 {
		msg += fmt.Sprintf(" Not %d other finding(s): %s.", len(d.denied), whyNot)
	}
	if err := a.answer(ctx, c, cfg, "override", "+1", msg); err != nil {
		return err
	}
	return a.run.Again(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// revokeOverride is `/override --revoke RULE [ADDRESS]`: it drops the
// recorded overrides of the rule (those covering the address, or all) and
// reviews the latest plan again. Revoking only makes the review stricter,
// so anyone with write access may.
func (a *App) revokeOverride(ctx context.Context, c command, pr PullRequest, cfg *rules.Config) error {
	rule, address, _ := overrideArgs(c.args[1:])
	if rule == "" {
		return a.refuse(ctx, c, "`--revoke` needs a rule: `/override --revoke RULE [ADDRESS]`.")
	}
	perm, err := c.gh.GetPermission(ctx, c.repo, c.sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return a.refuse(ctx, c, fmt.Sprintf("`--revoke` needs write access to %s; %s has %s.", code(c.repo.String()), code(c.sender), code(perm)))
	}
	unlock := a.state.Lock(c.job.GroupKey())
	var n int
	st, err := a.state.Update(ctx, c.job.GroupKey(), func(st *PRState) (bool, error) {
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
	where := code(rule)
	if address != "" {
		where += " on " + code(address)
	}
	if len(st.Grants) == n {
		return a.refuse(ctx, c, fmt.Sprintf("`--revoke`: #%d has no recorded override of %s.", pr.Number, where))
	}
	worklog.From(ctx).Info("override revoked", "rule", rule, "sender", c.sender, "revoked", n-len(st.Grants))
	if err := a.answer(ctx, c, cfg, "override", "+1", fmt.Sprintf("`/override --revoke`: %s revoked %d override(s) of %s. Reviewing the plan again.", code(c.sender), n-len(st.Grants), where)); err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		return nil
	}
	return a.run.Again(ctx, c.gh, c.repo, pr.Number, st.RunID)
}

// answer reacts and replies to an /override in a thread of its own
// (kind: override for what reviews again, override-info for a note),
// hiding the older replies it supersedes.
func (a *App) answer(ctx context.Context, c command, cfg *rules.Config, kind, reaction, text string) error {
	if err := c.gh.React(ctx, c.repo, c.commentID, reaction); err != nil {
		return err
	}
	t := record.Thread{ID: job.ThreadID(c.job.PR, c.commentID), By: c.sender, At: a.now(), Note: &record.Note{Command: kind}}
	return a.postThread(ctx, c, cfg, t, comment.Note(t.ID, kind, text), nil)
}
