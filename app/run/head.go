package run

import (
	"context"
	"errors"
	"strconv"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

// What a pull request's own events and a re-run ask of the check: a new
// head waits for its plan (or passes at once when it needs none), an
// override label reviews the latest plan again, Re-run reviews the run the
// check last concluded from.

// Head is a new head commit of pull request pr: it gets the `planwarden`
// check in progress, so the required check blocks the merge until its
// plan is reviewed, unless the pull request needs no plan or no plan will
// come (decideWithoutPlan).
func (x *Runner) Head(ctx context.Context, gh GitHub, repo port.Repo, pr int, head string) error {
	key := publish.KeyOf(repo, pr)
	unlock := x.state.Lock(key)
	defer func() { unlock() }()
	var check port.CheckRun
	runs, err := gh.ListCheckRunsForRef(ctx, repo, head, port.CheckName)
	if err != nil {
		return err
	}
	for _, r := range runs {
		if r.Name == port.CheckName {
			check = r // reopened, or the plan was faster: keep what is there
			break
		}
	}
	if check.ID == 0 {
		check, err = gh.CreateCheckRun(ctx, repo, port.CheckRun{
			Name: port.CheckName, HeadSHA: head, Status: "in_progress",
			Title: comment.WaitingTitle, Summary: comment.WaitingSummary,
		})
		if err != nil {
			return err
		}
		worklog.From(ctx).Info("check waiting for plan", "sha", prose.ShortSHA(head))
	}
	st, err := x.state.Update(ctx, key, func(st *port.PRState) (bool, error) {
		if st.HeadSHA != head {
			// A new head: overrides stay (the comment says which commit
			// each was given on; each review checks them again).
			*st = port.PRState{CommentID: st.CommentID, HeadSHA: head, Grants: st.Grants, Modules: st.Modules, Version: st.Version}
		}
		st.CheckRunID, st.UpdatedAt = check.ID, x.state.Now()
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
			return x.Again(ctx, gh, repo, pr, runID)
		}
		if check.Title == comment.NoInfraTitle {
			return x.reopenIfStricter(ctx, gh, repo, pr, head)
		}
		return nil
	}
	return x.decideWithoutPlan(ctx, gh, repo, pr, head, check)
}

// Label reviews the latest plan again when an override label comes or
// goes (action, by sender) on pull request pr into base, so its override
// follows. Who added it is read from GitHub's events at review time
// (labelAdders), not from this delivery.
func (x *Runner) Label(ctx context.Context, gh GitHub, repo port.Repo, pr int, head, base, label, action, sender string) error {
	cfg, err := repoconfig.Base(ctx, gh, repo, base)
	var bad *publish.Final
	if errors.As(err, &bad) {
		worklog.From(ctx).Info("label not looked at: the base branch's config cannot be used", "label", label)
		return nil
	}
	if err != nil {
		return err
	}
	if !IsOverrideLabel(cfg, label) {
		worklog.From(ctx).Debug("label is no override label", "label", label)
		return nil
	}
	worklog.From(ctx).Info("override label "+action, "label", label, "sender", sender)
	st, _, err := x.state.PR(ctx, publish.KeyOf(repo, pr))
	if err != nil {
		return err
	}
	if st.RunID == 0 || st.HeadSHA != head {
		worklog.From(ctx).Info("no review of the head yet; the label counts when its plan is reviewed")
		return nil
	}
	return x.Again(ctx, gh, repo, pr, st.RunID)
}

// Rerun is "Re-run" on the planwarden check checkRunID of head: review
// again from the run it last concluded from (runID, else the one pull
// request pr's state names); without one, the check keeps waiting.
func (x *Runner) Rerun(ctx context.Context, gh GitHub, repo port.Repo, pr int, head string, checkRunID, runID int64) error {
	if runID == 0 && pr > 0 {
		st, ok, err := x.state.PR(ctx, publish.KeyOf(repo, pr))
		if err != nil {
			return err
		}
		if ok && st.HeadSHA == head {
			runID = st.RunID
		}
	}
	if runID == 0 && pr == 0 {
		worklog.From(ctx).Info("re-run requested on a check planwarden cannot place; left as it is")
		return nil
	}
	if runID == 0 {
		// No plan yet: decided again without one under the pull request's
		// base as it is now (it may have been retargeted), else the check
		// keeps waiting.
		worklog.From(ctx).Info("re-run requested before any plan; deciding again without one")
		waiting := port.CheckRun{ID: checkRunID, Name: port.CheckName, HeadSHA: head, Status: "in_progress",
			Title: comment.WaitingTitle, Summary: comment.WaitingSummary}
		if err := gh.UpdateCheckRun(ctx, repo, waiting); err != nil {
			return err
		}
		return x.decideWithoutPlan(ctx, gh, repo, pr, head, waiting)
	}
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	if len(run.PullRequests) == 0 && pr > 0 {
		run.PullRequests = []int{pr}
	}
	return x.Review(ctx, gh, repo, run)
}

// Again reviews pull request pr's latest plan run runID again, as "Re-run"
// does, after its overrides, labels or base changed.
func (x *Runner) Again(ctx context.Context, gh GitHub, repo port.Repo, pr int, runID int64) error {
	run, err := gh.GetWorkflowRun(ctx, repo, runID)
	if err != nil {
		return err
	}
	run.PullRequests = []int{pr}
	return x.Review(ctx, gh, repo, run)
}
