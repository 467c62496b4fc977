package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// Overrides of blocking findings. Two ways in:
//   - `/override RULE [ADDRESS] [-- reason]`, authorized against the base
//     branch's config (users, teams, labels), recorded in PRState;
//   - a label the config lists for a rule, live: while the PR carries it.
//
// A recorded override sticks to the PR across pushes; it names the head it
// was given on, and the comment says so when the PR has moved on since.

// maxOverrides bounds what one PR remembers.
const maxOverrides = 50

// forReview is the override as the rules apply it and the comment shows
// it: the reason says which commit it was given on.
func forReview(o Override, head string) rules.Override {
	r := rules.Override{Rule: o.Rule, Address: o.Address, Project: o.Project, By: o.By, At: o.At, Reason: o.Reason}
	if o.HeadSHA != "" {
		note := "given on " + short(o.HeadSHA)
		if o.HeadSHA != head {
			note += ", before the latest push: check that it still applies"
		}
		r.Reason = strings.TrimSpace(r.Reason + " (" + note + ")")
	}
	return r
}

// reviewWithOverrides builds the review with the PR's recorded overrides,
// then with its override labels on the blocking findings still left.
func (a *App) reviewWithOverrides(inputs []review.Input, cfg *rules.Config, pr PullRequest, head string, st PRState) *review.Report {
	var ovs []rules.Override
	for _, o := range st.Overrides {
		ovs = append(ovs, forReview(o, head))
	}
	report := review.Build(inputs, review.Options{Config: cfg, Overrides: ovs})
	if byLabel := labelOverrides(cfg, report, pr.Labels, st.Labels); len(byLabel) > 0 {
		report = review.Build(inputs, review.Options{Config: cfg, Overrides: append(ovs, byLabel...)})
	}
	return report
}

