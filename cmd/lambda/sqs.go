package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"

	"github.com/aws/aws-lambda-go/events"

	"github.com/planwarden/planwarden/app"
	pwaws "github.com/planwarden/planwarden/app/aws"
)

// processFunc is the worker step: app.(*App).Process.
type processFunc func(context.Context, app.Job) error

// processSQS runs a batch of queued jobs and reports the failed ones in
// batchItemFailures, so SQS retries only those (the event source mapping
// sets ReportBatchItemFailures). Jobs of one PR (one FIFO message group)
// run in order; once one fails, the later ones of that PR are returned
// unprocessed, so the PR's order holds when they come back. Different PRs
// run concurrently, and all of them finish before processSQS returns.
func processSQS(ctx context.Context, log *slog.Logger, process processFunc, maxReceives int, ev *events.SQSEvent) *events.SQSEventResponse {
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
			failed[i] = processGroup(ctx, log, process, maxReceives, msgs)
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

// processGroup runs one PR's messages in order and returns the ids of the
// ones to retry.
func processGroup(ctx context.Context, log *slog.Logger, process processFunc, maxReceives int, msgs []events.SQSMessage) []string {
	var failed []string
	var blockedBy string
	for _, m := range msgs {
		mlog, job, err := decodeMessage(log, m)
		receives, _ := strconv.Atoi(m.Attributes["ApproximateReceiveCount"])
		last := maxReceives > 0 && receives >= maxReceives
		switch {
		case blockedBy != "":
			mlog.Warn("job not run: an earlier job of this pull request failed in this batch", "blocked_by", blockedBy, "last_attempt", last)
		case err != nil:
			mlog.Error("job unreadable", "err", err, "last_attempt", last)
		default:
			err = runJob(ctx, process, job)
			if err == nil {
				mlog.Info("job done")
				continue
			}
			mlog.Error("job failed", "err", err, "last_attempt", last)
		}
		if blockedBy == "" {
			blockedBy = m.MessageId
		}
		if last {
			mlog.Error("job moves to the dead-letter queue", "receive_count", receives, "max_receive_count", maxReceives)
		}
		failed = append(failed, m.MessageId)
	}
	return failed
}

func decodeMessage(log *slog.Logger, m events.SQSMessage) (*slog.Logger, app.Job, error) {
	mlog := log.With("message_id", m.MessageId, "receive_count", m.Attributes["ApproximateReceiveCount"])
	job, err := pwaws.DecodeJob(m.Body)
	if err != nil {
		return mlog, job, err
	}
	mlog = mlog.With("delivery_id", job.DeliveryID, "event", job.Event, "action", job.Action,
		"installation_id", job.InstallationID, "repo", job.Owner+"/"+job.Repo, "pr", job.PR)
	return mlog, job, nil
}

// runJob turns a panic in one job into that job's failure, so the rest of
// the batch is still reported correctly.
func runJob(ctx context.Context, process processFunc, job app.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return process(ctx, job)
}
