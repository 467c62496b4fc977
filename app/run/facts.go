package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
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
	var err error
	if b.files, b.complete, err = r.gh.ListPRFiles(ctx, r.repo, b.pr.Number); err != nil {
		return fmt.Errorf("list the files of #%d: %w", b.pr.Number, err)
	}
	if b.upgrades, err = providerUpgrades(ctx, r.gh, r.repo, b.pr.BaseRef, r.run.HeadSHA, b.files, b.planDirs()); err != nil {
		return fmt.Errorf("read the provider versions of #%d: %w", b.pr.Number, err) // upgrades.go
	}
	if b.used, err = planWorkflowUses(ctx, r.gh, r.repo, b.cfg, b.pr.BaseRef); err != nil {
		return fmt.Errorf("read the plan workflows from %s: %w", b.pr.BaseRef, err)
	}
	if b.adders, err = labelAdders(ctx, r.gh, b.cfg, r.repo, b.pr); err != nil {
		return fmt.Errorf("check who may override: %w", err)
	}
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

// maxUsedFiles bounds how many workflow and action files are read to find
// what the plan workflows use.
const maxUsedFiles = 20

// planWorkflowUses returns the repository files the plan workflows use, as
// the base branch has them: local actions (`uses: ./...`, and what their
// action.yml uses in turn), called reusable workflows, and the scripts
// their run: steps execute (trust.WorkflowUses).
func planWorkflowUses(ctx context.Context, gh port.PRReader, repo port.Repo, cfg *rules.Config, baseRef string) ([]trust.Used, error) {
	var used []trust.Used
	type file struct{ path, via string }
	queue := []file{}
	for _, wf := range cfg.PlanWorkflowPaths() {
		queue = append(queue, file{wf, ""})
	}
	seen := map[string]bool{}
	for reads := 0; len(queue) > 0 && reads < maxUsedFiles; {
		f := queue[0]
		queue = queue[1:]
		if seen[f.path] {
			continue
		}
		seen[f.path] = true
		candidates := []string{f.path}
		if !strings.HasSuffix(f.path, ".yml") && !strings.HasSuffix(f.path, ".yaml") {
			candidates = []string{path.Join(f.path, "action.yml"), path.Join(f.path, "action.yaml")}
		}
		for _, c := range candidates {
			reads++
			data, err := gh.GetFile(ctx, repo, c, baseRef)
			if errors.Is(err, port.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			uses, runs, err := trust.WorkflowUses(data)
			if err != nil {
				worklog.From(ctx).Warn("workflow file is not YAML; its uses are not known", "file", c, "err", err)
				break
			}
			via := "used by " + f.path
			if f.via != "" {
				via += ", " + f.via
			}
			for _, r := range runs {
				used = append(used, trust.Used{Path: r, Via: "run by a step of " + strings.TrimPrefix(via, "used by ")})
			}
			for _, u := range uses {
				kind := "a local action"
				if strings.HasSuffix(u, ".yml") || strings.HasSuffix(u, ".yaml") {
					kind = "a reusable workflow"
				}
				used = append(used, trust.Used{Path: u, Via: kind + " " + via})
				queue = append(queue, file{u, via})
			}
			break
		}
	}
	return used, nil
}
