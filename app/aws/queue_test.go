package aws_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/google/go-cmp/cmp"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	jobs "github.com/planwarden/planwarden/app/job"
)

func testJob(delivery string, pr int) jobs.Job {
	return jobs.Job{
		DeliveryID: delivery, Event: "workflow_run", InstallationID: 42,
		Owner: "octo", Repo: "infra", PR: pr, HeadSHA: "0123456789abcdef0123456789abcdef01234567",
		ReceivedAt:  time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
		WorkflowRun: &jobs.WorkflowRun{RunID: 30433642, Conclusion: "success"},
	}
}

// withComment is j carrying a comment command of n bytes.
func withComment(j jobs.Job, n int) jobs.Job {
	j.Event, j.WorkflowRun = "issue_comment", nil
	j.IssueComment = &jobs.IssueComment{CommentID: 1, Body: strings.Repeat("x", n)}
	return j
}

type sqsHarness struct {
	client *sqs.Client
	q      awstest.FIFOQueue
	queue  *pwaws.Queue
}

func newSQS(t *testing.T, maxReceives int) sqsHarness {
	client := sqs.NewFromConfig(awstest.Config(t))
	q := awstest.Queue(t, client, maxReceives)
	return sqsHarness{client: client, q: q, queue: pwaws.NewQueue(client, q.URL)}
}

func (h sqsHarness) enqueue(t *testing.T, js ...jobs.Job) {
	t.Helper()
	for _, j := range js {
		if err := h.queue.Enqueue(context.Background(), j); err != nil {
			t.Fatalf("Enqueue(%s): %v", j.DeliveryID, err)
		}
	}
}

// receive takes up to max messages off url, the way a worker would; they
// stay in flight until deleted.
func (h sqsHarness) receive(t *testing.T, url string, max int32) []sqstypes.Message {
	t.Helper()
	out, err := h.client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl:                    sdkaws.String(url),
		MaxNumberOfMessages:         max,
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
	})
	if err != nil {
		t.Fatalf("receive: %v", err)
	}
	return out.Messages
}

func (h sqsHarness) del(t *testing.T, m sqstypes.Message) {
	t.Helper()
	if _, err := h.client.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: sdkaws.String(h.q.URL), ReceiptHandle: m.ReceiptHandle}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

func deliveries(t *testing.T, msgs []sqstypes.Message) []string {
	t.Helper()
	var ids []string
	for _, m := range msgs {
		j, err := pwaws.DecodeJob(*m.Body)
		if err != nil {
			t.Fatalf("message %s: %v", *m.MessageId, err)
		}
		ids = append(ids, j.DeliveryID)
	}
	return ids
}

