package command

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/app/port"
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

func (x *Commands) requestDestroy(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, branch string) error {
	env, args, reason := destroyTarget(cfg, c.args)
	if reason != "" {
		return x.refuse(ctx, c, reason)
	}
	wf, reason := destroyable(cfg, env, branch)
	if reason != "" {
		return x.refuse(ctx, c, reason)
	}
	st, id, prior, err := x.openThread(ctx, c)
	if err != nil || prior != nil {
		return err // a request posts its reply first, so a prior one has it
	}
	projects, reason := commandProjects(cfg, st, args)
	if reason != "" {
		return x.refuse(ctx, c, reason)
	}
	for _, p := range projects {
		if e := cfg.EnvironmentOf(p); e != "" && e != env {
			return x.refuse(ctx, c, comment.ProjectElsewhere(p, e, env))
		}
	}
	d := &record.DestroyThread{Projects: projects, Environment: env, Dispatch: record.Dispatch{Workflow: wf, Ref: branch},
		Stage: record.DestroyAwaiting, ConfirmByOther: cfg.ConfirmByOther(env)}
	t := record.Thread{ID: id, By: c.sender, At: x.state.Now(), Destroy: d}
	for _, p := range st.Projects {
		if p.Environment != env || len(projects) > 0 && !slices.Contains(projects, p.Name) {
			continue
		}
		if d.PlanRun.ID == 0 {
			d.PlanRun = record.ThreadRun{ID: p.RunID, URL: p.RunURL}
		}
		for _, r := range p.Resources {
			if len(d.Resources) < port.MaxListedResources {
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
			if err := x.saveThread(ctx, c, old.WithStage(record.DestroySuperseded)); err != nil {
				return err
			}
		}
	}
	worklog.From(ctx).Info("destroy asks for confirmation", "environment", env, "thread", id)
	return x.postThread(ctx, c, cfg, t, comment.Reply(t), nil)
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
	return "", nil, comment.UnknownEnvironment(args[0], envs, len(cfg.Projects) > 0, rules.Suggest(args[0], envs))
}

// destroyable returns the environment's destroy workflow, or why it may
// not be destroyed.
func destroyable(cfg *rules.Config, env, branch string) (string, string) {
	if cfg.IsProtected(env) {
		return "", comment.ProtectedEnvironment(env)
	}
	wf, ok := cfg.DestroyWorkflow(env)
	if !ok {
		return "", comment.NoDestroyWorkflow(env, branch)
	}
	return wf, ""
}

func (x *Commands) confirmDestroy(ctx context.Context, c command, pr port.PullRequest, cfg *rules.Config, branch string) error {
	key := c.job.GroupKey()
	defer x.state.Lock(key)()
	st, _, err := x.state.PR(ctx, key)
	if err != nil {
		return err
	}
	var t record.Thread
	for i := len(st.Threads) - 1; i >= 0 && t.ID == ""; i-- {
		switch th := st.Threads[i]; {
		case th.Destroy != nil && th.Destroy.ConfirmID == c.commentID && th.Destroy.Stage == record.DestroyDispatching:
			// This confirmation recorded its dispatch, and was cut short
			// (a restart, a retried job): the run GitHub started for it,
			// if any, is the dispatch.
			return x.dispatchDestroy(ctx, c, pr, th, branch)
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
		return x.refuse(ctx, c, comment.NothingToConfirm)
	case x.state.Now().After(t.Deadline()):
		if err := x.saveThread(ctx, c, t.WithStage(record.DestroyExpired)); err != nil {
			return err
		}
		return x.refuse(ctx, c, comment.Lapsed(t.By, t.Deadline()))
	case t.Destroy.ConfirmByOther && strings.EqualFold(t.By, c.sender):
		return x.refuse(ctx, c, comment.ConfirmByOther(t.By, branch, t.Destroy.Environment))
	}
	d := *t.Destroy
	t.Destroy = &d
	// The config may have changed since the request: ask it again.
	wf, reason := destroyable(cfg, d.Environment, branch)
	if reason == "" && wf != d.Dispatch.Workflow {
		reason = comment.DestroyWorkflowChanged(d.Environment, wf)
	}
	if reason != "" {
		return x.refuse(ctx, c, reason)
	}
	// At most once: the dispatch is recorded (the thread's id is its
	// correlation id) before it is sent.
	d.Stage, d.ConfirmedBy, d.ConfirmID, d.Dispatch.Ref = record.DestroyDispatching, c.sender, c.commentID, branch
	if err := x.recordThread(ctx, c, t); err != nil {
		return err
	}
	return x.dispatchDestroy(ctx, c, pr, t, branch)
}

// dispatchDestroy sends the dispatch a thread recorded (DestroyDispatching),
// unless GitHub already has a run whose title carries the thread's id: the
// same dispatch, sent before a restart cut its record short. Then the
// thread is confirmed with its run.
func (x *Commands) dispatchDestroy(ctx context.Context, c command, pr port.PullRequest, t record.Thread, branch string) error {
	d := *t.Destroy
	t.Destroy = &d
	wf := d.Dispatch.Workflow
	sent, err := threadRunExists(ctx, c.gh, c.repo, &t)
	if err != nil {
		return err // tried again: never a second dispatch blind
	}
	if !sent {
		inputs := map[string]string{"pr": strconv.Itoa(pr.Number), "head_ref": pr.HeadRef, "environment": d.Environment,
			"projects": strings.Join(d.Projects, " "), "correlation_id": t.ID}
		if err := c.gh.DispatchWorkflow(ctx, c.repo, wf, branch, inputs); err != nil {
			// Not sent: the request waits for a confirmation again.
			d.Stage, d.ConfirmedBy, d.ConfirmID = record.DestroyAwaiting, "", 0
			if rerr := x.recordThread(ctx, c, t); rerr != nil {
				return rerr
			}
			return x.dispatchFailed(ctx, c, wf, branch, inputs, err)
		}
		if err := step("destroy-dispatched"); err != nil {
			return err
		}
		worklog.From(ctx).Info("destroy dispatched", "environment", d.Environment, "workflow", wf, "thread", t.ID, "confirmed_by", d.ConfirmedBy)
		findThreadRun(ctx, c.gh, c.repo, &t)
	} else {
		worklog.From(ctx).Info("destroy found dispatched", "environment", d.Environment, "workflow", wf, "thread", t.ID, "run", d.Dispatch.Run.ID)
	}
	d.Stage = record.DestroyConfirmed
	if err := x.saveThread(ctx, c, t); err != nil {
		return err
	}
	return c.gh.React(ctx, c.repo, c.commentID, "rocket")
}
