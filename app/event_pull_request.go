package app

import (
	"context"
	"errors"
	"strconv"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
)

// pull_request: a new head commit gets the `planwarden` check in progress,
// so the required check blocks the merge until its plan is reviewed. A
// label added or removed that the config lists as an override label
// reviews the latest plan again. A new base branch (`edited` with
// changes.base) reviews again under the new base's config: the config that
// gates is the one the PR merges into. A PR whose files belong to no
// declared project passes at once (noplan.go).

// waitingSummary is what the check says until the plan arrives.
const waitingSummary = "planwarden reviews this commit's Terraform plan when the plan workflow finishes and uploads an artifact named `planwarden-<project>`. Until then this check stays in progress, so a required check blocks the merge."

func (a *App) processPullRequest(ctx context.Context, gh reviewer, job Job) error {
	if job.PullRequest.Label != "" {
		return a.processLabel(ctx, gh, job)
	}
	if job.PullRequest.BaseChanged {
		return a.processBaseChange(ctx, gh, job)
	}
	repo := repoOf(job)
	key := job.GroupKey()
	unlock := a.state.Lock(key)
	defer func() { unlock() }()
	var check CheckRun
	runs, err := gh.ListCheckRunsForRef(ctx, repo, job.HeadSHA, CheckName)
	if err != nil {
		return err
	}
	for _, r := range runs {
		if r.Name == CheckName {
			check = r // reopened, or the plan was faster: keep what is there
			break
		}
	}
	if check.ID == 0 {
		check, err = gh.CreateCheckRun(ctx, repo, CheckRun{
			Name: CheckName, HeadSHA: job.HeadSHA, Status: "in_progress",
			Title: "Waiting for plan", Summary: waitingSummary,
		})
		if err != nil {
			return err
		}
		worklog.From(ctx).Info("check waiting for plan", "sha", short(job.HeadSHA))
	}
	st, err := a.state.Update(ctx, key, func(st *PRState) (bool, error) {
		if st.HeadSHA != job.HeadSHA {
			// A new head: overrides stay (the comment says which commit
			// each was given on; each review checks them again).
			*st = PRState{CommentID: st.CommentID, HeadSHA: job.HeadSHA, Grants: st.Grants, Version: st.Version}
		}
		st.CheckRunID, st.UpdatedAt = check.ID, a.now()
		return true, nil
	})
	if err != nil || len(st.Runs) > 0 {
		return err // this PR's review already speaks
	}
	if check.Status == "completed" {
		// Another PR of the same commit (one branch, another base) had
		// it reviewed: review it again, so this PR's base counts too.
		if runID, _ := strconv.ParseInt(check.ExternalID, 10, 64); runID > 0 {
			unlock()
			unlock = func() {}
			worklog.From(ctx).Info("the commit's check was decided for another pull request; reviewing again", "run", runID)
			return a.reviewAgain(ctx, gh, repo, job.PR, runID)
		}
		if check.Title == noInfraTitle {
			return a.reopenIfStricter(ctx, gh, repo, job.PR, job.HeadSHA)
		}
		return nil
	}
	return a.decideWithoutPlan(ctx, gh, repo, job.PR, job.HeadSHA, check)
}

// processLabel reviews the latest plan again when an override label
// comes or goes, so its override follows. Who added it is read from
// GitHub's events at review time (labelAdders), not from this delivery.
func (a *App) processLabel(ctx context.Context, gh reviewer, job Job) error {
	repo, e := repoOf(job), job.PullRequest
	label := e.Label
	cfg, err := a.repoConfig(ctx, gh, repo, e.BaseRef)
	var bad *publish.Final
	if errors.As(err, &bad) {
		worklog.From(ctx).Info("label not looked at: the base branch's config cannot be used", "label", label)
		return nil
	}
	if err != nil {
		return err
	}
	if !isOverrideLabel(cfg, label) {
		worklog.From(ctx).Debug("label is no override label", "label", label)
		return nil
	}
	worklog.From(ctx).Info("override label "+e.Action, "label", label, "sender", e.Sender)
	st, _, err := a.state.Read(ctx, job.GroupKey())
	if err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != job.HeadSHA {
		worklog.From(ctx).Info("no review of the head yet; the label counts when its plan is reviewed")
		return nil
	}
	return a.reviewAgain(ctx, gh, repo, job.PR, st.RunID)
}

// reviewAgain reviews the PR's latest plan run again, as "Re-run" does,
// after its overrides or labels changed.
func (a *App) reviewAgain(ctx context.Context, gh reviewer, repo Repo, pr int, runID int64) error {
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	run.PullRequests = []int{pr}
	return a.reviewRun(ctx, gh, repo, run)
}
