package aws_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/receiver"
)

// died is what a simulated end of the function panics with.
type died struct{ at string }

// dyingQueue is the SQS queue of a function that dies the first time it
// sends, before the send reaches SQS.
type dyingQueue struct {
	*pwaws.Queue
	die bool
}

func (q *dyingQueue) Enqueue(ctx context.Context, j job.Job) error {
	if q.die {
		q.die = false
		panic(died{"send"})
	}
	return q.Queue.Enqueue(ctx, j)
}

// dyingStore is the DynamoDB store of a function that dies the first time
// it marks a delivery, before the mark reaches DynamoDB.
type dyingStore struct {
	*pwaws.Store
	die bool
}

func (s *dyingStore) MarkDelivery(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if s.die {
		s.die = false
		panic(died{"mark"})
	}
	return s.Store.MarkDelivery(ctx, id, ttl)
}

// The Lambda receiver marks a delivery in DynamoDB only after its job was
// sent to SQS (FIFO, the delivery id as deduplication id): a function that
// dies before the send leaves no mark, so GitHub's Redeliver runs; one that
// dies after the send but before the mark leaves a job that the
// redelivery's send does not double; a true duplicate of a queued delivery
// is still a duplicate.
func TestLambdaReceiverMarksADeliveryOnlyAfterItsJobWasSent(t *testing.T) {
	t.Parallel()
	const secret = "lambda-secret"
	body := `{"action":"opened","number":3,"pull_request":{"number":3,"head":{"sha":"abc123","ref":"f"},"base":{"ref":"main"}},` +
		`"repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":77},"sender":{"login":"alice"}}`
	tests := map[string]struct {
		dieAtSend, dieAtMark  bool
		second                string // delivery id of the redelivery
		wantFirst, wantSecond int    // 0: the function died
		wantDelivery          string // of the one message queued
	}{
		"died before the send, then Redeliver":           {dieAtSend: true, second: "d-1", wantFirst: 0, wantSecond: 202, wantDelivery: "d-1"},
		"died after the send before the mark, Redeliver": {dieAtMark: true, second: "d-1", wantFirst: 0, wantSecond: 202, wantDelivery: "d-1"},
		"Redeliver of a queued delivery":                 {second: "d-1", wantFirst: 202, wantSecond: 200, wantDelivery: "d-1"},
		"the body of a queued delivery under a new id":   {second: "d-2", wantFirst: 202, wantSecond: 200, wantDelivery: "d-1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newSQS(t, 3)
			client := dynamodb.NewFromConfig(awstest.Config(t))
			store := &dyingStore{Store: pwaws.NewStore(client, awstest.Table(t, client)), die: tc.dieAtMark}
			queue := &dyingQueue{Queue: h.queue, die: tc.dieAtSend}
			rc, err := receiver.New(receiver.Config{WebhookSecret: []byte(secret), Queue: queue, Store: store})
			if err != nil {
				t.Fatal(err)
			}
			post := func(delivery string) (code int) {
				defer func() {
					if r := recover(); r != nil {
						if _, ok := r.(died); !ok {
							panic(r)
						}
						code = 0
					}
				}()
				req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-GitHub-Event", "pull_request")
				req.Header.Set("X-GitHub-Delivery", delivery)
				m := hmac.New(sha256.New, []byte(secret))
				m.Write([]byte(body))
				req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
				rec := httptest.NewRecorder()
				rc.ServeHTTP(rec, req)
				return rec.Code
			}
			if code := post("d-1"); code != tc.wantFirst {
				t.Errorf("first delivery: status %d; want %d (0: the function died)", code, tc.wantFirst)
			}
			if code := post(tc.second); code != tc.wantSecond {
				t.Errorf("redelivery %s: status %d; want %d", tc.second, code, tc.wantSecond)
			}
			if got := deliveries(t, h.receive(t, h.q.URL, 10)); len(got) != 1 || got[0] != tc.wantDelivery {
				t.Errorf("messages queued for %v; want one, for %s", got, tc.wantDelivery)
			}
			// The delivery is remembered now: one more Redeliver is a
			// duplicate.
			if code := post("d-1"); code != http.StatusOK {
				t.Errorf("a third delivery of d-1: status %d; want 200 (duplicate)", code)
			}
		})
	}
}

// A mark past its expiry (DynamoDB deletes expired items within days) is
// not seen: the delivery is new again.
func TestAnExpiredDeliveryMarkIsNotSeen(t *testing.T) {
	t.Parallel()
	client := dynamodb.NewFromConfig(awstest.Config(t))
	store := pwaws.NewStore(client, awstest.Table(t, client))
	now := time.Now()
	pwaws.SetClock(store, func() time.Time { return now })
	if fresh, err := store.MarkDelivery(context.Background(), "d-old", time.Hour); err != nil || !fresh {
		t.Fatalf("MarkDelivery = %v, %v; want new", fresh, err)
	}
	for _, tc := range []struct {
		after time.Duration
		want  bool
	}{{59 * time.Minute, true}, {61 * time.Minute, false}} {
		pwaws.SetClock(store, func() time.Time { return now.Add(tc.after) })
		if seen, err := store.DeliverySeen(context.Background(), "d-old"); err != nil || seen != tc.want {
			t.Errorf("DeliverySeen %s after a mark of 1h = %v, %v; want %v", tc.after, seen, err, tc.want)
		}
	}
}
