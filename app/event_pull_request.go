package app

import (
	"context"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/run"
)

// pull_request: what a pull request's own events ask of its check.
//
//	opened, synchronize, reopened, ready_for_review -> a new head: the
//	    `planwarden` check in progress, so the required check blocks the
//	    merge until its plan is reviewed (success at once when the pull
//	    request needs no plan (no_plan_paths), and a failure at once when no
//	    trusted plan workflow will run for it: run.Runner.Head)
//	labeled, unlabeled -> an override label came or went: the latest plan
//	    is reviewed again, so the override follows (run.Runner.Label)
//	edited with changes.base -> retargeted: the check is decided again
//	    under the new base's config, the config that gates is the one the
//	    pull request merges into (run.Runner.Retarget)
//
// The decoder (app/github) queues no other action.

// prTrigger is what one pull_request delivery asks.
type prTrigger int

const (
	newHead prTrigger = iota
	labelChanged
	retargeted
)

// prTriggerOf maps the delivery's action onto its trigger.
func prTriggerOf(e *job.PullRequest) prTrigger {
	switch {
	case e.Label != "":
		return labelChanged
	case e.BaseChanged:
		return retargeted
	}
	return newHead
}

func (a *App) processPullRequest(ctx context.Context, gh run.GitHub, j job.Job) error {
	e, repo := j.PullRequest, repoOf(j)
	switch prTriggerOf(e) {
	case labelChanged:
		return a.run.Label(ctx, gh, repo, j.PR, j.HeadSHA, e.BaseRef, e.Label, e.Action, e.Sender)
	case retargeted:
		return a.run.Retarget(ctx, gh, repo, j.PR)
	}
	return a.run.Head(ctx, gh, repo, j.PR, j.HeadSHA)
}
