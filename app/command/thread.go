package command

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
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

// openThread reads the PR's state for a new command and names its thread.
// prior is the thread when this command was handled before (a redelivered
// or retried job): with a reply it is done; without one, its dispatch
// happened and only the reply is left.
func (x *Commands) openThread(ctx context.Context, c command) (st port.PRState, id string, prior *record.Thread, err error) {
	st, _, err = x.state.PR(ctx, c.job.GroupKey())
	id = job.ThreadID(c.job.PR, c.commentID)
	if t := publish.FindThread(&st, id); err == nil && t != nil {
		worklog.From(ctx).Info("command handled before", "thread", id, "reply", t.ReplyID)
		return st, id, t, nil
	}
	return st, id, nil, err
}

// recordDispatch remembers a thread right after its dispatch, before
// anything else can fail, so a retried job does not dispatch again.
func (x *Commands) recordDispatch(ctx context.Context, c command, t record.Thread) error {
	_, err := x.state.Edit(ctx, c.job.GroupKey(), func(st *port.PRState) bool {
		if publish.FindThread(st, t.ID) == nil {
			publish.AddThread(st, t)
		}
		return true
	})
	return err
}

// refuse reacts 👎 and replies why; the reply is a thread of its own, so
// a later reply hides it.
func (x *Commands) refuse(ctx context.Context, c command, reason string) error {
	return x.refuseWith(ctx, c, "-1", reason)
}

func (x *Commands) refuseWith(ctx context.Context, c command, reaction, reason string) error {
	worklog.From(ctx).Info("command refused", "command", c.name, "sender", c.sender, "reason", reason)
	if err := c.gh.React(ctx, c.repo, c.commentID, reaction); err != nil {
		return err
	}
	t := record.Thread{ID: job.ThreadID(c.job.PR, c.commentID), By: c.sender, At: x.state.Now(), Note: &record.Note{Command: "refused"}}
	return x.postThread(ctx, c, nil, t, comment.Refusal(t.ID, c.name, reason), nil)
}

// answer reacts to an /override and replies in a thread of its own: a
// refusal (👎), a note (👀), or what it recorded or revoked (👍). A note's
// thread hides the older replies it supersedes.
func (x *Commands) answer(ctx context.Context, c command, cfg *rules.Config, a comment.OverrideAnswer) error {
	if a.Refused() {
		return x.refuse(ctx, c, a.Words())
	}
	reaction := "eyes"
	if a.Command() == "override" {
		reaction = "+1"
	}
	if err := c.gh.React(ctx, c.repo, c.commentID, reaction); err != nil {
		return err
	}
	t := record.Thread{ID: job.ThreadID(c.job.PR, c.commentID), By: c.sender, At: x.state.Now(), Note: &record.Note{Command: a.Command()}}
	return x.postThread(ctx, c, cfg, t, comment.Note(t.ID, a.Command(), a.Words()), nil)
}

// postThread replies for a new thread, records it, and hides the replies
// it supersedes.
func (x *Commands) postThread(ctx context.Context, c command, cfg *rules.Config, t record.Thread, body string, also func(st *port.PRState)) error {
	id, err := c.gh.CreateComment(ctx, c.repo, c.job.PR, body)
	if err != nil {
		return err
	}
	t.ReplyID = id
	if _, err := x.state.Edit(ctx, c.job.GroupKey(), func(st *port.PRState) bool {
		if old := publish.FindThread(st, t.ID); old != nil {
			*old = t
		} else {
			publish.AddThread(st, t)
		}
		if also != nil {
			also(st)
		}
		return true
	}); err != nil {
		return err
	}
	if cfg != nil && cfg.MinimizesOutdated() {
		c.w.HideOutdated(ctx, x.state, c.job.PR, t.ID)
	}
	return nil
}

// saveThread stores a thread that moved on and edits its reply.
func (x *Commands) saveThread(ctx context.Context, c command, t record.Thread) error {
	if err := x.recordThread(ctx, c, t); err != nil {
		return err
	}
	if t.ReplyID == 0 {
		return nil
	}
	return c.gh.EditComment(ctx, c.repo, t.ReplyID, comment.Reply(t))
}

// recordThread writes a thread into the PR's state, its reply left as it
// is.
func (x *Commands) recordThread(ctx context.Context, c command, t record.Thread) error {
	_, err := x.state.Edit(ctx, c.job.GroupKey(), func(st *port.PRState) bool {
		old := publish.FindThread(st, t.ID)
		if old == nil {
			return false
		}
		*old = t
		return true
	})
	return err
}