func TestQueueMessageIsTheJobWithFIFOIDs(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	want := testJob("72d3162e-cc78-11e3-81ab-4c9367dc0958", 7)
	h.enqueue(t, want)
	msgs := h.receive(t, h.q.URL, 10)
	if len(msgs) != 1 {
		t.Fatalf("received %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	got, err := pwaws.DecodeJob(*m.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got.DeliveryID != want.DeliveryID || got.WorkflowRun == nil || got.WorkflowRun.RunID != want.WorkflowRun.RunID || got.GroupKey() != "octo/infra#7" || !got.ReceivedAt.Equal(want.ReceivedAt) {
		t.Errorf("decoded job = %+v, want %+v", got, want)
	}
	if g := m.Attributes["MessageGroupId"]; g != "octo/infra#7" {
		t.Errorf("MessageGroupId = %q, want the PR's group key octo/infra#7", g)
	}
	if d := m.Attributes["MessageDeduplicationId"]; d != want.DeliveryID {
		t.Errorf("MessageDeduplicationId = %q, want the delivery id %q", d, want.DeliveryID)
	}
}

func TestQueueKeepsOrderWithinOnePR(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	var want []string
	for i := range 6 {
		id := fmt.Sprintf("delivery-%d", i)
		want = append(want, id)
		h.enqueue(t, testJob(id, 7))
	}
	var got []string
	for range want {
		msgs := h.receive(t, h.q.URL, 1)
		if len(msgs) != 1 {
			t.Fatalf("after %v: received %d messages, want the next one", got, len(msgs))
		}
		got = append(got, deliveries(t, msgs)...)
		// While one message of the PR is in flight, the rest of the PR
		// waits: work for one PR is serialized.
		if more := h.receive(t, h.q.URL, 10); len(more) != 0 {
			t.Fatalf("while %v is in flight, received %v of the same PR", got[len(got)-1], deliveries(t, more))
		}
		h.del(t, msgs[0])
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestQueueRunsDifferentPRsInParallel(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	h.enqueue(t, testJob("a-1", 1), testJob("a-2", 1), testJob("b-1", 2), testJob("c-1", 3))

	first := h.receive(t, h.q.URL, 1)
	if got := deliveries(t, first); len(got) != 1 || got[0] != "a-1" {
		t.Fatalf("first receive = %v, want [a-1]", got)
	}
	// a-1 is in flight: PR 1 is locked, PRs 2 and 3 are not.
	others := deliveries(t, h.receive(t, h.q.URL, 10))
	if strings.Join(others, " ") != "b-1 c-1" {
		t.Errorf("while a-1 is in flight, received %v, want [b-1 c-1] (other PRs, not a-2)", others)
	}
	h.del(t, first[0])
	next := deliveries(t, h.receive(t, h.q.URL, 10))
	if strings.Join(next, " ") != "a-2" {
		t.Errorf("after a-1 is done, received %v, want [a-2]", next)
	}
}

func TestQueueDropsARepeatedDelivery(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	h.enqueue(t, testJob("same-delivery", 7), testJob("same-delivery", 7), testJob("other-delivery", 7))
	var got []string
	for {
		msgs := h.receive(t, h.q.URL, 10)
		if len(msgs) == 0 {
			break
		}
		got = append(got, deliveries(t, msgs)...)
		for _, m := range msgs {
			h.del(t, m)
		}
	}
	if strings.Join(got, " ") != "same-delivery other-delivery" {
		t.Errorf("received %v, want [same-delivery other-delivery]: a redelivery is queued once", got)
	}
}

func TestQueuePoisonMessageReachesTheDLQ(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	h.enqueue(t, testJob("poison", 7))
	for i := 1; i <= h.q.MaxReceives; i++ {
		msgs := h.receive(t, h.q.URL, 10)
		if len(msgs) != 1 {
			t.Fatalf("receive #%d: %d messages, want the poison message", i, len(msgs))
		}
		if n := msgs[0].Attributes["ApproximateReceiveCount"]; n != fmt.Sprint(i) {
			t.Errorf("receive #%d: ApproximateReceiveCount = %s", i, n)
		}
		// The worker failed: make it visible again at once instead of
		// waiting out the visibility timeout.
		if _, err := h.client.ChangeMessageVisibility(context.Background(), &sqs.ChangeMessageVisibilityInput{
			QueueUrl: sdkaws.String(h.q.URL), ReceiptHandle: msgs[0].ReceiptHandle, VisibilityTimeout: 0,
		}); err != nil {
			t.Fatal(err)
		}
	}
	if msgs := h.receive(t, h.q.URL, 10); len(msgs) != 0 {
		t.Errorf("after %d receives the queue still hands out %v", h.q.MaxReceives, deliveries(t, msgs))
	}
	if got := deliveries(t, h.receive(t, h.q.DLQURL, 10)); strings.Join(got, " ") != "poison" {
		t.Errorf("DLQ holds %v, want [poison]", got)
	}
}

func TestEncodeJob(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		job     jobs.Job
		wantErr string
	}{
		"a reference-sized job":            {job: testJob("d", 1)},
		"a comment body at GitHub's limit": {job: withComment(testJob("d", 1), 65536)},
		"a job carrying a plan is refused": {job: withComment(testJob("d", 1), 300<<10), wantErr: "over the 262144-byte SQS limit"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			body, err := pwaws.EncodeJob(tc.job)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("EncodeJob error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := pwaws.DecodeJob(string(body))
			if err != nil || !cmp.Equal(got, tc.job) || got.GroupKey() != tc.job.GroupKey() {
				t.Errorf("round trip = %+v, %v", got, err)
			}
		})
	}
}

func TestDecodeJobRefusesGarbage(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{"not json": "Message Body", "empty object": "{}", "wrong type": `{"pr":"seven"}`} {
		t.Run(name, func(t *testing.T) {
			if j, err := pwaws.DecodeJob(body); err == nil {
				t.Errorf("DecodeJob(%q) = %+v, want an error", body, j)
			}
		})
	}
}

func TestQueueFitsLongKeysIntoSQSIDs(t *testing.T) {
	t.Parallel()
	h := newSQS(t, 3)
	j := testJob(strings.Repeat("d", 200), 0)
	j.Owner, j.Repo = strings.Repeat("o", 39), strings.Repeat("r", 100) // owner@sha: 181 characters
	h.enqueue(t, j)
	msgs := h.receive(t, h.q.URL, 10)
	if len(msgs) != 1 {
		t.Fatalf("received %d messages, want 1", len(msgs))
	}
	for _, attr := range []string{"MessageGroupId", "MessageDeduplicationId"} {
		if v := msgs[0].Attributes[attr]; len(v) == 0 || len(v) > 128 {
			t.Errorf("%s = %q (%d characters), want 1-128", attr, v, len(v))
		}
	}
	if got := deliveries(t, msgs); got[0] != j.DeliveryID {
		t.Errorf("body delivery id = %q, want the original", got[0])
	}
}
