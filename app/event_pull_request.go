package app

import (
	"context"
	"slices"
	"strings"
)

// pull_request: a new head commit gets the `planwarden` check in progress,
// so the required check blocks the merge until its plan is reviewed. A
// label added or removed that the config lists as an override label
// reviews the latest plan again.

// waitingSummary is what the check says until the plan arrives.
const waitingSummary = "planwarden reviews this commit's Terraform plan when the plan workflow finishes and uploads an artifact named `planwarden-<project>`. Until then this check stays in progress, so a required check blocks the merge."

func (a *App) processPullRequest(ctx context.Context, gh GitHub, job Job) error {
	if job.PullRequest.Label != "" {
		return a.processLabel(ctx, gh, job)
	}
	repo := repoOf(job)
	key := job.GroupKey()
	defer a.locks.lock(key)()
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
		logger(ctx).Info("check waiting for plan", "sha", short(job.HeadSHA))
	}
	_, err = a.updatePR(ctx, key, func(st *PRState) (bool, error) {
		if st.HeadSHA != job.HeadSHA {
			// A new head: overrides stay (the comment says which commit
			// each was given on).
			*st = PRState{CommentID: st.CommentID, HeadSHA: job.HeadSHA, Overrides: st.Overrides, Labels: st.Labels, Version: st.Version}
		}
		st.CheckRunID, st.UpdatedAt = check.ID, a.now()
		return true, nil
	})
	return err
}

// processLabel remembers who added an override label, then reviews the
// latest plan again so the label's override comes or goes.
func (a *App) processLabel(ctx context.Context, gh GitHub, job Job) error {
	repo, e := repoOf(job), job.PullRequest
	label := e.Label
	cfg, _, ok := a.repoConfig(ctx, gh, repo, e.BaseRef)
	if !ok || !isOverrideLabel(cfg, label) {
		logger(ctx).Debug("label is no override label", "label", label)
		return nil
	}
	key := job.GroupKey()
	unlock := a.locks.lock(key)
	st, err := a.updatePR(ctx, key, func(st *PRState) (bool, error) {
		st.Labels = slices.DeleteFunc(st.Labels, func(m LabelMark) bool { return strings.EqualFold(m.Name, label) })
		if e.Action == "labeled" && len(st.Labels) < maxOverrides {
			st.Labels = append(st.Labels, LabelMark{Name: label, By: e.Sender, At: a.now()})
		}
		return true, nil
	})
	unlock()
	if err != nil {
		return err
	}
	logger(ctx).Info("override label "+e.Action, "label", label, "sender", e.Sender)
	if st.RunID == 0 || st.HeadSHA != job.HeadSHA {
		logger(ctx).Info("no review of the head yet; the label counts when its plan is reviewed")
		return nil
	}
	return a.reviewAgain(ctx, gh, repo, job.PR, st.RunID)
}

// reviewAgain reviews the PR's latest plan run again, as "Re-run" does,
// after its overrides or labels changed.
func (a *App) reviewAgain(ctx context.Context, gh GitHub, repo Repo, pr int, runID int64) error {
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	run.PullRequests = []int{pr}
	return a.reviewRun(ctx, gh, repo, run)
}
