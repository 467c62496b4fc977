package run

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// Who the overrides' people are, as GitHub says: who added a pull
// request's override labels (and which of them a bot added, that may not
// approve), and who is in the teams its grants need.

// People asks GitHub what trust needs to know of the people involved: the
// teams, among those asked, each login is an active member of.
func People(ctx context.Context, gh port.PRReader, author string, ask map[string][]string) (trust.People, error) {
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

// labelAdders asks GitHub who added the PR's labels, when one of them is
// an override label of cfg (nil, and no request, otherwise).
func labelAdders(ctx context.Context, gh port.PRReader, cfg *rules.Config, repo port.Repo, pr port.PullRequest) (map[string]record.LabelMark, error) {
	if !slices.ContainsFunc(pr.Labels, func(l string) bool { return IsOverrideLabel(cfg, l) }) {
		return nil, nil
	}
	return gh.LabelAdders(ctx, repo, pr.Number)
}

// IsOverrideLabel reports whether any override policy of cfg names label.
func IsOverrideLabel(cfg *rules.Config, label string) bool {
	for _, p := range cfg.Overrides {
		if slices.ContainsFunc(p.Labels, func(e string) bool { return strings.EqualFold(e, label) }) {
			return true
		}
	}
	return false
}

// botLabels takes out of adders the labels a bot or App added that may not
// approve (trust.MayApprove: unless approving_bots lists it; never
// github-actions[bot], which acts for whoever triggered the workflow), and
// returns why each does not count, by the label's name in lower case.
func botLabels(cfg *rules.Config, adders map[string]record.LabelMark) map[string]string {
	var out map[string]string
	for name, m := range adders {
		if ok, why := trust.MayApprove(cfg, trust.Actor{Login: m.By, Type: m.ByType}); !ok && m.By != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[name] = why
			delete(adders, name)
		}
	}
	return out
}
