// Package app is planwarden's worker: it runs the typed jobs the receiver
// queued (app/job), one file per event (event_*.go), each mapping its job
// onto a small trigger and calling one shared stage of the rooms below:
// app/run (a trusted run -> one review), app/command (the slash-command
// threads) and app/publish (what every job writes, and the error model
// that says what is retried). The worker itself holds the config, Process,
// settle and GiveUp. The receiver (app/receiver) and the go-github adapter
// (app/github) live apart; docs/architecture.md draws the layout.
package app

import (
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// repoOf is the repository a job is about.
func repoOf(j job.Job) port.Repo { return port.Repo{Owner: j.Owner, Name: j.Repo} }
