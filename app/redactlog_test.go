package app_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app"
)

// A GitHub token shape (generated, not real).
const logToken = "ghp_Zk29vLmQ0pW8rT5yN3xC6bA7sD1fG4hJ2kL9"

func TestRedactingHandlerHidesSecretsInEveryString(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(app.RedactingHandler(slog.NewJSONHandler(&buf, nil)))
	log = log.With("plan", "plans/"+logToken+".json")
	log.Error("parse plans/"+logToken+".json failed",
		"address", `aws_ssm_parameter.p["`+logToken+`"]`,
		"err", fmt.Errorf("read: %w", errors.New("bad token "+logToken)),
		slog.Group("run", "ref", "refs/heads/"+logToken),
		"count", 3)
	out := buf.String()
	if strings.Contains(out, logToken) {
		t.Fatalf("the log line holds the token: %s", out)
	}
	for _, keep := range []string{`"count":3`, `aws_ssm_parameter.p[\"(sensitive)\"]`, "bad token (sensitive)", `"run":{"ref":"refs/heads/(sensitive)"}`, "failed"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the log line lost %s: %s", keep, out)
		}
	}
}

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
