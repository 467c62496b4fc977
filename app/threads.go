package app

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
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

// hideAfterReview hides the replies of finished command threads once a
// new review supersedes them. It asks GitHub for the config only when
// there is such a reply.
func (a *App) hideAfterReview(ctx context.Context, gh reviewer, repo Repo, key string, pr int) {
	st, _, err := a.state.Read(ctx, key)
	if err != nil || !publish.HasFinishedReplies(st, a.now()) {
		return
	}
	if cfg, _, err := a.commandConfig(ctx, gh, repo); err == nil {
		a.hideOutdated(ctx, gh, repo, pr, cfg, "")
	}
}

// trackRun follows a run that carries a thread's id in its title: the
// thread's reply shows the run's link and status, and for /plan the
// verdict of its review, or for /destroy-staging its result. The run must
// be of the workflow the thread dispatched, on the ref it dispatched, so
// another workflow cannot write into a thread by naming its id.
func (a *App) trackRun(ctx context.Context, gh reviewer, repo Repo, run WorkflowRun) error {
	id, prNum, ok := job.ThreadOfTitle(run.DisplayTitle)
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
		if d.Workflow != path.Base(run.Path) || run.HeadBranch != d.Ref || run.Event != "" && run.Event != "workflow_dispatch" {
			return false
		}
		if d.Run.ID != 0 && d.Run.ID != run.ID || d.Run.Status == "completed" && run.Status != "completed" {
			return false // another run of the thread, or an event that arrived late
		}
		d.Run = record.ThreadRun{ID: run.ID, URL: run.HTMLURL, Status: orDefault(run.Status, "queued"), Conclusion: run.Conclusion}
		if t.Plan != nil && run.Status == "completed" && st.RunID == run.ID && st.HeadSHA == run.HeadSHA {
			t.Plan.Verdict = verdictOf(st.Conclusion)
		}
		edit = *t
		return true
	})
	if err != nil {
		return err
	}
	if edit.ID == "" {
		worklog.From(ctx).Info("run names no thread of this PR that dispatched it", "thread", id, "run", run.ID, "workflow", run.Path)
		return nil
	}
	worklog.From(ctx).Info("thread follows its run", "thread", id, "run", run.ID, "status", edit.Dispatched().Run.Status)
	if edit.ReplyID != 0 {
		if err := gh.EditComment(ctx, repo, edit.ReplyID, comment.Reply(edit)); err != nil {
			return err
		}
	}
	if edit.Done(a.now()) {
		if cfg, _, err := a.commandConfig(ctx, gh, repo); err == nil {
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

// projectStatuses are the projects of a review, for /destroy-staging's
// list. Only projects of an environment that may be destroyed keep their
// resources (the state must stay small: a DynamoDB item holds 400 KB).
func projectStatuses(r *review.Report, cfg *rules.Config, runs map[string]comment.Run) []ProjectStatus {
	var out []ProjectStatus
	for i, p := range r.Projects {
		if i == maxProjectStatuses {
			break
		}
		run := runs[p.Name]
		ps := ProjectStatus{Name: p.Name, Environment: p.Environment, Verdict: string(rules.VerdictOf(p.Findings)), RunID: run.ID, RunURL: run.URL}
		if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil {
			ps.PlanTime = t
		}
		_, destroyable := cfg.DestroyWorkflow(p.Environment)
		for _, c := range p.Changes {
			if !destroyable {
				break
			}
			if c.Mode() == "data" || c.Action() == "delete" || c.Action() == "read" || c.Action() == "forget" {
				continue
			}
			if len(ps.Resources) < maxResourceList {
				ps.Resources = append(ps.Resources, clamp(c.Address(), 200))
			} else {
				ps.More++
			}
		}
		out = append(out, ps)
	}
	return out
}

// projectRuns names the run of each project's plan, with its link when
// GitHub gave one for the run under review (the others' links are built
// the same way: .../actions/runs/<id>).
func projectRuns(base WorkflowRun, runOf map[string]int64) map[string]comment.Run {
	out := make(map[string]comment.Run, len(runOf))
	prefix, ok := strings.CutSuffix(base.HTMLURL, "/"+strconv.FormatInt(base.ID, 10))
	for project, id := range runOf {
		r := comment.Run{ID: id}
		if ok {
			r.URL = prefix + "/" + strconv.FormatInt(id, 10)
		}
		out[project] = r
	}
	return out
}

// commandConfig reads the config the slash commands obey: the one on the
// repository's default branch, which a pull request cannot change. The
// branch comes with it. A config that cannot be used is a *badConfig.
func (a *App) commandConfig(ctx context.Context, gh PRReader, repo Repo) (*rules.Config, string, error) {
	branch, err := gh.DefaultBranch(ctx, repo)
	if err != nil {
		return nil, "", err
	}
	cfg, err := a.loadConfig(ctx, gh, repo, branch)
	return cfg, branch, err
}

// refusal says why a config cannot be used, for a command's reply.
func (e *badConfig) refusal() string {
	return fmt.Sprintf("the config %s on %s cannot be used, so no command runs until it is fixed (`planwarden validate` shows the same): %s",
		code(e.file), code(e.ref), strings.Join(strings.Fields(e.err.Error()), " "))
}
