// Package command runs the slash commands of a pull request's comments:
// /plan, /destroy-staging (and its confirmation), /override and
// /planwarden help. Each is a thread with one reply, edited in place as
// the thread moves on (thread.go); /plan and /destroy-staging obey the
// config of the repository's default branch and need write access,
// /override is authorized by the base branch's config (package trust
// decides who may). What the replies say is package comment's.
//
// A command that wants the latest plan reviewed again asks for it through
// Config.ReviewAgain; the review itself is app/run's, which never imports
// this package.
package command

import (
	"context"
	"errors"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/comment"
)

// Config configures the Commands.
type Config struct {
	// State is the PR state the worker's jobs share.
	State *publish.State
	// ReviewAgain reviews pull request pr's plan run runID again (an
	// override recorded or revoked): run.Runner.Again.
	ReviewAgain func(ctx context.Context, gh port.GitHub, repo port.Repo, pr int, runID int64) error
}

// Commands runs the slash commands; what every command shares.
type Commands struct {
	state       *publish.State
	reviewAgain func(ctx context.Context, gh port.GitHub, repo port.Repo, pr int, runID int64) error
}

// New returns the Commands of cfg.
func New(cfg Config) *Commands { return &Commands{state: cfg.State, reviewAgain: cfg.ReviewAgain} }

// command is one slash command being run.
type command struct {
	job       job.Job
	repo      port.Repo
	commentID int64
	sender    string
	// senderType is GitHub's type of the sender's account (User, Bot).
	senderType string
	name       string   // /plan
	args       []string // what follows it on the line
	gh         port.GitHub
	w          publish.Writer
}

// Run runs the slash command of an issue_comment job: /override and
// /planwarden help on their own terms, /plan and /destroy-staging once
// the commenter has write access, the pull request is open and of this
// repository, and the default branch's config can be used.
func (x *Commands) Run(ctx context.Context, gh port.GitHub, j job.Job) error {
	e := j.IssueComment
	fields := strings.Fields(e.Body)
	repo := port.Repo{Owner: j.Owner, Name: j.Repo}
	c := command{job: j, repo: repo, commentID: e.CommentID, sender: e.Sender, senderType: e.SenderType, name: fields[0], args: fields[1:], gh: gh,
		w: publish.Writer{GitHub: gh, Repo: repo, Now: x.state.Now}}
	switch c.name {
	case "/override":
		return x.override(ctx, c)
	case "/planwarden":
		return x.help(ctx, c)
	}
	perm, err := gh.GetPermission(ctx, c.repo, c.sender)
	if err != nil {
		return err
	}
	if perm != "admin" && perm != "write" {
		return x.refuse(ctx, c, comment.NeedsWrite(c.repo.String(), c.sender, perm))
	}
	pr, err := gh.GetPullRequest(ctx, c.repo, j.PR)
	if err != nil {
		return err
	}
	if pr.State != "open" {
		return x.refuse(ctx, c, comment.OpenOnly(pr.Number, pr.State))
	}
	cfg, branch, err := repoconfig.Command(ctx, gh, c.repo)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		return x.refuse(ctx, c, comment.UnusableConfig(bad.File, bad.Ref, bad.Err))
	}
	if err != nil {
		return err
	}
	// A fork's branch is never dispatched on; with plan_source: dispatch
	// its plan runs on the default branch, so /plan by a person with
	// write access is how a fork's pull request gets planned.
	if !strings.EqualFold(pr.HeadRepo, c.repo.String()) && !(c.name == "/plan" && cfg.Dispatches()) {
		return x.refuse(ctx, c, comment.ForkBranch(pr.HeadRepo))
	}
	if c.name == "/plan" {
		return x.plan(ctx, c, pr, cfg, branch)
	}
	if len(c.args) > 0 && c.args[0] == "confirm" {
		return x.confirmDestroy(ctx, c, pr, cfg, branch)
	}
	return x.requestDestroy(ctx, c, pr, cfg, branch)
}
