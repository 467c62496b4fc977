package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"
)

// merge_group checks_requested: a merge queue wants `planwarden` on its
// merge commit. The plan was reviewed on the PR; carry that result over
// so the queue does not stall.

func decodeMergeGroup(_ context.Context, ev any) (Job, bool) {
	e, ok := ev.(*github.MergeGroupEvent)
	if !ok || e.GetAction() != "checks_requested" || e.GetMergeGroup().GetHeadSHA() == "" {
		return Job{}, false
	}
	mg := e.GetMergeGroup()
	return Job{
		Action:         e.GetAction(),
		InstallationID: e.GetInstallation().GetID(),
		Owner:          e.GetRepo().GetOwner().GetLogin(),
		Repo:           e.GetRepo().GetName(),
		PR:             mergeGroupPR(mg.GetHeadRef()),
		HeadSHA:        mg.GetHeadSHA(),
		BaseRef:        mg.GetBaseRef(),
		Extra:          map[string]string{"merge_ref": mg.GetHeadRef()},
	}, true
}

// mergeGroupExternalID marks a merge group's check run (with the PR
// number), so that "Re-run" on it carries the PR's result over again.
const mergeGroupExternalID = "merge-group-pr-"

// mergeGroupPR reads the PR number from a merge queue ref,
// refs/heads/gh-readonly-queue/<base>/pr-<number>-<sha>; 0 if it has none.
func mergeGroupPR(ref string) int {
	i := strings.LastIndex(ref, "/pr-")
	if i < 0 {
		return 0
	}
	num, _, _ := strings.Cut(ref[i+len("/pr-"):], "-")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

func (a *App) processMergeGroup(ctx context.Context, gh GitHub, job Job) error {
	repo := Repo{job.Owner, job.Repo}
	out := failed("No planwarden result", fmt.Sprintf("The merge group ref %s names no pull request, so there is no review to carry over.", job.Extra["merge_ref"]))
	if job.PR > 0 {
		st, ok, err := a.store.PR(ctx, job.GroupKey())
		if err != nil {
			return err
		}
		switch {
		case !ok || st.Conclusion == "":
			out = failed("No planwarden result", fmt.Sprintf("#%d has no completed planwarden review, so the merge group cannot pass this check. Run the plan workflow on the pull request.", job.PR))
		default:
			out = outcome{
				Conclusion: st.Conclusion,
				Title:      st.Title,
				Summary:    fmt.Sprintf("Carried over from the review of #%d at %s.\n\n%s", job.PR, short(st.HeadSHA), st.Summary),
			}
		}
	}
	logger(ctx).Info("merge group check", "conclusion", out.Conclusion)
	_, err := gh.CreateCheckRun(ctx, repo, CheckRun{
		Name: CheckName, HeadSHA: job.HeadSHA, Status: "completed", Conclusion: out.Conclusion,
		ExternalID: mergeGroupExternalID + strconv.Itoa(job.PR),
		Title:      clamp(out.Title, 255), Summary: clamp(out.Summary, maxCheckText), CompletedAt: a.now(),
	})
	return err
}
