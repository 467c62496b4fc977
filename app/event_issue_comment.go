package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// issue_comment created: the slash commands /plan, /destroy-staging and
// /override. Only collaborators with write or admin may run the first two;
// the bot dispatches a CI workflow, reacts to the command and replies.
// /override is authorized by the repo config instead (override.go).

func (a *App) processIssueComment(ctx context.Context, gh GitHub, job Job) error {
	repo, e := repoOf(job), job.IssueComment
	fields := strings.Fields(e.Body)
	cmd, args := fields[0], fields[1:]
	refuse := func(msg string) error {
		logger(ctx).Info("command refused", "command", cmd, "sender", e.Sender)
		if err := gh.React(ctx, repo, e.CommentID, "-1"); err != nil {
			return err
		}
		_, err := gh.CreateComment(ctx, repo, job.PR, msg)
		return err
	}
	if cmd == "/override" {
		return a.processOverride(ctx, gh, job, args, refuse)
	}
	perm, err := gh.GetPermission(ctx, repo, e.Sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return refuse(fmt.Sprintf("%s needs write access to %s; %s has %s.", code(cmd), repo, code(e.Sender), code(perm)))
	}
	pr, err := gh.GetPullRequest(ctx, repo, job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return refuse(fmt.Sprintf("%s works on open pull requests only; #%d is %s.", code(cmd), pr.Number, pr.State))
	}
	if !strings.EqualFold(pr.HeadRepo, repo.String()) {
		return refuse(fmt.Sprintf("%s cannot dispatch a workflow on a fork's branch (%s).", code(cmd), code(pr.HeadRepo)))
	}
	inputs := map[string]string{"pr": fmt.Sprint(pr.Number)}
	workflow := a.cfg.Commands.PlanWorkflow
	if cmd == "/destroy-staging" {
		env := "staging"
		if len(args) > 0 {
			env = args[0]
		}
		cfg, out, ok := a.repoConfig(ctx, gh, repo, pr.BaseRef)
		if !ok {
			return refuse(fmt.Sprintf("%s refused: %s", code(cmd), out.Summary))
		}
		wf, ok := destroyWorkflow(cfg, env)
		if !ok {
			return refuse(fmt.Sprintf("%s refuses the environment %s: only an environment that is not protected and has a destroy workflow may be destroyed (by default, staging).", code(cmd), code(env)))
		}
		workflow, inputs["environment"] = wf, env
	}
	if err := gh.DispatchWorkflow(ctx, repo, workflow, pr.HeadRef, inputs); err != nil {
		logger(ctx).Error("dispatch", "workflow", workflow, "err", err)
		if rerr := gh.React(ctx, repo, e.CommentID, "confused"); rerr != nil {
			return rerr
		}
		_, err := gh.CreateComment(ctx, repo, job.PR, fmt.Sprintf("%s: could not dispatch %s on %s. Check that the workflow exists on that branch and declares the inputs %s.",
			code(cmd), code(workflow), code(pr.HeadRef), code(strings.Join(slices.Sorted(maps.Keys(inputs)), ", "))))
		return err
	}
	logger(ctx).Info("command dispatched", "command", cmd, "workflow", workflow, "sender", e.Sender)
	if err := gh.React(ctx, repo, e.CommentID, "rocket"); err != nil {
		return err
	}
	_, err = gh.CreateComment(ctx, repo, job.PR, fmt.Sprintf("%s: dispatched %s on %s for %s.", code(cmd), code(workflow), code(pr.HeadRef), code(e.Sender)))
	return err
}

// code quotes user text as inline code: no markdown, no mentions.
func code(s string) string {
	s = strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(clamp(s, 100))
	if s == "" {
		s = "none"
	}
	return "`" + s + "`"
}
