package app

import (
	"context"
	"log/slog"
)

type loggerKey struct{}

func withLogger(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// logger is the delivery's logger, enriched once with its references.
func logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.New(slog.DiscardHandler)
}

func jobAttrs(j Job) []any {
	attrs := []any{"delivery", j.DeliveryID, "event", j.Event}
	if j.Action != "" {
		attrs = append(attrs, "action", j.Action)
	}
	if j.InstallationID != 0 {
		attrs = append(attrs, "installation", j.InstallationID)
	}
	if j.Owner != "" {
		attrs = append(attrs, "repo", j.Owner+"/"+j.Repo)
	}
	if j.PR != 0 {
		attrs = append(attrs, "pr", j.PR)
	}
	return attrs
}
