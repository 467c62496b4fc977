package app

import (
	"context"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// /plan [project...]: dispatch the first of the default branch's
// plan_workflows on the PR's branch, with inputs pr, projects (names
// separated by spaces; empty for all) and correlation_id; put the check
// back in progress; reply, and follow the run in that reply (threads.go).

// PlanInputs are the workflow_dispatch inputs /plan sends; the plan
// workflow must declare every one (GitHub refuses undeclared inputs).
var PlanInputs = []string{"pr", "projects", "correlation_id"}

// maxCommandProjects bounds the projects one command may name.
const maxCommandProjects = 20

// projectName is what a project name given to a command may look like: it
// reaches a workflow input, so nothing a shell or an expression would read.
var projectName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$`)

func (a *App) processPlan(ctx context.Context, c command, pr PullRequest, cfg *rules.Config) error {
	st, id, prior, err := a.openThread(ctx, c)
	if err != nil || prior != nil && prior.ReplyID != 0 {
		return err
	}
	if prior != nil { // dispatched before a failure: do not dispatch twice
		return a.postThread(ctx, c, cfg, *prior, comment.Reply(*prior), nil)
	}
	projects, reason := commandProjects(cfg, st, c.args)
	if reason != "" {
		return a.refuse(ctx, c, reason)
	}
	wf := path.Base(cfg.PlanWorkflowPaths()[0])
	t := record.Thread{ID: id, By: c.sender, At: a.now(), Plan: &record.PlanThread{Projects: projects, Dispatch: record.Dispatch{Workflow: wf, Ref: pr.HeadRef}}}
	inputs := map[string]string{"pr": strconv.Itoa(pr.Number), "projects": strings.Join(projects, " "), "correlation_id": id}
	if err := c.gh.DispatchWorkflow(ctx, c.repo, wf, pr.HeadRef, inputs); err != nil {
		return a.dispatchFailed(ctx, c, wf, pr.HeadRef, inputs, err)
	}
	worklog.From(ctx).Info("command dispatched", "command", c.name, "workflow", wf, "thread", id)
	if err := a.recordDispatch(ctx, c, t); err != nil {
		return err
	}
	a.findThreadRun(ctx, c.gh, c.repo, &t)
	check, err := c.gh.CreateCheckRun(ctx, c.repo, CheckRun{
		Name: CheckName, HeadSHA: pr.HeadSHA, Status: "in_progress",
		Title: "Re-planning requested by @" + c.sender,
		Summary: fmt.Sprintf("%s by %s dispatched %s on %s for %s. This check completes when planwarden has reviewed the new plan.",
			"`/plan`", code(c.sender), code(wf), code(pr.HeadRef), projectsText(projects)),
	})
	if err != nil {
		worklog.From(ctx).Warn("could not put the check back in progress", "err", err)
	}
	if err := a.projectChecksInProgress(ctx, c, pr, cfg, projects); err != nil {
		worklog.From(ctx).Warn("could not put the project checks back in progress", "err", err)
	}
	if err := c.gh.React(ctx, c.repo, c.commentID, "rocket"); err != nil {
		worklog.From(ctx).Warn("could not react", "err", err)
	}
	return a.postThread(ctx, c, cfg, t, comment.Reply(t), func(st *PRState) {
		if check.ID != 0 && st.HeadSHA == pr.HeadSHA {
			st.CheckRunID = check.ID
		}
	})
}

// openThread reads the PR's state for a new command and names its thread.
// prior is the thread when this command was handled before (a redelivered
// or retried job): with a reply it is done; without one, its dispatch
// happened and only the reply is left.
func (a *App) openThread(ctx context.Context, c command) (st PRState, id string, prior *record.Thread, err error) {
	st, _, err = a.state.Read(ctx, c.job.GroupKey())
	id = job.ThreadID(c.job.PR, c.commentID)
	if t := publish.FindThread(&st, id); err == nil && t != nil {
		worklog.From(ctx).Info("command handled before", "thread", id, "reply", t.ReplyID)
		return st, id, t, nil
	}
	return st, id, nil, err
}

// recordDispatch remembers a thread right after its dispatch, before
// anything else can fail, so a retried job does not dispatch again.
func (a *App) recordDispatch(ctx context.Context, c command, t record.Thread) error {
	_, err := a.state.Edit(ctx, c.job.GroupKey(), func(st *PRState) bool {
		if publish.FindThread(st, t.ID) == nil {
			publish.AddThread(st, t)
		}
		return true
	})
	return err
}

// postThread replies for a new thread, records it, and hides the replies
// it supersedes.
func (a *App) postThread(ctx context.Context, c command, cfg *rules.Config, t record.Thread, body string, also func(st *PRState)) error {
	id, err := c.gh.CreateComment(ctx, c.repo, c.job.PR, body)
	if err != nil {
		return err
	}
	t.ReplyID = id
	if _, err := a.state.Edit(ctx, c.job.GroupKey(), func(st *PRState) bool {
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
	a.hideOutdated(ctx, c.gh, c.repo, c.job.PR, cfg, t.ID)
	return nil
}

func (a *App) dispatchFailed(ctx context.Context, c command, wf, ref string, inputs map[string]string, err error) error {
	worklog.From(ctx).Error("dispatch", "workflow", wf, "err", err)
	keys := slices.Sorted(maps.Keys(inputs))
	return a.refuseWith(ctx, c, "confused", fmt.Sprintf("could not dispatch %s on %s. Check that the workflow exists on that branch, has a workflow_dispatch trigger and declares the inputs %s.",
		code(wf), code(ref), code(strings.Join(keys, ", "))))
}

// commandProjects checks the projects a command names against the
// config's projects (else those of the PR's latest review), with a
// did-you-mean for a name it does not know. None named: nil (all).
func commandProjects(cfg *rules.Config, st PRState, args []string) ([]string, string) {
	var known []string
	for _, p := range cfg.Projects {
		known = append(known, p.Name)
	}
	if len(known) == 0 {
		for _, p := range st.Projects {
			known = append(known, p.Name)
		}
	}
	var out []string
	for _, name := range args {
		if slices.Contains(out, name) {
			continue
		}
		if !projectName.MatchString(name) {
			return nil, fmt.Sprintf("%s is not a project name: expected letters, digits, ., _, / or -.", code(name))
		}
		if len(known) > 0 && !slices.Contains(known, name) {
			msg := fmt.Sprintf("unknown project %s; expected one of %s", code(name), codeList(known))
			if s := rules.Suggest(name, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", code(s))
			}
			return nil, msg + "."
		}
		out = append(out, name)
	}
	if len(out) > maxCommandProjects {
		return nil, fmt.Sprintf("names %d projects; at most %d at once.", len(out), maxCommandProjects)
	}
	return out, ""
}

func projectsText(projects []string) string {
	if len(projects) == 0 {
		return "every project"
	}
	return codeList(projects)
}

// projectChecksInProgress puts the projects' checks back in progress for
// a /plan, when the config asks for them: the named projects, else every
// declared one, else those of the latest review.
func (a *App) projectChecksInProgress(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, projects []string) error {
	if !cfg.CheckPerProject {
		return nil
	}
	if len(projects) == 0 {
		for _, p := range cfg.Projects {
			projects = append(projects, p.Name)
		}
	}
	if len(projects) == 0 {
		st, _, err := a.state.Read(ctx, c.job.GroupKey())
		if err != nil {
			return err
		}
		for _, p := range st.Projects {
			projects = append(projects, p.Name)
		}
	}
	for _, p := range projects {
		if _, err := c.gh.CreateCheckRun(ctx, c.repo, CheckRun{Name: publish.ProjectCheckName(p), HeadSHA: pr.HeadSHA, Status: "in_progress",
			Title: "Re-planning requested by @" + c.sender, Summary: "`/plan` by " + code(c.sender) + " dispatched a new plan of " + code(p) + "."}); err != nil {
			return err
		}
	}
	return nil
}
