package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/job"
)

// processFunc is the worker step: app.(*App).Process.
type processFunc func(context.Context, job.Job) error

// retryFunc hides a failed message for a while (pwaws.(*Queue).RetryAfter).
type retryFunc func(ctx context.Context, receiptHandle string, after time.Duration) error

// sqsWorker runs SQS batches of jobs.
type sqsWorker struct {
	process processFunc
	// retry, if set, brings a failed job back after backoff(receives)
	// rather than after the queue's visibility timeout (30 minutes).
	retry   retryFunc
	backoff func(receives int) time.Duration
	// maxReceives is the queue's maxReceiveCount: a job failing on that
	// receive goes to the dead-letter queue, and the log says so.
	maxReceives int
	// giveUp (app.(*App).GiveUp) completes the check of a job failing on
	// its last receive, saying to press Re-run, so no check stays in
	// progress once the job is in the dead-letter queue.
	giveUp func(ctx context.Context, j job.Job, cause error) error
	// reconcile (app.(*App).Reconcile) runs on the EventBridge schedule:
	// open pull requests whose check was decided under another base, or
	// is left in progress, are decided again.
	reconcile func(ctx context.Context) error
}

// batch runs a batch of queued jobs and reports the failed ones in
// batchItemFailures, so SQS retries only those (the event source mapping
// sets ReportBatchItemFailures). Jobs of one PR (one FIFO message group)
// run in order; once one fails, the later ones of that PR are returned
// unprocessed, so the PR's order holds when they come back. Different PRs
// run concurrently, and all of them finish before batch returns.
func (w *sqsWorker) batch(ctx context.Context, log *slog.Logger, ev *events.SQSEvent) *events.SQSEventResponse {
	var groups [][]events.SQSMessage
	index := map[string]int{}
	for _, m := range ev.Records {
		g, ok := m.Attributes["MessageGroupId"]
		if !ok {
			g = "message:" + m.MessageId // a standard queue: no order to keep
		}
		i, seen := index[g]
		if !seen {
			i = len(groups)
			index[g] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], m)
	}

	failed := make([][]string, len(groups))
	var wg sync.WaitGroup
	for i, msgs := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			failed[i] = w.group(ctx, log, msgs)
		}()
	}
	wg.Wait()

	resp := &events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
	for _, ids := range failed {
		for _, id := range ids {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: id})
		}
	}
	return resp
}

// group runs one PR's messages in order and returns the ids of the ones
// to retry.
func (w *sqsWorker) group(ctx context.Context, log *slog.Logger, msgs []events.SQSMessage) []string {
	var (
		failed    []events.SQSMessage
		blockedBy string
		delay     time.Duration
	)
	for _, m := range msgs {
		mlog, j, err := decodeMessage(log, m)
		receives, _ := strconv.Atoi(m.Attributes["ApproximateReceiveCount"])
		last := w.maxReceives > 0 && receives >= w.maxReceives
		switch {
		case blockedBy != "":
			mlog.Warn("job not run: an earlier job of this pull request failed in this batch", "blocked_by", blockedBy, "last_attempt", last)
		case err != nil:
			mlog.Error("job unreadable", "err", err, "last_attempt", last)
		default:
			err = runJob(ctx, w.process, j)
			if err == nil {
				mlog.Info("job done")
				continue
			}
			mlog.Error("job failed", "err", err, "last_attempt", last)
		}
		if blockedBy == "" {
			blockedBy = m.MessageId
			if !last && w.backoff != nil {
				// The first failure sets when the PR's jobs come back; on
				// its last attempt it goes to the DLQ at the next receive.
				delay = w.backoff(receives)
			}
		}
		if last {
			mlog.Error("job moves to the dead-letter queue", "receive_count", receives, "max_receive_count", w.maxReceives)
			if w.giveUp != nil && j.Event != "" {
				cause := err
				if cause == nil {
					cause = errors.New("an earlier job of this pull request failed in this batch")
				}
				if gerr := w.giveUp(context.WithoutCancel(ctx), j, cause); gerr != nil {
					mlog.Error("the job's check is not completed", "err", gerr)
				}
			}
		}
		failed = append(failed, m)
	}

	ids := make([]string, 0, len(failed))
	for _, m := range failed {
		ids = append(ids, m.MessageId)
		if w.retry == nil {
			continue
		}
		if err := w.retry(ctx, m.ReceiptHandle, delay); err != nil {
			log.Warn("retry delay not set; the job comes back after the queue's visibility timeout", "message_id", m.MessageId, "err", err)
		}
	}
	return ids
}

func decodeMessage(log *slog.Logger, m events.SQSMessage) (*slog.Logger, job.Job, error) {
	mlog := log.With("message_id", m.MessageId, "receive_count", m.Attributes["ApproximateReceiveCount"])
	j, err := pwaws.DecodeJob(m.Body)
	if err != nil {
		return mlog, j, err
	}
	// The same keys as serve's receiver and worker (job.LogAttrs).
	mlog = mlog.With(j.LogAttrs()...)
	return mlog, j, nil
}

// runJob turns a panic in one job into that job's failure, so the rest of
// the batch is still reported correctly.
func runJob(ctx context.Context, process processFunc, j job.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return process(ctx, j)
}
