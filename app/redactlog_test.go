package app_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
)

// A GitHub token shape (generated, not real).
const logToken = "ghp_Zk29vLmQ0pW8rT5yN3xC6bA7sD1fG4hJ2kL9"

func TestMemoryQueueLogsNoSecret(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	q := app.NewMemoryQueue(app.MemoryQueueOptions{Workers: 1, Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	q.Start(func(context.Context, app.Job) error {
		return errors.New("plan.json: resource_changes[0]: token " + logToken)
	})
	if err := q.Enqueue(context.Background(), job("o", 1, "d1")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "job failed") || strings.Contains(out, logToken) {
		t.Errorf("log: %s", out)
	}
}
