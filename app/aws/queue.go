package aws

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/planwarden/planwarden/app/job"
)

// MaxMessageBytes is the SQS message size planwarden stays under. Jobs
// carry references, never plans, so a job near this size is a bug.
const MaxMessageBytes = 256 * 1024

// Queue is the App's Queue port on an SQS FIFO queue. Every job of one pull
// request shares a message group (job.Job.GroupKey), so SQS hands them to
// workers one at a time and in order, while different pull requests run in
// parallel. The delivery id is the deduplication id, so a delivery GitHub
// sends twice within SQS's five-minute window is queued once.
type Queue struct {
	client *sqs.Client
	url    string
}

// NewQueue returns a Queue that sends to the FIFO queue at queueURL.
func NewQueue(client *sqs.Client, queueURL string) *Queue {
	return &Queue{client: client, url: queueURL}
}

// Enqueue sends the job as one JSON message.
func (q *Queue) Enqueue(ctx context.Context, j job.Job) error {
	body, err := EncodeJob(j)
	if err != nil {
		return err
	}
	dedupe := j.DeliveryID
	if dedupe == "" {
		sum := sha256.Sum256(body)
		dedupe = hex.EncodeToString(sum[:])
	}
	_, err = q.client.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               sdkaws.String(q.url),
		MessageBody:            sdkaws.String(string(body)),
		MessageGroupId:         sdkaws.String(fifoID(j.GroupKey())),
		MessageDeduplicationId: sdkaws.String(fifoID(dedupe)),
	})
	if err != nil {
		return fmt.Errorf("send job %s for %s to sqs: %w", j.DeliveryID, j.GroupKey(), err)
	}
	return nil
}

// EncodeJob is the message body Queue sends: the job as JSON.
func EncodeJob(j job.Job) ([]byte, error) {
	body, err := json.Marshal(j)
	if err != nil {
		return nil, fmt.Errorf("encode job %s: %w", j.DeliveryID, err)
	}
	if len(body) > MaxMessageBytes {
		return nil, fmt.Errorf("encode job %s: %d bytes, over the %d-byte SQS limit", j.DeliveryID, len(body), MaxMessageBytes)
	}
	return body, nil
}

// DecodeJob reads a message body that EncodeJob wrote.
func DecodeJob(body string) (job.Job, error) {
	var j job.Job
	if err := json.Unmarshal([]byte(body), &j); err != nil {
		return job.Job{}, fmt.Errorf("decode job: %w", err)
	}
	if j.DeliveryID == "" && j.Event == "" {
		return job.Job{}, errors.New("decode job: no delivery id and no event")
	}
	return j, nil
}

// fifoID fits s into SQS's rules for group and deduplication ids: at most
// 128 characters of printable ASCII. Owner, repo, PR and delivery ids
// normally pass unchanged; anything else becomes a stable hash.
func fifoID(s string) string {
	ok := len(s) > 0 && len(s) <= 128
	for i := 0; ok && i < len(s); i++ {
		ok = s[i] > ' ' && s[i] <= '~'
	}
	if ok {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + hex.EncodeToString(sum[:])
}

// MaxRetryDelay is the longest SQS lets a received message stay hidden.
const MaxRetryDelay = 12 * time.Hour

// RetryAfter hides a received message (by its receipt handle) for d, so
// SQS hands it out again after d instead of after the queue's visibility
// timeout. In a FIFO queue the rest of its message group waits too, which
// keeps the pull request's order.
func (q *Queue) RetryAfter(ctx context.Context, receiptHandle string, d time.Duration) error {
	d = min(max(d, 0), MaxRetryDelay)
	_, err := q.client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
		QueueUrl:          sdkaws.String(q.url),
		ReceiptHandle:     sdkaws.String(receiptHandle),
		VisibilityTimeout: int32(d / time.Second),
	})
	if err != nil {
		return fmt.Errorf("retry message after %s: %w", d, err)
	}
	return nil
}