func (x *Commands) dispatchFailed(ctx context.Context, c command, wf, ref string, inputs map[string]string, err error) error {
	worklog.From(ctx).Error("dispatch", "workflow", wf, "err", err)
	return x.refuseWith(ctx, c, "confused", comment.DispatchFailed(wf, ref, slices.Sorted(maps.Keys(inputs))))
}

// FollowRun follows a run that carries a thread's id in its title: the
// thread's reply shows the run's link and status, and for /plan the
// verdict of its review, or for /destroy-staging its result. The run must
// be of the workflow the thread dispatched, on the ref it dispatched, so
// another workflow cannot write into a thread by naming its id.
func (x *Commands) FollowRun(ctx context.Context, gh port.GitHub, repo port.Repo, wr port.WorkflowRun) error {
	id, prNum, ok := job.ThreadOfTitle(wr.DisplayTitle)
	if !ok {
		return nil
	}
	key := publish.KeyOf(repo, prNum)
	defer x.state.Lock(key)()
	var edit record.Thread
	_, err := x.state.Edit(ctx, key, func(st *port.PRState) bool {
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
		d.Run = record.ThreadRun{ID: wr.ID, URL: wr.HTMLURL, Status: cmp.Or(wr.Status, "queued"), Conclusion: wr.Conclusion}
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
	if edit.Done(x.state.Now()) {
		if cfg, _, err := repoconfig.Command(ctx, gh, repo); err == nil && cfg.MinimizesOutdated() {
			publish.Writer{GitHub: gh, Repo: repo, Now: x.state.Now}.HideOutdated(ctx, x.state, prNum, edit.ID)
		}
	}
	return nil
}

// AfterReview hides the replies of finished command threads of pull
// request pr once a new review supersedes them, when the command config
// says so (run.Config.Reviewed). It asks GitHub for the config only when
// there is such a reply.
func (x *Commands) AfterReview(ctx context.Context, gh interface {
	port.PRReader
	port.Publisher
}, repo port.Repo, pr int) {
	st, _, err := x.state.PR(ctx, publish.KeyOf(repo, pr))
	if err != nil || !publish.HasFinishedReplies(st, x.state.Now()) {
		return
	}
	if cfg, _, err := repoconfig.Command(ctx, gh, repo); err == nil && cfg.MinimizesOutdated() {
		publish.Writer{GitHub: gh, Repo: repo, Now: x.state.Now}.HideOutdated(ctx, x.state, pr, "")
	}
}

// findThreadRun looks for the run a dispatch started, by the thread id in
// its title. Right after the dispatch GitHub has usually not created it
// yet; the run's own workflow_run events fill it in then.
func findThreadRun(ctx context.Context, gh port.PRReader, repo port.Repo, t *record.Thread) {
	d := t.Dispatched()
	runs, err := gh.ListWorkflowRuns(ctx, repo, d.Workflow, "workflow_dispatch", d.Ref)
	if err != nil {
		worklog.From(ctx).Warn("could not list the dispatched workflow's runs", "workflow", d.Workflow, "err", err)
		return
	}
	for _, r := range runs {
		if id, _, ok := job.ThreadOfTitle(r.DisplayTitle); ok && id == t.ID {
			d.Run = record.ThreadRun{ID: r.ID, URL: r.HTMLURL, Status: cmp.Or(r.Status, "queued"), Conclusion: r.Conclusion}
			return
		}
	}
}

// threadRunExists looks for the run that carries t's id in its title
// (findThreadRun's), and reports whether GitHub has one; unlike
// findThreadRun, a failed look is an error (the caller must not act as if
// there were none).
func threadRunExists(ctx context.Context, gh port.PRReader, repo port.Repo, t *record.Thread) (bool, error) {
	d := t.Dispatched()
	runs, err := gh.ListWorkflowRuns(ctx, repo, d.Workflow, "workflow_dispatch", d.Ref)
	if err != nil {
		return false, fmt.Errorf("look for the run of %s (%s): %w", t.ID, d.Workflow, err)
	}
	for _, r := range runs {
		if id, _, ok := job.ThreadOfTitle(r.DisplayTitle); ok && id == t.ID {
			d.Run = record.ThreadRun{ID: r.ID, URL: r.HTMLURL, Status: cmp.Or(r.Status, "queued"), Conclusion: r.Conclusion}
			return true, nil
		}
	}
	return false, nil
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
