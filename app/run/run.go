// Package run turns a trusted plan workflow run into one review of a pull
// request's head: one PR comment, one completed `planwarden` check. A
// Review is the unit of work, a value that holds what its stages need and
// what they found, and the stages are named for what they do:
//
//   - provenance (provenance.go, pullrequest.go, dispatch.go) finds the
//     pull request the run is for and its base branch's config, and
//     decides, with package trust, whether the run may be believed at all;
//   - collect (collect.go, bases.go, download.go, admit.go, artifact.go,
//     facts.go, upgrades.go, prcode.go, repofs.go, people.go) reads what the
//     review needs from GitHub and nothing else: the runs the check
//     concludes from (trust.Record) and their plan artifacts (bounded,
//     within the worker's memory budget), the files the pull request
//     changes, what the plan workflows use, who is who for the overrides;
//     and the same for every other open pull request whose head is the
//     same commit, into another base;
//   - evaluate (evaluate.go) decides without asking GitHub: which plan is
//     each project's and what its provenance says (package trust), the
//     review (package review), the overrides that still count, and the
//     strictest outcome of the commit's bases;
//   - publish (publish.go) writes: the comment, the check runs and the
//     PR's state (app/publish).
//
// What the check may believe is decided by package trust; provenance.go
// is where the review asks it first. A pull request's new head (head.go),
// a new base (provenance.go) and a pull request that needs no plan
// (noplan.go) are decided beside the review. The
// package never imports app/command: a command that wants a review asks
// for it here, and learns of every review through Config.Reviewed.
package run

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// GitHub is what a review uses of GitHub: it reads the pull request, its
// runs and artifacts, and writes the comment and the check.
type GitHub interface {
	port.PRReader
	port.Publisher
}

// Config configures a Runner.
type Config struct {
	// State is the PR state the worker's jobs share.
	State *publish.State
	// Limits bound what is read from untrusted artifacts (defaults for
	// zeros).
	Limits Limits
	// MemoryBudget is the memory the reviews may take together: a review
	// is admitted while its plans' estimate fits beside the others', and a
	// run whose plans alone exceed it fails its check saying so.
	MemoryBudget int64
	// Observe, when set, learns how long each review took and the size of
	// each plan in it.
	Observe func(took time.Duration, planBytes ...int64)
	// Reviewed, when set, is told of every review of pull request pr that
	// ended well (published, or ignored as older): the slash commands
	// hide the replies it supersedes.
	Reviewed func(ctx context.Context, gh GitHub, repo port.Repo, pr int)
	// DigestSecret keys the digests that stand for text a review does not
	// show: each pull request's reviews use review.PRDigestKey of it (the
	// App's webhook secret), so an unchanged script reads the same in each
	// review of the pull request and nobody who reads a comment can test a
	// guess. Empty: a key drawn once per process.
	DigestSecret []byte
}

// Runner reviews runs; what every review shares.
type Runner struct {
	state    *publish.State
	limits   Limits
	memory   *memoryGate
	observe  func(took time.Duration, planBytes ...int64)
	reviewed func(ctx context.Context, gh GitHub, repo port.Repo, pr int)
	digest   []byte // DigestSecret
}

// New returns the Runner of cfg.
func New(cfg Config) *Runner {
	return &Runner{state: cfg.State, limits: cfg.Limits.withDefaults(), memory: newMemoryGate(cfg.MemoryBudget),
		observe: cfg.Observe, reviewed: cfg.Reviewed, digest: cfg.DigestSecret}
}

func (x *Runner) writer(gh port.Publisher, repo port.Repo) publish.Writer {
	return publish.Writer{GitHub: gh, Repo: repo, Now: x.state.Now}
}

// Review is one review of a pull request's head, from the run that asked
// for it: what its stages need, filled in stage by stage.
type Review struct {
	x    *Runner
	gh   GitHub
	w    publish.Writer
	repo port.Repo
	log  *slog.Logger
	// run is the run that asked for the review; tr is what trust sees of
	// it.
	run port.WorkflowRun
	tr  record.Run

	// Provenance: the pull request and its state's key, the base
	// branch's config (or cfgErr, the *publish.Final saying why it cannot
	// be used), the check run, and the state as last read.
	pr     port.PullRequest
	key    string
	cfg    *rules.Config
	cfgErr error
	// cfgSHA is the git blob SHA of the config (repoconfig.SHA).
	cfgSHA   string
	checkRun port.CheckRun
	st       port.PRState

	// Collect: the trusted runs of the head the check concludes from
	// (held: they held run before), what each run's artifacts hold (read
	// once, for every base), the release of the memory their plans hold,
	// and the bases the commit is decided under: the pull request's
	// first, then those of the other open pull requests of the head.
	runs    []record.Run
	held    bool
	fetched []fetchedRun
	release func()
	bases   []*base

	// Evaluate: the outcome, and the comment and report when there is a
	// review.
	res result
}

// Review is the shared pipeline of workflow_run, check_run and every
// review asked for again: from a finished run to one PR comment and a
// completed check run. Only a run the base branch's config trusts
// (trust.PlanRun) is reviewed; the review covers the newest run of every
// plan workflow on the head commit. When another job wrote the PR's state
// during the review (an override recorded or revoked, a label, another
// review), the review is made again from the state as it is then: a review
// made with an override that is gone must not be the one that stays on the
// check.
func (x *Runner) Review(ctx context.Context, gh GitHub, repo port.Repo, run port.WorkflowRun) error {
	r := &Review{x: x, gh: gh, repo: repo, run: run}
	unlock, ok, err := r.provenance(ctx)
	defer unlock()
	if !ok {
		return err
	}
	completed := false
	for attempt := 1; ; attempt++ {
		ok, err = r.collect(ctx)
		if ok && err == nil {
			r.evaluate()
		}
		r.release() // the review is done with the plans
		// A final error of collect (publish.FinalOf) is the review's
		// outcome: the check says it and the state records it; any other
		// error is returned, for the job to be retried.
		fin := publish.FinalOf(err)
		if fin != nil {
			r.log.Info("review ends on the check", "title", fin.Check().Title, "err", err)
			r.res, err = result{out: fin.Check()}, nil
		}
		completed = !ok // a run that brings no newer plan is done with
		if ok && err == nil {
			completed, err = r.publish(ctx)
		}
		if !errors.Is(err, port.ErrConflict) || attempt == publish.MaxAttempts {
			break
		}
		r.log.Info("pr state changed during the review; reviewing again with the new state", "attempt", attempt)
		if r.st, _, err = x.state.PR(ctx, r.key); err != nil {
			break
		}
	}
	if err != nil {
		if completed {
			return err
		}
		// The check stays in progress: a retry of the job replaces it,
		// and a final error concludes it (the worker's settle).
		return publish.AboutCheck(r.checkRun, r.run.ID, err)
	}
	if x.reviewed != nil {
		x.reviewed(ctx, gh, repo, r.pr.Number)
	}
	return nil
}

// result is a review's outcome, and the comment when there is a review.
type result struct {
	out      comment.Check
	body     string
	report   *review.Report
	blocking []record.Blocking
	// runs are the runs the report's projects come from, by project.
	runs map[string]comment.Run
	// assigned is where the reviewed plans came from, when they were read.
	assigned *trust.Assignment
	// modules are the local module directories of each project's root
	// module, known so far (kept in the state).
	modules map[string][]string
}
