package worklog

import (
	"context"
	"log/slog"

	"github.com/planwarden/planwarden/planparse"
)

// Redacting runs planparse's secret detector over every string a log
// record carries (the message, string and error attributes, groups)
// before h writes it: errors quote plan files, addresses and config text,
// and a secret in them must not reach a log line. The worker and the
// in-memory test queue wrap their loggers with it; a handler wrapped twice
// redacts once.
func Redacting(h slog.Handler) slog.Handler {
	if _, ok := h.(redactingHandler); ok {
		return h
	}
	return redactingHandler{h}
}

type redactingHandler struct{ next slog.Handler }

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, planparse.RedactText(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactingHandler{h.next.WithAttrs(red)}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{h.next.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, planparse.RedactText(v.String()))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, e := range g {
			red[i] = redactAttr(e)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, planparse.RedactText(x.Error()))
		case interface{ String() string }:
			return slog.String(a.Key, planparse.RedactText(x.String()))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
