package run

import (
	"context"
	"fmt"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/trust"
)

// What GitHub says of a base besides its plans: the files its pull
// request changes and the providers it moves (upgrades.go), the files that
// can make its plan run its code (prcode.go), what the base's plan
// workflows use (repofs.go), and who the overrides' people are
// (people.go).

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
	// Who the overrides' people are (people.go): the teams to ask of are
	// trust's, decided first; which label adders are bots, last.
	ask := trust.TeamsToAsk(b.cfg, b.st.Grants)
	if b.adders, err = labelAdders(ctx, r.gh, b.cfg, r.repo, b.pr); err != nil {
		return fmt.Errorf("check who may override: %w", err)
	}
	if b.people, err = People(ctx, r.gh, b.pr.Author, ask); err != nil {
		return fmt.Errorf("check who may override: %w", err)
	}
	b.botLabels = botLabels(b.cfg, b.adders)
	return nil
}

// changesOf is what trust sees of a pull request's changed files.
func changesOf(c port.Changes) trust.Changes {
	return trust.Changes{Files: c.Files, Complete: c.Complete, SHAs: c.SHAs}
}
