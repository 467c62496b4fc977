package app

import (
	"context"
	"strings"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// issue_comment created: a comment on a pull request that starts with a
// slash command (the decoder, app/github, queues no other comment and
// keeps the comment's first line).
//
//	/plan [project...]              -> dispatch the plan workflow
//	/destroy-staging [env] [proj...] -> ask to destroy an environment
//	/destroy-staging confirm        -> confirm and dispatch the destroy
//	/override [RULE [ADDRESS] -- reason] or --revoke RULE [ADDRESS]
//	                                -> list, record or revoke overrides
//	/planwarden help                -> what this repository allows
//
// What the job carries (app/github decodes it): the pull request, the
// comment's id, its first line trimmed (at most 256 bytes), and who wrote
// it. Comments on issues, edits, comments by bots, and comments that start
// with anything but a command (job.Commands) are no jobs.
//
// The commands are app/command's: /plan and /destroy-staging need write
// access and obey the config of the repository's default branch;
// /override is authorized by the base branch's config. Each command is a
// thread with one reply, named by the comment (job.ThreadID); what a /plan
// or a confirmed destroy dispatches is followed from its runs'
// workflow_run events (event_workflow_run.go), and a review hides the
// replies of the threads it supersedes (command.Commands.AfterReview).

// commandTrigger is what an issue_comment delivery asks: the command its
// first line names.
type commandTrigger struct {
	name string
}

// commandOf reads the command off the comment's first line.
func commandOf(body string) commandTrigger {
	fields := strings.Fields(body)
	if len(fields) == 0 {
		return commandTrigger{}
	}
	return commandTrigger{name: fields[0]}
}

func (a *App) processIssueComment(ctx context.Context, gh port.GitHub, j job.Job) error {
	if t := commandOf(j.IssueComment.Body); t.name == "" {
		return nil // the decoder queues commands only; nothing to run
	}
	return a.commands.Run(ctx, gh, j)
}
