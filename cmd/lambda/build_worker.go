//go:build worker && !receiver

package main

import (
	"errors"
	"log/slog"
	"net/http"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/port"
)

// builtRole: -tags worker builds the worker alone.
const builtRole = roleWorker

// newReceiver refuses: readSettings lets no other role through, so this
// answers only a caller that skipped it.
func newReceiver(*pwaws.Clients, settings, port.Secrets, *slog.Logger) (http.Handler, error) {
	return nil, errors.New("this binary is the worker: build cmd/lambda with -tags receiver for the receiver")
}
