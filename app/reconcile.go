package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
)

// ReconcileEvery is how often serve reconciles (and the Lambda's
// EventBridge schedule in template.yaml, rate(5 minutes)).
const ReconcileEvery = 5 * time.Minute

// Reconcile re-decides, in every repository of every installation of the
// App, each open pull request whose `planwarden` check was decided under
// another base than its own now, or is still in progress (run.Runner.Reconcile):
// a lost delivery (a retarget answered 503, a workflow_run never sent) or
// a job that gave up while GitHub was down costs minutes, not the gate.
// serve runs it at start and every ReconcileEvery; the Lambda worker on
// its schedule. An error of one pull request is logged and the others go
// on; the errors are returned together.
func (a *App) Reconcile(ctx context.Context) error {
	if a.installations == nil {
		return errors.New("reconcile: the app cannot list its installations")
	}
	ids, err := a.installations(ctx)
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	var errs []error
	decided := 0
	for _, id := range ids {
		n, err := a.reconcileInstallation(ctx, id)
		decided += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	a.log.Info("reconciled", "installations", len(ids), "decided", decided, "errors", len(errs))
	return errors.Join(errs...)
}

func (a *App) reconcileInstallation(ctx context.Context, id int64) (int, error) {
	gh, err := a.github(id)
	if err != nil {
		return 0, fmt.Errorf("reconcile installation %d: %w", id, err)
	}
	lister, ok := gh.(port.Lister)
	if !ok {
		return 0, fmt.Errorf("reconcile installation %d: its client cannot list pull requests", id)
	}
	repos, err := lister.ListInstallationRepos(ctx)
	if err != nil {
		return 0, fmt.Errorf("reconcile installation %d: %w", id, err)
	}
	var errs []error
	decided := 0
	for _, repo := range repos {
		prs, err := lister.ListOpenPRs(ctx, repo)
		if err != nil {
			errs = append(errs, fmt.Errorf("reconcile %s: %w", repo, err))
			continue
		}
		for _, pr := range prs {
			log := a.log.With("installation", id, "repo", repo.String(), "pr", pr.Number, "job", "reconcile")
			pctx, cancel := context.WithTimeout(worklog.With(ctx, log), a.cfg.JobTimeout)
			did, err := a.run.Reconcile(pctx, gh, repo, pr)
			cancel()
			if did {
				decided++
			}
			if err != nil {
				log.Error("reconcile failed", "err", err)
				errs = append(errs, fmt.Errorf("reconcile %s#%d: %w", repo, pr.Number, err))
			}
		}
	}
	return decided, errors.Join(errs...)
}
