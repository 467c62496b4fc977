package app

import (
	"context"

	"github.com/google/go-github/v66/github"
)

// pull_request: a new head commit gets the `planwarden` check in progress,
// so the required check blocks the merge until its plan is reviewed.

var pullRequestActions = map[string]bool{"opened": true, "synchronize": true, "reopened": true, "ready_for_review": true}

func decodePullRequest(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.PullRequestEvent)
	if !ok || !pullRequestActions[e.GetAction()] || e.GetPullRequest().GetHead().GetSHA() == "" {
		return Job{}, false
	}
	pr := e.GetPullRequest()
	return Job{
		Action:         e.GetAction(),
		InstallationID: e.GetInstallation().GetID(),
		Owner:          e.GetRepo().GetOwner().GetLogin(),
		Repo:           e.GetRepo().GetName(),
		PR:             pr.GetNumber(),
		HeadSHA:        pr.GetHead().GetSHA(),
		HeadRef:        pr.GetHead().GetRef(),
		BaseRef:        pr.GetBase().GetRef(),
		Sender:         e.GetSender().GetLogin(),
	}, true
}

// waitingSummary is what the check says until the plan arrives.
const waitingSummary = "planwarden reviews this commit's Terraform plan when the plan workflow finishes and uploads an artifact named `planwarden-<project>`. Until then this check stays in progress, so a required check blocks the merge."

func (a *App) processPullRequest(ctx context.Context, gh GitHub, job Job) error {
	repo := Repo{job.Owner, job.Repo}
	key := job.GroupKey()
	defer a.locks.lock(key)()
	st, _, err := a.store.PR(ctx, key)
	if err != nil {
		return err
	}
	if st.HeadSHA != job.HeadSHA {
		st = PRState{CommentID: st.CommentID, HeadSHA: job.HeadSHA}
	}
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
	st.CheckRunID, st.UpdatedAt = check.ID, a.now()
	return a.store.PutPR(ctx, key, st, a.cfg.StateTTL)
}
