package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
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

// reviewWithOverrides builds the review of what collect read: the plans'
// findings and the provenance findings under one verdict, then the PR's
// grants as they stand now, then its override labels on the blocking
// findings still left. blocking are the review's overridable blocking
// findings, for /override.
func (a *App) reviewWithOverrides(ctx context.Context, gh PRReader, repo Repo, col collected, cfg *rules.Config, pr PullRequest, st PRState) (*review.Report, []record.Blocking, error) {
	opt := review.Options{Config: cfg, Findings: col.findings, Notes: col.notes}
	start := a.cfg.Now()
	report := review.Build(col.inputs, opt)
	if a.cfg.ObserveReview != nil {
		a.cfg.ObserveReview(a.cfg.Now().Sub(start), col.planBytes...)
	}
	subjects := trust.Subjects(cfg, reportFindings(report), projectEnvs(report))
	people, err := a.people(ctx, gh, cfg, pr.Author, trust.TeamsToAsk(cfg, st.Grants))
	if err != nil {
		return nil, nil, err
	}
	d := trust.Judge(cfg, subjects, st.Grants, people)
	notes := slices.Clone(col.notes)
	for _, g := range d.Standing {
		if !g.Counts {
			notes = append(notes, fmt.Sprintf("The override of %s on %s by %s no longer counts: %s.", g.Grant.Rule, g.Grant.Address, g.Grant.By, g.Why))
		}
	}
	for _, w := range d.Waiting {
		notes = append(notes, "Override waiting for approvals: "+w+".")
	}
	ovs := d.Overrides
	for i := range ovs {
		ovs[i].Reason = givenOn(ovs[i], st.Grants, pr.HeadSHA)
	}
	adders, err := labelAdders(ctx, gh, cfg, repo, pr)
	if err != nil {
		return nil, nil, err
	}
	byLabel, labelNotes := labelOverrides(cfg, report, pr, adders)
	ovs, notes = append(ovs, byLabel...), append(notes, labelNotes...)
	if len(ovs) > 0 || len(notes) > len(col.notes) {
		opt.Overrides, opt.Notes = ovs, notes
		report = review.Build(col.inputs, opt)
	}
	return report, subjects, nil
}

// givenOn is an applied override's reason, saying which commit its grants
// were given on.
func givenOn(o rules.Override, grants []record.Grant, head string) string {
	var on []string
	moved := false
	for _, g := range grants {
		if g.Digest == o.Digest && g.HeadSHA != "" && !slices.Contains(on, short(g.HeadSHA)) {
			on = append(on, short(g.HeadSHA))
			moved = moved || g.HeadSHA != head
		}
	}
	if len(on) == 0 {
		return o.Reason
	}
	note := "given on " + strings.Join(on, ", ")
	if moved {
		note += ", before the latest push: check that it still applies"
	}
	return strings.TrimSpace(o.Reason + " (" + note + ")")
}

func reportFindings(r *review.Report) []rules.Finding {
	var out []rules.Finding
	for _, p := range r.Projects {
		out = append(out, p.Findings...)
	}
	return out
}

func projectEnvs(r *review.Report) map[string]string {
	envs := map[string]string{}
	for _, p := range r.Projects {
		envs[p.Name] = p.Environment
	}
	return envs
}

// people asks GitHub what trust needs to know of the people involved: the
// teams, among those asked, each login is an active member of.
func (a *App) people(ctx context.Context, gh PRReader, cfg *rules.Config, author string, ask map[string][]string) (trust.People, error) {
	p := trust.People{Author: author, Teams: map[string][]string{}}
	for _, login := range slices.Sorted(maps.Keys(ask)) {
		for _, t := range ask[login] {
			org, slug, ok := strings.Cut(t, "/")
			if !ok || org == "" || slug == "" {
				continue
			}
			member, err := gh.TeamMember(ctx, org, slug, login)
			if err != nil {
				return p, fmt.Errorf("team membership of %s in %s: %w", login, t, err)
			}
			if member {
				p.Teams[login] = append(p.Teams[login], t)
			}
		}
	}
	return p, nil
}

// labelOverrides are the overrides the PR's labels give to the report's
// blocking findings that nothing overrides yet. Who added a label is
// GitHub's record (adders, from the PR's issue events), never a webhook
// the App may have missed: a label whose adder GitHub does not show does
// not count, and the notes say so. A label its author put on their own PR
// counts only where the config allows authors (allow_author).
func labelOverrides(cfg *rules.Config, r *review.Report, pr PullRequest, adders map[string]LabelMark) (out []rules.Override, notes []string) {
	unknown := map[string]bool{}
	for _, p := range r.Projects {
		for _, f := range p.Findings {
			if f.Severity != rules.SeverityBlock || f.Override != nil || !cfg.Overridable(f.Rule) {
				continue
			}
			for _, l := range pr.Labels {
				if !cfg.MayOverride(f.Rule, p.Environment, "", nil, []string{l}) {
					continue
				}
				m, ok := adders[strings.ToLower(l)]
				if !ok || m.By == "" {
					unknown[l] = true
					continue
				}
				if strings.EqualFold(m.By, pr.Author) && !trust.AuthorMay(cfg, f.Rule, p.Environment, pr.Author, nil) {
					continue
				}
				out = append(out, rules.Override{Rule: f.Rule, Address: f.Address, Project: f.Project,
					By: "label:" + l + " (added by " + m.By + ")", At: m.At, Digest: rules.FindingDigest(f)})
				break
			}
		}
	}
	for _, l := range slices.Sorted(maps.Keys(unknown)) {
		notes = append(notes, fmt.Sprintf("The label %q does not count: GitHub's events of this pull request do not show who added it. Remove it and add it again.", l))
	}
	return out, notes
}

// labelAdders asks GitHub who added the PR's labels, when one of them is
// an override label of cfg (nil, and no request, otherwise).
func labelAdders(ctx context.Context, gh port.PRReader, cfg *rules.Config, repo Repo, pr PullRequest) (map[string]LabelMark, error) {
	if !slices.ContainsFunc(pr.Labels, func(l string) bool { return isOverrideLabel(cfg, l) }) {
		return nil, nil
	}
	return gh.LabelAdders(ctx, repo, pr.Number)
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
	people, err := a.people(ctx, c.gh, cfg, pr.Author, ask)
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
