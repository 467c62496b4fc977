// Package worklog is the worker's log: the delivery's logger, carried in
// the context and enriched once with the job's references (With, From),
// and the handler that runs planparse's secret detector over every record
// before it is written (Redacting). Every room of the worker (app, its
// commands, runs and publishing) logs through it.
package worklog

import (
	"context"
	"log/slog"
)

type loggerKey struct{}

// With returns ctx carrying l, the delivery's logger.
func With(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// From is the delivery's logger ctx carries; one that writes nowhere when
// it carries none.
func From(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.New(slog.DiscardHandler)
}
