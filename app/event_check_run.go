package app

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"
)

// check_run rerequested: someone pressed "Re-run" on the planwarden check;
// review again from the same run's artifacts.

const timeFormat = time.RFC3339

func decodeCheckRun(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.CheckRunEvent)
	if !ok || e.GetAction() != "rerequested" || e.GetCheckRun().GetName() != CheckName {
		return Job{}, false
	}
	cr := e.GetCheckRun()
	job := Job{
		Action:         e.GetAction(),
		InstallationID: e.GetInstallation().GetID(),
		Owner:          e.GetRepo().GetOwner().GetLogin(),
		Repo:           e.GetRepo().GetName(),
		HeadSHA:        cr.GetHeadSHA(),
		CheckRunID:     cr.GetID(),
		Sender:         e.GetSender().GetLogin(),
	}
	job.RunID, _ = strconv.ParseInt(cr.GetExternalID(), 10, 64)
	for _, pr := range cr.PullRequests {
		job.PR = pr.GetNumber()
		break
	}
	if n, ok := strings.CutPrefix(cr.GetExternalID(), mergeGroupExternalID); ok {
		job.PR, _ = strconv.Atoi(n)
		job.Extra = map[string]string{"merge_group": "true"}
	}
	return job, true
}

func (a *App) processCheckRun(ctx context.Context, gh GitHub, job Job) error {
	repo := Repo{job.Owner, job.Repo}
	if job.Extra["merge_group"] != "" {
		return a.processMergeGroup(ctx, gh, job)
	}
	runID := job.RunID
	if runID == 0 && job.PR > 0 {
		st, ok, err := a.store.PR(ctx, job.GroupKey())
		if err != nil {
			return err
		}
		if ok && st.HeadSHA == job.HeadSHA {
			runID = st.RunID
		}
	}
	if runID == 0 && job.PR == 0 {
		logger(ctx).Info("re-run requested on a check planwarden cannot place; left as it is")
		return nil
	}
	if runID == 0 {
		// No plan yet: the check keeps waiting.
		logger(ctx).Info("re-run requested before any plan; still waiting")
		return gh.UpdateCheckRun(ctx, repo, CheckRun{
			ID: job.CheckRunID, Name: CheckName, HeadSHA: job.HeadSHA, Status: "in_progress",
			Title: "Waiting for plan", Summary: waitingSummary,
		})
	}
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	if len(run.PullRequests) == 0 && job.PR > 0 {
		run.PullRequests = []int{job.PR}
	}
	return a.reviewRun(ctx, gh, repo, run)
}
