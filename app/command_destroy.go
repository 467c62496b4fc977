package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// /destroy-staging [environment] [project...], then /destroy-staging
// confirm. The first asks: it says what would be destroyed and waits ten
// minutes for a confirmation from someone with write access (someone else
// when the environment says confirm_by: other). The confirmation
// dispatches the environment's destroy_workflow from the default branch,
// never the PR's, with inputs pr, head_ref, environment, projects and
// correlation_id; the run's result is written into the same reply.
// Everything is decided by the default branch's config: only a known,
// unprotected environment with a destroy_workflow, whatever the arguments.

// DestroyInputs are the workflow_dispatch inputs a confirmed
// /destroy-staging sends; the destroy workflow must declare every one.
var DestroyInputs = []string{"pr", "head_ref", "environment", "projects", "correlation_id"}

func (a *App) requestDestroy(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, branch string) error {
	env, args, reason := destroyTarget(cfg, c.args)
	if reason != "" {
		return a.refuse(ctx, c, reason)
	}
	wf, reason := destroyable(cfg, env, branch)
	if reason != "" {
		return a.refuse(ctx, c, reason)
	}
	st, id, prior, err := a.openThread(ctx, c)
	if err != nil || prior != nil {
		return err // a request posts its reply first, so a prior one has it
	}
	projects, reason := commandProjects(cfg, st, args)
	if reason != "" {
		return a.refuse(ctx, c, reason)
	}
	for _, p := range projects {
		if e := cfg.EnvironmentOf(p); e != "" && e != env {
			return a.refuse(ctx, c, fmt.Sprintf("project %s deploys to %s, not %s; %s destroys one environment at a time.", code(p), code(e), code(env), "`/destroy-staging`"))
		}
	}
	d := &record.DestroyThread{Projects: projects, Environment: env, Dispatch: record.Dispatch{Workflow: wf, Ref: branch},
		Stage: record.DestroyAwaiting, ConfirmByOther: cfg.ConfirmByOther(env)}
	t := record.Thread{ID: id, By: c.sender, At: a.now(), Destroy: d}
	for _, p := range st.Projects {
		if p.Environment != env || len(projects) > 0 && !slices.Contains(projects, p.Name) {
			continue
		}
		if d.PlanRun.ID == 0 {
			d.PlanRun = record.ThreadRun{ID: p.RunID, URL: p.RunURL}
		}
		for _, r := range p.Resources {
			if len(d.Resources) < maxResourceList {
				d.Resources = append(d.Resources, r)
			} else {
				d.More++
			}
		}
		d.More += p.More
	}
	if len(d.Resources) == 0 && len(projects) == 0 {
		for _, p := range cfg.Projects {
			if p.Environment == env {
				d.Declared = append(d.Declared, p.Name)
			}
		}
	}
	if err := c.gh.React(ctx, c.repo, c.commentID, "eyes"); err != nil {
		return err
	}
	// One request waits at a time: a newer one replaces those still waiting.
	for _, old := range st.Threads {
		if old.Destroy != nil && old.Destroy.Stage == record.DestroyAwaiting {
			if err := a.saveThread(ctx, c, old.WithStage(record.DestroySuperseded)); err != nil {
				return err
			}
		}
	}
	worklog.From(ctx).Info("destroy asks for confirmation", "environment", env, "thread", id)
	return a.postThread(ctx, c, cfg, t, comment.Reply(t), nil)
}

// destroyTarget splits the arguments into the environment (the first
// argument when it names one; else staging) and the projects.
func destroyTarget(cfg *rules.Config, args []string) (env string, rest []string, reason string) {
	if len(args) == 0 {
		return "staging", nil, ""
	}
	if _, ok := cfg.Environment(args[0]); ok {
		return args[0], args[1:], ""
	}
	if _, ok := cfg.Project(args[0]); ok {
		return "staging", args, ""
	}
	envs := cfg.EnvironmentNames()
	msg := fmt.Sprintf("refuses the environment %s: it is not an environment of this repository (%s)", code(args[0]), codeList(envs))
	if len(cfg.Projects) > 0 {
		msg = fmt.Sprintf("%s is neither an environment (%s) nor a project of this repository", code(args[0]), codeList(envs))
	}
	if s := rules.Suggest(args[0], envs); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", code(s))
	}
	return "", nil, msg + "."
}

