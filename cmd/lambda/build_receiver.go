//go:build receiver

package main

import (
	"errors"
	"log/slog"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/port"
)

// builtRole: -tags receiver builds the receiver alone, without the worker
// and the review pipeline it carries.
const builtRole = roleReceiver

// newWorker refuses: readSettings lets no other role through, so this
// answers only a caller that skipped it.
func newWorker(*pwaws.Clients, settings, port.Secrets, *slog.Logger) (*sqsWorker, error) {
	return nil, errors.New("this binary is the receiver: build cmd/lambda with -tags worker for the worker")
}
