package run

import (
	"context"
	"fmt"
	"path"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/trust"
)

// The reconciler's decision for one open pull request: a lost delivery
// costs minutes, not the gate. A check decided under another base than the
// pull request's now is decided again under it (Retarget); a check left in
// progress (a plan whose workflow_run delivery was lost, a review whose
// job gave up while GitHub was down) is decided again from the newest
// trusted runs of its head, else as a new head is.

// Reconcile decides pull request pr again when its check was decided
// under another base, or is still in progress; it reports whether it did.
// A pull request without a `planwarden` check is left to its own events
// (a required check that was never reported blocks the merge).
func (x *Runner) Reconcile(ctx context.Context, gh GitHub, repo port.Repo, pr port.PullRequest) (bool, error) {
	if pr.State != "open" || pr.HeadSHA == "" {
		return false, nil
	}
	key := publish.KeyOf(repo, pr.Number)
	st, _, err := x.state.PR(ctx, key)
	if err != nil {
		return false, err
	}
	log := worklog.From(ctx).With("pr", pr.Number)
	ctx = worklog.With(ctx, log)
	if st.HeadSHA == pr.HeadSHA && st.BaseRef != "" && st.BaseRef != pr.BaseRef {
		log.Info("reconcile: the check was decided under another base", "decided_under", st.BaseRef, "base", pr.BaseRef)
		return true, x.Retarget(ctx, gh, repo, pr.Number)
	}
	if st.HeadSHA == pr.HeadSHA && st.BaseRef != "" {
		sha, err := repoconfig.SHA(ctx, gh, repo, pr.BaseRef)
		if err != nil {
			return false, err
		}
		if sha != st.ConfigSHA {
			log.Info("reconcile: the base's config changed since the check was decided", "base", pr.BaseRef)
			return true, x.Retarget(ctx, gh, repo, pr.Number)
		}
	}
	checks, err := gh.ListCheckRunsForRef(ctx, repo, pr.HeadSHA, port.CheckName)
	if err != nil {
		return false, err
	}
	inProgress := false
	for _, c := range checks {
		if c.Name == port.CheckName {
			inProgress = c.Status != "completed"
			break
		}
	}
	if !inProgress {
		// Concluded; or no check at all yet, which branch protection
		// shows as expected and blocks the merge until the pull
		// request's own events make it.
		return false, nil
	}
	if st.HeadSHA == pr.HeadSHA && st.RunID != 0 {
		log.Info("reconcile: the check is in progress; reviewing its last run again", "run", st.RunID)
		return true, x.Again(ctx, gh, repo, pr.Number, st.RunID)
	}
	reviewed, err := x.reviewMissedRuns(ctx, gh, repo, pr)
	if err != nil || reviewed {
		return true, err
	}
	log.Info("reconcile: the check is in progress and no finished plan run was found; deciding the head again")
	return true, x.Head(ctx, gh, repo, pr.Number, pr.HeadSHA)
}

// reviewMissedRuns reviews the finished runs of pr's head that its base's
// config trusts (trust.PlanRun), newest last, as their workflow_run
// deliveries would have; reviewed says whether there was one.
func (x *Runner) reviewMissedRuns(ctx context.Context, gh GitHub, repo port.Repo, pr port.PullRequest) (bool, error) {
	cfg, err := repoconfig.Base(ctx, gh, repo, pr.BaseRef)
	if err != nil {
		if publish.FinalOf(err) != nil {
			return false, nil // the head's decision says it
		}
		return false, err
	}
	var found []port.WorkflowRun
	for _, wf := range cfg.PlanWorkflowPaths() {
		runs, err := gh.ListWorkflowRuns(ctx, repo, path.Base(wf), "", "")
		if err != nil {
			return false, fmt.Errorf("list the runs of %s: %w", wf, err)
		}
		for _, run := range runs {
			if run.Status != "completed" {
				continue
			}
			if cfg.Dispatches() {
				// A plan planwarden dispatched runs on the default
				// branch's commit; Review checks who dispatched it.
				if n, head, ok := trust.PlanDispatchOfTitle(run.DisplayTitle); ok && n == pr.Number && head == pr.HeadSHA {
					found = append(found, run)
				}
				continue
			}
			if run.HeadSHA != pr.HeadSHA {
				continue
			}
			if ok, _ := trust.PlanRun(cfg, trustPR(repo, pr), trustRun(run)); ok {
				found = append(found, run)
			}
		}
	}
	// Oldest first: trust.Record keeps the newest plan of each project.
	for i := len(found) - 1; i >= 0; i-- {
		run := found[i]
		run.PullRequests = []int{pr.Number}
		worklog.From(ctx).Info("reconcile: reviewing a finished run whose delivery was lost", "run", run.ID)
		if err := x.Review(ctx, gh, repo, run); err != nil {
			return true, err
		}
	}
	return len(found) > 0, nil
}
