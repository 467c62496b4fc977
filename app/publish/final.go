package publish

import (
	"context"
	"errors"

	"github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
)

// The error model. Every step returns a value and an error, nothing else.
// An error is retryable (the queue runs the job again: SQLite in serve,
// SQS on Lambda; after the last attempt the worker gives up and completes
// the check) unless FinalOf says it is final: a *Final a step built
// because trying again cannot change the answer (a refused artifact, a bad
// config, a plan over the memory budget), or GitHub refusing a request
// with a 4xx that is no rate limit. A final error concludes the check it
// concerns (AboutCheck) as a failure with its title and summary, and the
// job ends.

// Final is the one error that ends a job for good: the check concludes as
// a failure that says Why (worded by package comment). Err, the cause, is
// logged, never shown.
type Final struct {
	Why comment.Failure
	Err error
}

// Check is what the check says: a failure.
func (f *Final) Check() comment.Check { return f.Why.Check() }

func (f *Final) Error() string {
	c := f.Check()
	if f.Err != nil {
		return c.Title + ": " + f.Err.Error()
	}
	return c.Title + ": " + c.Summary
}

func (f *Final) Unwrap() error { return f.Err }

// FinalOf is the one classification of errors: the *Final err holds, or
// one for a GitHub 4xx that is no rate limit (404 included); nil for
// everything else (5xx, rate limits, timeouts, broken connections, a
// store's error, a cancelled wait), which is retried.
func FinalOf(err error) *Final {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	var f *Final
	if errors.As(err, &f) {
		return f
	}
	status, limited := github.Status(err)
	if status >= 400 && status < 500 && !limited {
		return &Final{Why: comment.Refused{Status: status}, Err: err}
	}
	return nil
}

// concernsCheck is an error of a step that had the check run in hand: a
// final one concludes that check.
type concernsCheck struct {
	check port.CheckRun
	runID int64
	err   error
}

func (e *concernsCheck) Error() string { return e.err.Error() }
func (e *concernsCheck) Unwrap() error { return e.err }

// AboutCheck marks err as concerning check, of the workflow run runID (0:
// none); nil stays nil.
func AboutCheck(check port.CheckRun, runID int64, err error) error {
	if err == nil {
		return nil
	}
	return &concernsCheck{check: check, runID: runID, err: err}
}

// Concerned is the check run (and workflow run) err was marked as
// concerning (AboutCheck); ok is false when there is none.
func Concerned(err error) (check port.CheckRun, runID int64, ok bool) {
	var on *concernsCheck
	if !errors.As(err, &on) || on.check.ID == 0 {
		return port.CheckRun{}, 0, false
	}
	return on.check, on.runID, true
}