// destroyable returns the environment's destroy workflow, or why it may
// not be destroyed.
func destroyable(cfg *rules.Config, env, branch string) (string, string) {
	if cfg.IsProtected(env) {
		return "", fmt.Sprintf("refuses the environment %s: it is protected, and a protected environment is never destroyed.", code(env))
	}
	wf, ok := cfg.DestroyWorkflow(env)
	if !ok {
		return "", fmt.Sprintf("refuses the environment %s: the config on %s gives it no `destroy_workflow`, so it may not be destroyed.", code(env), code(branch))
	}
	return wf, ""
}

func (a *App) confirmDestroy(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, branch string) error {
	key := c.job.GroupKey()
	defer a.state.Lock(key)()
	st, _, err := a.state.Read(ctx, key)
	if err != nil {
		return err
	}
	var t record.Thread
	for i := len(st.Threads) - 1; i >= 0 && t.ID == ""; i-- {
		switch th := st.Threads[i]; {
		case th.Destroy != nil && th.Destroy.ConfirmID == c.commentID:
			// This confirmation dispatched already (a retried job): only
			// the reply and the reaction may be missing.
			if err := c.gh.EditComment(ctx, c.repo, th.ReplyID, comment.Reply(th)); err != nil {
				return err
			}
			return c.gh.React(ctx, c.repo, c.commentID, "rocket")
		case th.Destroy != nil && th.Destroy.Stage == record.DestroyAwaiting:
			t = th
		}
	}
	switch {
	case t.ID == "":
		return a.refuse(ctx, c, "there is no `/destroy-staging` on this pull request waiting for a confirmation. Ask first with `/destroy-staging [environment] [project...]`.")
	case a.now().After(t.Deadline()):
		if err := a.saveThread(ctx, c, t.WithStage(record.DestroyExpired)); err != nil {
			return err
		}
		return a.refuse(ctx, c, fmt.Sprintf("the request of %s lapsed at %s (confirmations are taken for 10 minutes); nothing was destroyed. Ask again with `/destroy-staging`.",
			code(t.By), t.Deadline().UTC().Format("15:04 UTC")))
	case t.Destroy.ConfirmByOther && strings.EqualFold(t.By, c.sender):
		return a.refuse(ctx, c, fmt.Sprintf("someone other than %s must confirm: the config on %s says `confirm_by: other` for %s.", code(t.By), code(branch), code(t.Destroy.Environment)))
	}
	d := *t.Destroy
	t.Destroy = &d
	// The config may have changed since the request: ask it again.
	wf, reason := destroyable(cfg, d.Environment, branch)
	if reason == "" && wf != d.Dispatch.Workflow {
		reason = fmt.Sprintf("the destroy workflow of %s changed since the request (now %s); ask again with `/destroy-staging`.", code(d.Environment), code(wf))
	}
	if reason != "" {
		return a.refuse(ctx, c, reason)
	}
	inputs := map[string]string{"pr": strconv.Itoa(pr.Number), "head_ref": pr.HeadRef, "environment": d.Environment,
		"projects": strings.Join(d.Projects, " "), "correlation_id": t.ID}
	if err := c.gh.DispatchWorkflow(ctx, c.repo, wf, branch, inputs); err != nil {
		return a.dispatchFailed(ctx, c, wf, branch, inputs, err)
	}
	worklog.From(ctx).Info("destroy dispatched", "environment", d.Environment, "workflow", wf, "thread", t.ID, "confirmed_by", c.sender)
	d.Stage, d.ConfirmedBy, d.ConfirmID, d.Dispatch.Ref = record.DestroyConfirmed, c.sender, c.commentID, branch
	a.findThreadRun(ctx, c.gh, c.repo, &t)
	if err := a.saveThread(ctx, c, t); err != nil {
		return err
	}
	return c.gh.React(ctx, c.repo, c.commentID, "rocket")
}

// saveThread stores a thread that moved on and edits its reply.
func (a *App) saveThread(ctx context.Context, c command, t record.Thread) error {
	if _, err := a.state.Edit(ctx, c.job.GroupKey(), func(st *PRState) bool {
		old := publish.FindThread(st, t.ID)
		if old == nil {
			return false
		}
		*old = t
		return true
	}); err != nil {
		return err
	}
	if t.ReplyID == 0 {
		return nil
	}
	return c.gh.EditComment(ctx, c.repo, t.ReplyID, comment.Reply(t))
}
