package command

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// /plan [project...]: dispatch the first of the default branch's
// plan_workflows on the PR's branch, with inputs pr, projects (names
// separated by spaces; empty for all) and correlation_id; put the check
// back in progress; reply, and follow the run in that reply (thread.go).
// With plan_source: dispatch it runs on the default branch instead, with
// head_sha too, and a correlation id naming the plan and the thread (a
// fork's pull request is planned this way only).

// PlanInputs are the workflow_dispatch inputs /plan sends; the plan
// workflow must declare every one (GitHub refuses undeclared inputs).
var PlanInputs = []string{"pr", "projects", "correlation_id"}

// maxCommandProjects bounds the projects one command may name.
const maxCommandProjects = 20

// projectName is what a project name given to a command may look like: it
// reaches a workflow input, so nothing a shell or an expression would read.
var projectName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$`)

func (x *Commands) plan(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, branch string) error {
	st, id, prior, err := x.openThread(ctx, c)
	if err != nil || prior != nil && (prior.ReplyID != 0 || prior.Check() != nil) {
		return err
	}
	if prior != nil { // dispatched before a failure: do not dispatch twice
		return x.postThread(ctx, c, cfg, *prior, comment.Reply(*prior), nil)
	}
	projects, reason := commandProjects(cfg, st, c.args)
	if reason != "" {
		return x.refuse(ctx, c, reason)
	}
	wf := path.Base(cfg.PlanWorkflowPaths()[0])
	ref := pr.HeadRef
	inputs := map[string]string{"pr": strconv.Itoa(pr.Number), "projects": strings.Join(projects, " "), "correlation_id": id}
	if cfg.Dispatches() {
		// plan_source: dispatch: on the default branch, for the head;
		// the run's name carries the plan's id (trust.DispatchedRun) and
		// the thread's.
		ref = branch
		inputs["head_sha"] = pr.HeadSHA
		inputs["correlation_id"] = trust.PlanDispatchID(pr.Number, pr.HeadSHA) + " " + id
	}
	t := record.Thread{ID: id, By: c.sender, At: x.state.Now(), Plan: &record.PlanThread{Projects: projects, Dispatch: record.Dispatch{Workflow: wf, Ref: ref}}}
	if err := c.gh.DispatchWorkflow(ctx, c.repo, wf, ref, inputs); err != nil {
		return x.dispatchFailed(ctx, c, wf, ref, inputs, err)
	}
	worklog.From(ctx).Info("command dispatched", "command", c.name, "workflow", wf, "thread", id)
	if err := x.recordDispatch(ctx, c, t); err != nil {
		return err
	}
	findThreadRun(ctx, c.gh, c.repo, &t)
	check, err := c.gh.CreateCheckRun(ctx, c.repo, port.CheckRun{
		Name: port.CheckName, HeadSHA: pr.HeadSHA, Status: "in_progress",
		Title: comment.ReplanTitle(c.sender), Summary: comment.ReplanSummary(c.sender, wf, pr.HeadRef, projects),
	})
	if err != nil {
		worklog.From(ctx).Warn("could not put the check back in progress", "err", err)
	}
	if err := x.projectChecksInProgress(ctx, c, pr, cfg, projects); err != nil {
		worklog.From(ctx).Warn("could not put the project checks back in progress", "err", err)
	}
	if err := c.gh.React(ctx, c.repo, c.commentID, "rocket"); err != nil {
		worklog.From(ctx).Warn("could not react", "err", err)
	}
	return x.postThread(ctx, c, cfg, t, comment.Reply(t), func(st *port.PRState) {
		if check.ID != 0 && st.HeadSHA == pr.HeadSHA {
			st.CheckRunID = check.ID
		}
	})
}

// projectChecksInProgress puts the projects' checks back in progress for
// a /plan, when the config asks for them: the named projects, else every
// declared one, else those of the latest review.
func (x *Commands) projectChecksInProgress(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, projects []string) error {
	if !cfg.CheckPerProject {
		return nil
	}
	if len(projects) == 0 {
		for _, p := range cfg.Projects {
			projects = append(projects, p.Name)
		}
	}
	if len(projects) == 0 {
		st, _, err := x.state.PR(ctx, c.job.GroupKey())
		if err != nil {
			return err
		}
		for _, p := range st.Projects {
			projects = append(projects, p.Name)
		}
	}
	for _, p := range projects {
		if _, err := c.gh.CreateCheckRun(ctx, c.repo, port.CheckRun{Name: publish.ProjectCheckName(p), HeadSHA: pr.HeadSHA, Status: "in_progress",
			Title: comment.ReplanTitle(c.sender), Summary: comment.ProjectReplanSummary(c.sender, p)}); err != nil {
			return err
		}
	}
	return nil
}

// commandProjects checks the projects a command names against the
// config's projects (else those of the PR's latest review), with a
// did-you-mean for a name it does not know. None named: nil (all).
func commandProjects(cfg *rules.Config, st port.PRState, args []string) ([]string, string) {
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
			return nil, comment.NotAProjectName(name)
		}
		if len(known) > 0 && !slices.Contains(known, name) {
			return nil, comment.UnknownProject(name, known, rules.Suggest(name, known))
		}
		out = append(out, name)
	}
	if len(out) > maxCommandProjects {
		return nil, comment.TooManyProjects(len(out), maxCommandProjects)
	}
	return out, ""
}
