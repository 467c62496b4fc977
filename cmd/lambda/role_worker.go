//go:build !receiver

package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/planwarden/planwarden/app"
	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/port"
)

// newWorker is the worker role: SQS batches to the App, its state on
// DynamoDB, failed jobs back on the queue after a backoff, the check of a
// job on its way to the dead-letter queue completed (GiveUp), and the
// reviews of a batch admitted by memory (60% of the function's).
func newWorker(aws *pwaws.Clients, s settings, secrets port.Secrets, log *slog.Logger) (*sqsWorker, error) {
	// The Go runtime collects before the heap passes the budget, instead
	// of letting it grow to twice what is live (GOGC) past the function's
	// memory; a GOMEMLIMIT the operator set wins.
	if l := memoryLimit(s); l > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(l)
	}
	a, err := app.New(app.Config{Secrets: secrets, GitHubAPIURL: s.githubAPIURL, Store: aws.Store(s.table), Logger: log,
		MemoryBudget: s.memoryBudget})
	if err != nil {
		return nil, fmt.Errorf("build the app: %w", err)
	}
	w := &sqsWorker{process: a.Process, giveUp: a.GiveUp, reconcile: a.Reconcile, maxReceives: s.maxReceives, backoff: port.Exponential(s.retryBase, 15*time.Minute)}
	if s.queueURL != "" {
		w.retry = aws.Queue(s.queueURL).RetryAfter
	}
	return w, nil
}

// workerOverhead is the worker's heap besides its reviews: the runtime,
// the SDKs' clients, and room for the garbage of a full budget (serve's
// runtimeOverhead).
const workerOverhead = 16 << 20

// memoryLimit is the soft memory limit the worker gives the Go runtime:
// its budget (60 % of the function's memory) plus workerOverhead; 0 (no
// limit) when not on Lambda.
func memoryLimit(s settings) int64 {
	if s.memoryBudget == 0 {
		return 0
	}
	return s.memoryBudget + workerOverhead
}
