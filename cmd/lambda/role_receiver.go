//go:build !worker

package main

import (
	"fmt"
	"log/slog"
	"net/http"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/receiver"
)

// newReceiver is the receiver role: the webhook handler, deduping on
// DynamoDB and enqueueing on SQS.
func newReceiver(aws *pwaws.Clients, s settings, secrets port.Secrets, log *slog.Logger) (http.Handler, error) {
	rc, err := receiver.New(receiver.Config{WebhookSecret: secrets.WebhookSecret, Queue: aws.Queue(s.queueURL), Store: aws.Store(s.table), Logger: log})
	if err != nil {
		return nil, fmt.Errorf("build the receiver: %w", err)
	}
	return rc, nil
}
