package receiver

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// queueOnce queues a verified delivery's job unless its id or its body
// (j.BodyDigest) was seen, and returns the status to answer instead of
// "queued" (0: queued). A delivery is never remembered as seen without
// its job queued, so GitHub's Redeliver of one that was not queued runs:
//
//   - a queue that keeps the marks itself (port.DeliveryQueue: serve's
//     SQLite) records both and the job in one transaction;
//   - a store that can look a mark up (port.DeliveryChecker: DynamoDB)
//     is asked first, the job is sent (SQS FIFO deduplicates the delivery
//     id for five minutes), and the marks are written only after the send
//     succeeded;
//   - otherwise (the in-memory store of tests) the marks are written
//     first and forgotten again when the job could not be queued.
func (rc *Receiver) queueOnce(ctx context.Context, log *slog.Logger, j job.Job) (int, string) {
	keys := []string{j.DeliveryID, j.BodyDigest}
	if q, ok := rc.cfg.Queue.(port.DeliveryQueue); ok {
		seen, err := q.EnqueueDelivery(ctx, j, keys, rc.cfg.DeliveryTTL)
		if err != nil {
			log.Error("enqueue", "err", err)
			return http.StatusServiceUnavailable, "queue unavailable"
		}
		return rc.duplicate(log, j, seen)
	}
	if c, ok := rc.cfg.Store.(port.DeliveryChecker); ok {
		for _, k := range keys {
			seen, err := c.DeliverySeen(ctx, k)
			if err != nil {
				log.Error("look up delivery", "err", err)
				return http.StatusServiceUnavailable, "store unavailable"
			}
			if seen {
				return rc.duplicate(log, j, k)
			}
		}
		if err := rc.cfg.Queue.Enqueue(ctx, j); err != nil {
			log.Error("enqueue", "err", err)
			return http.StatusServiceUnavailable, "queue unavailable"
		}
		for _, k := range keys {
			// The job is queued: a mark that fails to land only lets a
			// redelivery queue it again (SQS drops it within five minutes).
			if _, err := rc.cfg.Store.MarkDelivery(ctx, k, rc.cfg.DeliveryTTL); err != nil {
				log.Warn("mark delivery after queueing it: a redelivery would queue it again", "err", err)
			}
		}
		return 0, ""
	}
	for i, k := range keys {
		// Only the marks this call wrote are forgotten again.
		fresh, err := rc.cfg.Store.MarkDelivery(ctx, k, rc.cfg.DeliveryTTL)
		if err != nil {
			log.Error("mark delivery", "err", err)
			rc.forget(ctx, log, keys[:i])
			return http.StatusServiceUnavailable, "store unavailable"
		}
		if !fresh {
			rc.forget(ctx, log, keys[:i])
			return rc.duplicate(log, j, k)
		}
	}
	if err := rc.cfg.Queue.Enqueue(ctx, j); err != nil {
		rc.forget(ctx, log, keys)
		log.Error("enqueue", "err", err)
		return http.StatusServiceUnavailable, "queue unavailable"
	}
	return 0, ""
}

// duplicate answers a delivery whose key seen was recorded before ("" :
// none, it was queued).
func (rc *Receiver) duplicate(log *slog.Logger, j job.Job, seen string) (int, string) {
	switch seen {
	case "":
		return 0, ""
	case j.DeliveryID:
		log.Info("duplicate delivery ignored")
	default:
		// A signed body replayed under a new delivery id is the same
		// delivery.
		log.Warn("replayed body under a new delivery id ignored")
	}
	return http.StatusOK, "duplicate delivery"
}

// forget drops marks written for a delivery that was not queued, when the
// store can, so GitHub's Redeliver of it is new.
func (rc *Receiver) forget(ctx context.Context, log *slog.Logger, keys []string) {
	f, ok := rc.cfg.Store.(port.DeliveryForgetter)
	if !ok {
		return
	}
	for _, k := range keys {
		if err := f.ForgetDelivery(ctx, k); err != nil {
			log.Warn("forget delivery", "err", err)
		}
	}
}
