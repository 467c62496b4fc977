package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// What GitHub says of a base besides its plans: the files its pull
// request changes, what the base's plan workflows use, and who the
// overrides' people are.

// facts reads the facts of every base still to be reviewed.
func (r *Review) facts(ctx context.Context) error {
	for i, b := range r.bases {
		if b.out != nil || b.fin != nil {
			continue
		}
		if err := r.baseFacts(ctx, b); err != nil && i == 0 {
			return err
		} else if err != nil {
			return fmt.Errorf("review under the base of #%d: %w", b.pr.Number, err)
		}
	}
	return nil
}

// baseFacts reads the facts of base b: the files its pull request
// changes, what its plan workflows use, who added the pull request's
// override labels and who is in the teams its grants need.
func (r *Review) baseFacts(ctx context.Context, b *base) error {
	changes, err := r.gh.ListPRChanges(ctx, r.repo, b.pr.Number)
	if err != nil {
		return fmt.Errorf("list the files of #%d: %w", b.pr.Number, err)
	}
	b.changes = changesOf(changes)
	if b.upgrades, err = providerUpgrades(ctx, r.gh, r.repo, b.pr.BaseRef, r.run.HeadSHA, b.changes.Files, b.planDirs()); err != nil {
		return fmt.Errorf("read the provider versions of #%d: %w", b.pr.Number, err) // upgrades.go
	}
	if b.cfg.Dispatches() {
		if b.prCode, err = prCodeFiles(ctx, r.gh, r.repo, b.pr, b.changes); err != nil {
			return fmt.Errorf("read the Terraform files of #%d: %w", b.pr.Number, err)
		}
	}
	if b.reading, err = readPlanWorkflows(ctx, r.gh, r.repo, b.cfg, b.pr.BaseRef); err != nil {
		return fmt.Errorf("read the plan workflows from %s: %w", b.pr.BaseRef, err)
	}
	if b.adders, err = labelAdders(ctx, r.gh, b.cfg, r.repo, b.pr); err != nil {
		return fmt.Errorf("check who may override: %w", err)
	}
	b.botLabels = botLabels(b.cfg, b.adders)
	if b.people, err = People(ctx, r.gh, b.pr.Author, trust.TeamsToAsk(b.cfg, b.st.Grants)); err != nil {
		return fmt.Errorf("check who may override: %w", err)
	}
	return nil
}

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

// maxPRCodeFiles bounds the changed Terraform files read for
// plan-runs-pr-code; past it the rest are read as changed files nobody
// could check (an empty head).
const maxPRCodeFiles = 100

// prCodeFiles reads, through GitHub (never from the artifact), the base
// and head versions of the changed files that can make terraform plan
// run the pull request's own code (trust.PRCodeFiles), for
// trust.PlanRunsPRCode.
func prCodeFiles(ctx context.Context, gh port.PRReader, repo port.Repo, pr port.PullRequest, ch trust.Changes) ([]trust.FileVersions, error) {
	read := func(p, ref string) ([]byte, error) {
		data, err := gh.GetFile(ctx, repo, p, ref)
		if errors.Is(err, port.ErrNotFound) {
			return nil, nil
		}
		if err == nil && data == nil {
			data = []byte{}
		}
		return data, err
	}
	var out []trust.FileVersions
	for i, f := range trust.PRCodeFiles(ch) {
		fv := trust.FileVersions{Path: f, HeadSHA: ch.SHAs[f]}
		if i < maxPRCodeFiles {
			var err error
			if fv.Base, err = read(f, pr.BaseRef); err != nil {
				return nil, err
			}
			if fv.Head, err = read(f, pr.HeadSHA); err != nil {
				return nil, err
			}
		}
		out = append(out, fv)
	}
	return out, nil
}
