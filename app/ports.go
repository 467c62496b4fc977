// Package app is planwarden's worker: it runs typed jobs (app/job), one
// file per event (event_*.go), through the shared review pipeline
// (pipeline.go) and the override and command handling, against the ports
// of app/port. The receiver (app/receiver) and the go-github adapter
// (app/github) live apart; docs/architecture.md draws the layout.
package app

import (
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// The worker's names for the ports and their values (app/port).
type (
	Job           = job.Job
	Queue         = port.Queue
	Store         = port.Store
	PRState       = port.PRState
	Secrets       = port.Secrets
	GitHub        = port.GitHub
	PRReader      = port.PRReader
	Publisher     = port.Publisher
	Dispatcher    = port.Dispatcher
	Repo          = port.Repo
	CheckRun      = port.CheckRun
	IssueComment  = port.IssueComment
	PullRequest   = port.PullRequest
	WorkflowRun   = port.WorkflowRun
	Artifact      = port.Artifact
	ProjectStatus = port.ProjectStatus
)

// reviewer is what a review uses of GitHub: it reads the pull request,
// its runs and artifacts, and writes the comment and the check.
type reviewer interface {
	PRReader
	Publisher
}

// CheckName is the check run planwarden owns; branch protection requires it.
const CheckName = port.CheckName

// Errors of the ports that the worker branches on.
var (
	ErrNotFound = port.ErrNotFound
	ErrTooLarge = port.ErrTooLarge
	ErrConflict = port.ErrConflict
)

// repoOf is the repository a job is about.
func repoOf(j Job) Repo { return Repo{Owner: j.Owner, Name: j.Repo} }
