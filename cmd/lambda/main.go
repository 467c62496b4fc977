// Command lambda is planwarden on AWS Lambda (provided.al2023, arm64).
// template.yaml deploys it as two binaries, built with a build tag each
// (`make lambda`):
//
//   - receiver (-tags receiver): Function URL (or API Gateway HTTP API)
//     requests go to the webhook http.Handler (app/receiver), which
//     verifies, dedupes (DynamoDB) and enqueues (SQS FIFO), answering in
//     milliseconds; it links no review pipeline;
//   - worker (-tags worker): SQS batches go to the worker (app), with
//     partial batch responses.
//
// Built without either tag it is both, and PLANWARDEN_ROLE (receiver,
// worker, all: the default) selects, for a single-function deployment.
//
// Environment:
//
//	PLANWARDEN_ROLE                receiver | worker | all
//	PLANWARDEN_APP_ID              the GitHub App id (worker)
//	PLANWARDEN_WEBHOOK_SECRET_ID   Secrets Manager id of the webhook secret
//	PLANWARDEN_PRIVATE_KEY_ID      Secrets Manager id of the App's private key, PEM (worker)
//	PLANWARDEN_QUEUE_URL           the SQS FIFO queue (receiver; worker: for retry delays)
//	PLANWARDEN_TABLE               the DynamoDB table
//	PLANWARDEN_GITHUB_API_URL      default https://api.github.com/
//	PLANWARDEN_MAX_RECEIVE_COUNT   the queue's maxReceiveCount, for the DLQ log line
//	PLANWARDEN_RETRY_BASE_SECONDS  first retry delay of a failed job, doubling per receive (default 15, at most 15 minutes)
//	AWS_ENDPOINT_URL               the SDK's endpoint override (tests)
//
// Secrets are read once, at cold start, and never logged.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/port"
)

func main() {
	start := time.Now()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	h, err := setup(context.Background(), os.Getenv, log)
	if err != nil {
		// Lambda reports a failed init and retries the cold start.
		log.Error("init failed", "err", err)
		os.Exit(1)
	}
	log.Info("init done", "role", h.role, "init_ms", float64(time.Since(start).Microseconds())/1000)
	lambda.Start(h)
}

// settings is the function's environment, read once.
type settings struct {
	role            string
	appID           int64
	webhookSecretID string
	privateKeyID    string
	queueURL        string
	table           string
	githubAPIURL    string
	maxReceives     int
	retryBase       time.Duration
	// memoryBudget is 60% of the function's memory
	// (AWS_LAMBDA_FUNCTION_MEMORY_SIZE): the reviews of a batch together
	// stay under it, the rest is left to the runtime and the SDK. 0 (not
	// on Lambda): the App's default.
	memoryBudget int64
}

func readSettings(getenv func(string) string) (settings, error) {
	s := settings{
		role:            getenv("PLANWARDEN_ROLE"),
		webhookSecretID: getenv("PLANWARDEN_WEBHOOK_SECRET_ID"),
		privateKeyID:    getenv("PLANWARDEN_PRIVATE_KEY_ID"),
		queueURL:        getenv("PLANWARDEN_QUEUE_URL"),
		table:           getenv("PLANWARDEN_TABLE"),
		githubAPIURL:    getenv("PLANWARDEN_GITHUB_API_URL"),
		retryBase:       port.DefaultRetryBase,
	}
	if s.role == "" {
		s.role = builtRole
	}
	var errs []error
	need := func(name, v string) {
		if v == "" {
			errs = append(errs, fmt.Errorf("%s is not set", name))
		}
	}
	switch {
	case s.role != roleReceiver && s.role != roleWorker && s.role != roleAll:
		errs = append(errs, fmt.Errorf("PLANWARDEN_ROLE=%q: want receiver, worker or all", s.role))
	case builtRole != roleAll && s.role != builtRole:
		errs = append(errs, fmt.Errorf("PLANWARDEN_ROLE=%q: this binary is the %s (built with -tags %s)", s.role, builtRole, builtRole))
	}
	need("PLANWARDEN_WEBHOOK_SECRET_ID", s.webhookSecretID)
	need("PLANWARDEN_TABLE", s.table)
	if s.role != roleWorker {
		need("PLANWARDEN_QUEUE_URL", s.queueURL)
	}
	if s.role != roleReceiver {
		need("PLANWARDEN_PRIVATE_KEY_ID", s.privateKeyID)
		id, err := strconv.ParseInt(getenv("PLANWARDEN_APP_ID"), 10, 64)
		if err != nil || id <= 0 {
			errs = append(errs, fmt.Errorf("PLANWARDEN_APP_ID=%q: want the GitHub App's numeric id", getenv("PLANWARDEN_APP_ID")))
		}
		s.appID = id
	}
	if v := getenv("PLANWARDEN_MAX_RECEIVE_COUNT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("PLANWARDEN_MAX_RECEIVE_COUNT=%q: want a positive number", v))
		}
		s.maxReceives = n
	}
	if v := getenv("PLANWARDEN_RETRY_BASE_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			errs = append(errs, fmt.Errorf("PLANWARDEN_RETRY_BASE_SECONDS=%q: want a number of seconds", v))
		}
		s.retryBase = time.Duration(n) * time.Second
	}
	if mb, err := strconv.ParseInt(getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"), 10, 64); err == nil && mb > 0 {
		s.memoryBudget = mb << 20 * 6 / 10
	}
	return s, errors.Join(errs...)
}

// setup does the cold start: settings, secrets, adapters, the App.
func setup(ctx context.Context, getenv func(string) string, log *slog.Logger) (*handler, error) {
	s, err := readSettings(getenv)
	if err != nil {
		return nil, err
	}
	aws, err := pwaws.Connect(ctx, pwaws.Options{})
	if err != nil {
		return nil, err
	}
	ids := pwaws.SecretIDs{WebhookSecret: s.webhookSecretID}
	if s.role != roleReceiver {
		ids.PrivateKey = s.privateKeyID
	}
	// Lambda allows 10 s of init; fail with a clear error before that.
	sctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	secrets, err := aws.LoadSecrets(sctx, s.appID, ids)
	if err != nil {
		return nil, err
	}
	h := &handler{role: s.role, log: log}
	if s.role != roleWorker {
		if h.http, err = newReceiver(aws, s, secrets, log); err != nil {
			return nil, err
		}
	}
	if s.role != roleReceiver {
		if h.worker, err = newWorker(aws, s, secrets, log); err != nil {
			return nil, err
		}
	}
	return h, nil
}
