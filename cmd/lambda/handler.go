package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
)

// Roles select what one deployed function accepts. template.yaml deploys
// the binary twice: a receiver (Function URL) and a worker (SQS trigger),
// each with only the permissions and secrets its role needs. roleAll
// accepts both, for a single-function deployment.
const (
	roleReceiver = "receiver"
	roleWorker   = "worker"
	roleAll      = "all"
)

// handler is the Lambda entry: it tells the event shapes apart and hands
// HTTP requests to the App's http.Handler and SQS batches to its worker.
// It implements lambda.Handler, so the payload is decoded once, here.
type handler struct {
	role   string
	http   http.Handler // receiver and all
	worker *sqsWorker   // worker and all
	log    *slog.Logger
}

// event is the union of the shapes the function is wired to: payload
// format 2.0 HTTP requests (Function URL, API Gateway HTTP API) and SQS
// batches. Their top-level keys do not overlap.
type event struct {
	events.APIGatewayV2HTTPRequest
	Records []events.SQSMessage `json:"Records"`
	// Source and DetailType are an EventBridge event's: the reconciler's
	// schedule (aws.events, Scheduled Event).
	Source     string `json:"source"`
	DetailType string `json:"detail-type"`
}

func (h *handler) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	log := h.log
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		log = log.With("aws_request_id", lc.AwsRequestID)
	}
	var ev event
	if err := json.Unmarshal(payload, &ev); err != nil {
		log.Error("event unreadable", "err", err, "bytes", len(payload))
		return nil, fmt.Errorf("decode event: %w", err)
	}
	switch {
	case len(ev.Records) > 0 && ev.Records[0].EventSource == "aws:sqs":
		if h.worker == nil {
			log.Error("sqs event sent to a function that is not a worker", "role", h.role)
			return nil, errors.New("this function does not take sqs events (PLANWARDEN_ROLE=" + h.role + ")")
		}
		// Stop the jobs a little before Lambda's deadline, so they are
		// reported as failures instead of timing out the whole batch.
		if d, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, d.Add(-min(5*time.Second, time.Until(d)/10)))
			defer cancel()
		}
		sqs := &events.SQSEvent{Records: ev.Records}
		return json.Marshal(h.worker.batch(ctx, log, sqs))
	case ev.Source == "aws.events" && ev.DetailType == "Scheduled Event":
		if h.worker == nil || h.worker.reconcile == nil {
			log.Error("scheduled event sent to a function that is not a worker", "role", h.role)
			return nil, errors.New("this function does not reconcile (PLANWARDEN_ROLE=" + h.role + ")")
		}
		if err := h.worker.reconcile(ctx); err != nil {
			// Logged, not returned: the next schedule tries again, and
			// EventBridge's own retries would only repeat the walk.
			log.Warn("reconcile", "err", err)
		}
		return []byte(`{}`), nil
	case ev.RequestContext.HTTP.Method != "":
		if h.http == nil {
			log.Error("http event sent to a function that is not a receiver", "role", h.role)
			return nil, errors.New("this function does not take http events (PLANWARDEN_ROLE=" + h.role + ")")
		}
		resp, err := serveHTTP(ctx, h.http, &ev.APIGatewayV2HTTPRequest)
		if err != nil {
			log.Error("http event unusable", "err", err)
			return nil, err
		}
		return json.Marshal(resp)
	default:
		log.Error("event of an unknown shape", "bytes", len(payload))
		return nil, errors.New("unknown event: neither an http request (payload format 2.0), an sqs batch nor the reconciler's schedule")
	}
}
