package app

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Command threads. A /plan, or a /destroy-staging and its confirmation,
// is one thread with one bot reply, edited in place as the thread moves on
// (queued, in progress, completed). The thread's id, pw-<PR>-<comment id>,
// is dispatched as the workflow input correlation_id; the workflow puts it
// in its run-name, so the run's workflow_run events (display_title) find
// the thread again.

// Limits of what one PR remembers.
const (
	maxResourceList = 30
	// maxProjectStatuses bounds the projects a PR's state remembers.
	maxProjectStatuses = 100
)

// hideOutdated minimizes the replies of finished threads other than
// keep, unless the config turns that off.
func (a *App) hideOutdated(ctx context.Context, gh Publisher, repo Repo, pr int, cfg *rules.Config, keep string) {
	if cfg.MinimizesOutdated() {
		a.writer(gh, repo).HideOutdated(ctx, a.state, pr, keep)
	}
}

// afterReview hides the replies of finished command threads once a new
// review supersedes them. It asks GitHub for the config only when there is
// such a reply.
func (a *App) afterReview(ctx context.Context, gh run.GitHub, repo Repo, pr int) {
	st, _, err := a.state.Read(ctx, publish.KeyOf(repo, pr))
	if err != nil || !publish.HasFinishedReplies(st, a.now()) {
		return
	}
	if cfg, _, err := repoconfig.Command(ctx, gh, repo); err == nil {
		a.hideOutdated(ctx, gh, repo, pr, cfg, "")
	}
}

// trackRun follows a run that carries a thread's id in its title: the
// thread's reply shows the run's link and status, and for /plan the
// verdict of its review, or for /destroy-staging its result. The run must
// be of the workflow the thread dispatched, on the ref it dispatched, so
// another workflow cannot write into a thread by naming its id.
func (a *App) trackRun(ctx context.Context, gh reviewer, repo Repo, wr WorkflowRun) error {
	id, prNum, ok := job.ThreadOfTitle(wr.DisplayTitle)
	if !ok {
		return nil
	}
	key := Job{Owner: repo.Owner, Repo: repo.Name, PR: prNum}.GroupKey()
	defer a.state.Lock(key)()
	var edit record.Thread
	_, err := a.state.Edit(ctx, key, func(st *PRState) bool {
		edit = record.Thread{}
		t := publish.FindThread(st, id)
		if t == nil || t.Dispatched() == nil {
			return false
		}
		d := t.Dispatched()
		if d.Workflow != path.Base(wr.Path) || wr.HeadBranch != d.Ref || wr.Event != "" && wr.Event != "workflow_dispatch" {
			return false
		}
		if d.Run.ID != 0 && d.Run.ID != wr.ID || d.Run.Status == "completed" && wr.Status != "completed" {
			return false // another run of the thread, or an event that arrived late
		}
		d.Run = record.ThreadRun{ID: wr.ID, URL: wr.HTMLURL, Status: orDefault(wr.Status, "queued"), Conclusion: wr.Conclusion}
		if t.Plan != nil && wr.Status == "completed" && st.RunID == wr.ID && st.HeadSHA == wr.HeadSHA {
			t.Plan.Verdict = verdictOf(st.Conclusion)
		}
		edit = *t
		return true
	})
	if err != nil {
		return err
	}
	if edit.ID == "" {
		worklog.From(ctx).Info("run names no thread of this PR that dispatched it", "thread", id, "run", wr.ID, "workflow", wr.Path)
		return nil
	}
	worklog.From(ctx).Info("thread follows its run", "thread", id, "run", wr.ID, "status", edit.Dispatched().Run.Status)
	if edit.ReplyID != 0 {
		if err := gh.EditComment(ctx, repo, edit.ReplyID, comment.Reply(edit)); err != nil {
			return err
		}
	}
	if edit.Done(a.now()) {
		if cfg, _, err := repoconfig.Command(ctx, gh, repo); err == nil {
			a.hideOutdated(ctx, gh, repo, prNum, cfg, edit.ID)
		}
	}
	return nil
}

// findThreadRun looks for the run a dispatch started, by the thread id in
// its title. Right after the dispatch GitHub has usually not created it
// yet; the run's own workflow_run events fill it in then.
func (a *App) findThreadRun(ctx context.Context, gh PRReader, repo Repo, t *record.Thread) {
	d := t.Dispatched()
	runs, err := gh.ListWorkflowRuns(ctx, repo, d.Workflow, "workflow_dispatch", d.Ref)
	if err != nil {
		worklog.From(ctx).Warn("could not list the dispatched workflow's runs", "workflow", d.Workflow, "err", err)
		return
	}
	for _, r := range runs {
		if id, _, ok := job.ThreadOfTitle(r.DisplayTitle); ok && id == t.ID {
			d.Run = record.ThreadRun{ID: r.ID, URL: r.HTMLURL, Status: orDefault(r.Status, "queued"), Conclusion: r.Conclusion}
			return
		}
	}
}

// verdictOf maps a check conclusion back onto the review's verdict.
func verdictOf(conclusion string) string {
	switch conclusion {
	case "success":
		return string(rules.VerdictPass)
	case "neutral":
		return string(rules.VerdictWarn)
	case "":
		return ""
	}
	return string(rules.VerdictFail)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// refusal says why a config cannot be used, for a command's reply.
func refusal(e *repoconfig.Bad) string {
	return fmt.Sprintf("the config %s on %s cannot be used, so no command runs until it is fixed (`planwarden validate` shows the same): %s",
		code(e.File), code(e.Ref), strings.Join(strings.Fields(e.Err.Error()), " "))
}
