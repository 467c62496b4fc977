package aws_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/receiver"
)

func TestStorePortSuite(t *testing.T) {
	t.Parallel()
	client := dynamodb.NewFromConfig(awstest.Config(t))
	porttest.RunStore(t, func(t *testing.T) port.Store {
		return pwaws.NewStore(client, awstest.Table(t, client))
	})
}

// clock is a settable time for expiry tests.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newStoreAt(t *testing.T, at time.Time) (*pwaws.Store, *clock, *dynamodb.Client, string) {
	client := dynamodb.NewFromConfig(awstest.Config(t))
	table := awstest.Table(t, client)
	s := pwaws.NewStore(client, table)
	c := &clock{t: at}
	pwaws.SetClock(s, c.now)
	return s, c, client, table
}

func expiresAt(t *testing.T, client *dynamodb.Client, table, pk string) int64 {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: sdkaws.String(table),
		Key:       map[string]types.AttributeValue{pwaws.KeyAttribute: &types.AttributeValueMemberS{Value: pk}},
	})
	if err != nil {
		t.Fatalf("get item %s: %v", pk, err)
	}
	n, ok := out.Item[pwaws.TTLAttribute].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("item %s has no numeric %s attribute: %v", pk, pwaws.TTLAttribute, out.Item)
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		t.Fatalf("item %s: %s = %q: %v", pk, pwaws.TTLAttribute, n.Value, err)
	}
	return sec
}

func TestStoreSetsTTLAttribute(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s, _, client, table := newStoreAt(t, at)
	ctx := context.Background()
	if _, err := s.MarkDelivery(ctx, "d-ttl", 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPR(ctx, "octo/infra#1", port.PRState{HeadSHA: "abc", UpdatedAt: at}, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		pk   string
		want time.Time
	}{
		"delivery expires after its ttl": {pk: "delivery#d-ttl", want: at.Add(24 * time.Hour)},
		"pr state expires after its ttl": {pk: "pr#octo/infra#1", want: at.Add(30 * 24 * time.Hour)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := expiresAt(t, client, table, tc.pk); got != tc.want.Unix() {
				t.Errorf("%s = %d (%s), want %d (%s)", pwaws.TTLAttribute, got, time.Unix(got, 0).UTC(), tc.want.Unix(), tc.want)
			}
		})
	}
}

func TestStoreExpiredItemsAreGone(t *testing.T) {
	t.Parallel()
	// DynamoDB deletes expired items lazily; the Store must not wait for it.
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s, c, _, _ := newStoreAt(t, at)
	ctx := context.Background()
	if ok, err := s.MarkDelivery(ctx, "d-old", time.Hour); err != nil || !ok {
		t.Fatalf("first MarkDelivery = %v, %v", ok, err)
	}
	if err := s.PutPR(ctx, "octo/infra#2", port.PRState{HeadSHA: "abc", UpdatedAt: at}, time.Hour); err != nil {
		t.Fatal(err)
	}

	c.t = at.Add(59 * time.Minute)
	if ok, err := s.MarkDelivery(ctx, "d-old", time.Hour); err != nil || ok {
		t.Errorf("MarkDelivery within the ttl = %v, %v; want a repeat (false)", ok, err)
	}
	if _, ok, err := s.PR(ctx, "octo/infra#2"); err != nil || !ok {
		t.Errorf("PR within the ttl = found %v, %v; want found", ok, err)
	}

	c.t = at.Add(time.Hour + time.Second)
	if ok, err := s.MarkDelivery(ctx, "d-old", time.Hour); err != nil || !ok {
		t.Errorf("MarkDelivery after the ttl = %v, %v; want new (true)", ok, err)
	}
	if st, ok, err := s.PR(ctx, "octo/infra#2"); err != nil || ok {
		t.Errorf("PR after the ttl = %+v found %v, %v; want absent", st, ok, err)
	}
}