// labelOverrides are the overrides the PR's labels give to the report's
// blocking findings that nothing overrides yet.
func labelOverrides(cfg *rules.Config, r *review.Report, labels []string, marks []LabelMark) []rules.Override {
	if len(labels) == 0 {
		return nil
	}
	var out []rules.Override
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			if f.Severity != rules.SeverityBlock || f.Override != nil || !cfg.Overridable(f.Rule) {
				continue
			}
			for _, l := range labels {
				if !cfg.MayOverride(f.Rule, p.Environment, "", nil, []string{l}) {
					continue
				}
				o := rules.Override{Rule: f.Rule, Address: f.Address, Project: f.Project, By: "label:" + l}
				for _, m := range marks {
					if strings.EqualFold(m.Name, l) {
						o.At = m.At
						if m.By != "" {
							o.By += " (added by " + m.By + ")"
						}
					}
				}
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// isOverrideLabel reports whether any override policy of cfg names label.
func isOverrideLabel(cfg *rules.Config, label string) bool {
	for _, p := range cfg.Overrides {
		if containsFold(p.Labels, label) {
			return true
		}
	}
	return false
}

func containsFold(l []string, s string) bool {
	return slices.ContainsFunc(l, func(e string) bool { return strings.EqualFold(e, s) })
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

// processOverride is `/override`: with no arguments it lists what may be
// overridden and by whom; with a rule it authorizes the commenter against
// the base branch's config, records the override and reviews the latest
// plan again.
func (a *App) processOverride(ctx context.Context, gh GitHub, job Job, args []string, refuse func(string) error) error {
	repo := repoOf(job)
	pr, err := gh.GetPullRequest(ctx, repo, job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return refuse(fmt.Sprintf("`/override` works on open pull requests only; #%d is %s.", pr.Number, pr.State))
	}
	cfg, out, ok := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if !ok {
		return refuse("`/override` refused: " + out.Summary)
	}
	if len(args) > 0 && args[0] == "--revoke" {
		return a.revokeOverride(ctx, gh, job, pr, args[1:], refuse)
	}
	rule, address, reason := overrideArgs(args)
	if rule != "" && !knownRule(cfg, rule) {
		return refuse(fmt.Sprintf("`/override`: %s is not a rule of this repo. Write `/override RULE [ADDRESS] [-- reason]`; `/override` alone lists what may be overridden.", code(rule)))
	}
	if rule != "" && !cfg.Overridable(rule) {
		return refuse(fmt.Sprintf("`/override`: %s cannot be overridden: a plan that failed part way never passes. Fix the plan errors and plan again.", code(rule)))
	}
	st, _, err := a.store.PR(ctx, job.GroupKey())
	if err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		if rule == "" {
			return a.reply(ctx, gh, job, "eyes", "`/override`: there is no review of "+short(pr.HeadSHA)+" yet.\n\n"+policyList(cfg))
		}
		return refuse(fmt.Sprintf("`/override`: there is no review of %s (the head of #%d) yet, so there is nothing to override. Wait for the plan workflow, then try again.", short(pr.HeadSHA), pr.Number))
	}
	run, err := gh.GetWorkflowRun(ctx, repo, st.RunID)
	if err != nil {
		return err
	}
	run.PullRequests = []int{pr.Number}
	arts, err := gh.ListRunArtifacts(ctx, repo, run.ID)
	if err != nil {
		return err
	}
	inputs, _, out, ok := a.readPlans(ctx, gh, repo, run, planArtifacts(arts))
	if !ok {
		return refuse("`/override`: the latest plan cannot be read: " + out.Summary)
	}
	report := a.reviewWithOverrides(inputs, cfg, pr, pr.HeadSHA, st)
	if rule == "" {
		return a.reply(ctx, gh, job, "eyes", findingList(cfg, report))
	}

	// Which blocking findings the override would cover, and whether the
	// commenter may override each one's environment.
	teams := map[string]bool{}
	teamsFor := func(env string) ([]string, error) {
		_, policyTeams, _ := cfg.Overriders(rule, env)
		var in []string
		for _, t := range policyTeams {
			member, seen := teams[strings.ToLower(t)]
			if !seen {
				org, slug, ok := strings.Cut(t, "/")
				if ok && org != "" && slug != "" {
					if member, err = gh.TeamMember(ctx, org, slug, job.IssueComment.Sender); err != nil {
						return nil, err
					}
				}
				teams[strings.ToLower(t)] = member
			}
			if member {
				in = append(in, t)
			}
		}
		return in, nil
	}
	var allowed, byLabel, denied []string // projects
	deniedEnvs := map[string]bool{}
	for _, p := range report.Projects {
		match := slices.ContainsFunc(p.Findings, func(f rules.Finding) bool {
			return f.Rule == rule && f.Severity == rules.SeverityBlock && (address == "" || f.Address == address)
		})
		if !match {
			continue
		}
		in, err := teamsFor(p.Environment)
		if err != nil {
			return err
		}
		switch {
		case cfg.MayOverride(rule, p.Environment, job.IssueComment.Sender, in, nil):
			allowed = append(allowed, p.Name)
		case cfg.MayOverride(rule, p.Environment, job.IssueComment.Sender, in, pr.Labels):
			// Only a label on the PR allows it, and that label already
			// overrides while it is there: recording it would outlive
			// the label.
			byLabel = append(byLabel, p.Name)
		default:
			denied = append(denied, p.Name)
			deniedEnvs[p.Environment] = true
		}
	}
	where := code(rule)
	if address != "" {
		where += " on " + code(address)
	}
	if len(allowed) == 0 && len(denied) == 0 && len(byLabel) > 0 {
		return a.reply(ctx, gh, job, "eyes", fmt.Sprintf("`/override`: a label on #%d already overrides %s while it stays there; nothing to record. `/override` records overrides of the users and teams the config lists.", pr.Number, where))
	}
	if len(allowed) == 0 && len(denied) == 0 {
		return refuse(fmt.Sprintf("`/override`: the review of %s has no blocking finding of %s. `/override` alone lists what may be overridden.", short(pr.HeadSHA), where))
	}
	if len(allowed) == 0 {
		var who []string
		for _, env := range slices.Sorted(maps.Keys(deniedEnvs)) {
			who = append(who, "in "+code(env)+": "+overriders(cfg, rule, env))
		}
		return refuse(fmt.Sprintf("`/override`: %s may not override %s. Who may, per %s on %s: %s.",
			code(job.IssueComment.Sender), where, code(configFile(cfg)), code(pr.BaseRef), strings.Join(who, "; ")))
	}

	unlock := a.locks.lock(job.GroupKey())
	_, err = a.updatePR(ctx, job.GroupKey(), func(st *PRState) (bool, error) {
		st.Overrides = recordOverrides(st.Overrides, rule, address, reason, allowed, len(report.Projects) > 1, job.IssueComment.Sender, a.now(), pr.HeadSHA)
		return true, nil
	})
	unlock()
	if err != nil {
		return err
	}
	logger(ctx).Info("override recorded", "rule", rule, "sender", job.IssueComment.Sender, "projects", len(allowed))
	msg := fmt.Sprintf("`/override`: %s overrode %s on %s", code(job.IssueComment.Sender), where, short(pr.HeadSHA))
	if len(report.Projects) > 1 {
		msg += " in " + codeList(allowed)
	}
	msg += ". Reviewing the plan again."
	if len(denied) > 0 {
		msg += fmt.Sprintf(" Not in %s: %s may not override there.", codeList(denied), code(job.IssueComment.Sender))
	}
	if err := a.reply(ctx, gh, job, "+1", msg); err != nil {
		return err
	}
	return a.reviewRun(ctx, gh, repo, run)
}

// revokeOverride is `/override --revoke RULE [ADDRESS]`: it drops the
// recorded overrides of the rule (those covering the address, or all) and
// reviews the latest plan again. Revoking only makes the review stricter,
// so anyone with write access may.
func (a *App) revokeOverride(ctx context.Context, gh GitHub, job Job, pr PullRequest, args []string, refuse func(string) error) error {
	repo := repoOf(job)
	rule, address, _ := overrideArgs(args)
	if rule == "" {
		return refuse("`/override --revoke` needs a rule: `/override --revoke RULE [ADDRESS]`.")
	}
	perm, err := gh.GetPermission(ctx, repo, job.IssueComment.Sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return refuse(fmt.Sprintf("`/override --revoke` needs write access to %s; %s has %s.", repo, code(job.IssueComment.Sender), code(perm)))
	}
	unlock := a.locks.lock(job.GroupKey())
	var n int
	st, err := a.updatePR(ctx, job.GroupKey(), func(st *PRState) (bool, error) {
		n = len(st.Overrides)
		st.Overrides = slices.DeleteFunc(st.Overrides, func(o Override) bool {
			// A rule-wide override covers the address too.
			return o.Rule == rule && (address == "" || o.Address == address || o.Address == "")
		})
		return len(st.Overrides) < n, nil
	})
	unlock()
	if err != nil {
		return err
	}
	where := code(rule)
	if address != "" {
		where += " on " + code(address)
	}
	if len(st.Overrides) == n {
		return refuse(fmt.Sprintf("`/override --revoke`: #%d has no recorded override of %s.", pr.Number, where))
	}
	logger(ctx).Info("override revoked", "rule", rule, "sender", job.IssueComment.Sender, "revoked", n-len(st.Overrides))
	if err := a.reply(ctx, gh, job, "+1", fmt.Sprintf("`/override --revoke`: %s revoked %d override(s) of %s. Reviewing the plan again.", code(job.IssueComment.Sender), n-len(st.Overrides), where)); err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != pr.HeadSHA {
		return nil
	}
	return a.reviewAgain(ctx, gh, repo, pr.Number, st.RunID)
}

// recordOverrides adds the override for each project, replacing one for the
// same rule, address and project; the oldest go beyond maxOverrides.
func recordOverrides(have []Override, rule, address, reason string, projects []string, perProject bool, by string, at time.Time, head string) []Override {
	for _, p := range projects {
		o := Override{Rule: rule, Address: address, By: by, At: at, Reason: clamp(reason, 500), HeadSHA: head}
		if perProject {
			o.Project = p
		}
		have = slices.DeleteFunc(have, func(h Override) bool {
			return h.Rule == o.Rule && h.Address == o.Address && h.Project == o.Project
		})
		have = append(have, o)
		if !perProject {
			break
		}
	}
	if len(have) > maxOverrides {
		have = have[len(have)-maxOverrides:]
	}
	return have
}

func (a *App) reply(ctx context.Context, gh GitHub, job Job, reaction, msg string) error {
	repo := repoOf(job)
	if err := gh.React(ctx, repo, job.IssueComment.CommentID, reaction); err != nil {
		return err
	}
	_, err := gh.CreateComment(ctx, repo, job.PR, msg)
	return err
}

// findingList answers `/override` alone: each blocking finding of the
// latest review and who may override it.
func findingList(cfg *rules.Config, r *review.Report) string {
	var b strings.Builder
	n := 0
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			if f.Severity != rules.SeverityBlock {
				continue
			}
			if n == 30 {
				b.WriteString("- … and more: see the review comment.\n")
				return "`/override`: blocking findings of the latest review:\n\n" + b.String()
			}
			n++
			fmt.Fprintf(&b, "- %s on %s", code(f.Rule), code(f.Address))
			if len(r.Projects) > 1 {
				fmt.Fprintf(&b, " in %s", code(p.Name))
			}
			switch {
			case f.Override != nil:
				fmt.Fprintf(&b, ": overridden by %s\n", code(f.Override.By))
			case !cfg.Overridable(f.Rule):
				b.WriteString(": cannot be overridden\n")
			default:
				fmt.Fprintf(&b, ": %s\n", overriders(cfg, f.Rule, p.Environment))
			}
		}
	}
	if n == 0 {
		return "`/override`: the latest review has no blocking finding; nothing to override."
	}
	return "`/override`: blocking findings of the latest review:\n\n" + b.String() +
		"\nOverride one with `/override RULE [ADDRESS] [-- reason]`."
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
