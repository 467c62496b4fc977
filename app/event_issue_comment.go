package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
)

// issue_comment created: the slash commands /plan, /destroy-staging,
// /planwarden help and /override. /plan and /destroy-staging need write
// access and obey the config of the repository's default branch (see
// command_plan.go, command_destroy.go); /override is authorized by the
// base branch's config instead (override.go).

// command is one slash command being run.
type command struct {
	job       Job
	repo      Repo
	commentID int64
	sender    string
	name      string   // /plan
	args      []string // what follows it on the line
	gh        GitHub
}

func (a *App) processIssueComment(ctx context.Context, gh GitHub, job Job) error {
	e := job.IssueComment
	fields := strings.Fields(e.Body)
	c := command{job: job, repo: repoOf(job), commentID: e.CommentID, sender: e.Sender, name: fields[0], args: fields[1:], gh: gh}
	switch c.name {
	case "/override":
		return a.processOverride(ctx, c)
	case "/planwarden":
		return a.processHelp(ctx, c)
	}
	perm, err := gh.GetPermission(ctx, c.repo, c.sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return a.refuse(ctx, c, fmt.Sprintf("needs write access to %s; %s has %s.", code(c.repo.String()), code(c.sender), code(perm)))
	}
	pr, err := gh.GetPullRequest(ctx, c.repo, job.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return a.refuse(ctx, c, fmt.Sprintf("works on open pull requests only; #%d is %s.", pr.Number, pr.State))
	}
	if !strings.EqualFold(pr.HeadRepo, c.repo.String()) {
		return a.refuse(ctx, c, fmt.Sprintf("cannot run for a fork's branch (%s): the App dispatches workflows of this repository only.", code(pr.HeadRepo)))
	}
	cfg, branch, err := repoconfig.Command(ctx, gh, c.repo)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		return a.refuse(ctx, c, refusal(bad))
	}
	if err != nil {
		return err
	}
	if c.name == "/plan" {
		return a.processPlan(ctx, c, pr, cfg)
	}
	if len(c.args) > 0 && c.args[0] == "confirm" {
		return a.confirmDestroy(ctx, c, pr, cfg, branch)
	}
	return a.requestDestroy(ctx, c, pr, cfg, branch)
}

// refuse reacts 👎 and replies why; the reply is a thread of its own, so
// a later reply hides it.
func (a *App) refuse(ctx context.Context, c command, reason string) error {
	return a.refuseWith(ctx, c, "-1", reason)
}

func (a *App) refuseWith(ctx context.Context, c command, reaction, reason string) error {
	worklog.From(ctx).Info("command refused", "command", c.name, "sender", c.sender, "reason", reason)
	if err := c.gh.React(ctx, c.repo, c.commentID, reaction); err != nil {
		return err
	}
	t := record.Thread{ID: job.ThreadID(c.job.PR, c.commentID), By: c.sender, At: a.now(), Note: &record.Note{Command: "refused"}}
	id, err := c.gh.CreateComment(ctx, c.repo, c.job.PR, comment.Refusal(t.ID, c.name, reason))
	if err != nil {
		return err
	}
	t.ReplyID = id
	_, err = a.state.Edit(ctx, c.job.GroupKey(), func(st *PRState) bool { publish.AddThread(st, t); return true })
	return err
}

// code quotes user text as inline code: no markdown, no mentions.
func code(s string) string {
	if s == "" {
		s = "none"
	}
	return prose.Code(clamp(s, 100))
}