func TestStoreForgetDeliveryDeletesOnlyThatItem(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s, _, client, table := newStoreAt(t, at)
	ctx := context.Background()
	if _, err := s.MarkDelivery(ctx, "d-gone", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MarkDelivery(ctx, "d-kept", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPR(ctx, "d-gone", port.PRState{HeadSHA: "abc", UpdatedAt: at}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetDelivery(ctx, "d-gone"); err != nil {
		t.Fatalf("ForgetDelivery: %v", err)
	}
	for pk, want := range map[string]bool{"delivery#d-gone": false, "delivery#d-kept": true, "pr#d-gone": true} {
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: sdkaws.String(table),
			Key:       map[string]types.AttributeValue{pwaws.KeyAttribute: &types.AttributeValueMemberS{Value: pk}},
		})
		if err != nil {
			t.Fatalf("get item %s: %v", pk, err)
		}
		if got := out.Item != nil; got != want {
			t.Errorf("item %s present %v after ForgetDelivery(d-gone), want %v", pk, got, want)
		}
	}
	if err := s.ForgetDelivery(ctx, ""); err == nil {
		t.Errorf("ForgetDelivery(\"\") succeeded; want an error")
	}
}

// downQueue refuses every job, as SQS does when it is unavailable.
type downQueue struct{}

func (downQueue) Enqueue(context.Context, job.Job) error {
	return errors.New("sqs: service unavailable")
}

func TestAFailedEnqueueLetsGitHubRedeliver(t *testing.T) {
	t.Parallel()
	client := dynamodb.NewFromConfig(awstest.Config(t))
	store := pwaws.NewStore(client, awstest.Table(t, client))
	const secret = "webhook-secret"
	a, err := receiver.New(receiver.Config{WebhookSecret: []byte(secret), Queue: downQueue{}, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"action":"opened","number":3,"pull_request":{"number":3,"head":{"sha":"abc123","ref":"f"},"base":{"ref":"main"}},` +
		`"repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":77},"sender":{"login":"alice"}}`
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(body))
	for i := range 2 {
		req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "redeliver-me")
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		// A remembered id would answer 200 "duplicate delivery" the second time.
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("delivery %d: status %d %q, want 503: the id must be forgotten when the job was not queued", i+1, rec.Code, rec.Body.String())
		}
	}
}

// loseFirstAnswer passes requests to DynamoDB and, the first time op is
// called, throws the answer away and says 500 instead: the write landed,
// its answer was lost, and the SDK retries it.
type loseFirstAnswer struct {
	op   string
	lost atomic.Int32
}

func (l *loseFirstAnswer) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || r.Header.Get("X-Amz-Target") != l.op || !l.lost.CompareAndSwap(0, 1) {
		return resp, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"the answer was lost"}`
	return &http.Response{StatusCode: http.StatusInternalServerError, Status: "500 Internal Server Error", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// The SDK retries a delivery mark whose first put landed but whose answer
// was lost; the retry finds the item its own first attempt wrote. That is
// the same mark, not a duplicate: a duplicate would answer GitHub 200 and
// queue nothing, and the delivery would be lost. A real redelivery of the
// id is still a duplicate.
func TestMarkDeliveryRetriedAfterALostAnswerIsFresh(t *testing.T) {
	t.Parallel()
	cfg := awstest.Config(t)
	direct := dynamodb.NewFromConfig(cfg)
	table := awstest.Table(t, direct)
	lossy := &loseFirstAnswer{op: "DynamoDB_20120810.PutItem"}
	store := pwaws.NewStore(dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: lossy} }), table)
	ctx := context.Background()

	fresh, err := store.MarkDelivery(ctx, "lost-answer", time.Hour)
	if lossy.lost.Load() != 1 {
		t.Fatal("no answer was lost: the test checks nothing")
	}
	if err != nil || !fresh {
		t.Errorf("first mark, retried by the SDK = %v, %v; want fresh: its own first attempt is no duplicate", fresh, err)
	}
	fresh, err = pwaws.NewStore(direct, table).MarkDelivery(ctx, "lost-answer", time.Hour)
	if err != nil || fresh {
		t.Errorf("a redelivery of the id = %v, %v; want a duplicate", fresh, err)
	}
}

// The SDK retries a PR state put whose first attempt landed but whose
// answer was lost; the retry fails the version condition on the item its
// own first attempt wrote. That is the put succeeding, not a conflict: on
// a conflict the caller re-reads and re-applies its change on top of its
// own write (a revoked override would then count as never recorded, and
// the PR would not be reviewed again). A real second writer of the same
// version still conflicts.
func TestPutPRRetriedAfterALostAnswerLands(t *testing.T) {
	t.Parallel()
	cfg := awstest.Config(t)
	direct := dynamodb.NewFromConfig(cfg)
	table := awstest.Table(t, direct)
	ctx := context.Background()
	for _, read := range []int64{0, 1} {
		key := fmt.Sprintf("o/r#%d", read+1)
		if read > 0 { // a state at version 1 to write over
			if err := pwaws.NewStore(direct, table).PutPR(ctx, key, port.PRState{HeadSHA: "a"}, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		lossy := &loseFirstAnswer{op: "DynamoDB_20120810.PutItem"}
		store := pwaws.NewStore(dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: lossy} }), table)
		err := store.PutPR(ctx, key, port.PRState{HeadSHA: "b", Version: read}, time.Hour)
		if lossy.lost.Load() != 1 {
			t.Fatal("no answer was lost: the test checks nothing")
		}
		if err != nil {
			t.Errorf("put at version %d, retried by the SDK = %v; want success: its own first attempt is no conflict", read, err)
		}
		st, ok, err := pwaws.NewStore(direct, table).PR(ctx, key)
		if err != nil || !ok || st.HeadSHA != "b" || st.Version != read+1 {
			t.Errorf("state after the put at version %d = %+v, %v, %v; want head b at version %d", read, st, ok, err, read+1)
		}
		err = pwaws.NewStore(direct, table).PutPR(ctx, key, port.PRState{HeadSHA: "c", Version: read}, time.Hour)
		if !errors.Is(err, port.ErrConflict) {
			t.Errorf("another writer's put at version %d = %v; want port.ErrConflict", read, err)
		}
	}
}
