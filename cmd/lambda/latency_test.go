package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/receiver"
)

// queueFunc is a Queue for measuring the receiver alone.
type queueFunc func(context.Context, job.Job) error

func (f queueFunc) Enqueue(ctx context.Context, j job.Job) error { return f(ctx, j) }

// memoryReceiver is the receiver with the in-memory store and a queue that
// drops jobs: the Lambda adapter and the App's webhook handler, no network.
func memoryReceiver(t testing.TB) *handler {
	t.Helper()
	rc, err := receiver.New(receiver.Config{
		WebhookSecret: []byte(testWebhookSecret),
		Queue:         queueFunc(func(context.Context, job.Job) error { return nil }),
		Store:         porttest.NewMemoryStore(nil),
		Logger:        slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &handler{role: roleReceiver, http: rc, log: slog.New(slog.DiscardHandler)}
}

func signedDeliveries(t testing.TB, n int) [][]byte {
	body := workflowRunCompleted(t)
	out := make([][]byte, n)
	for i := range out {
		out[i] = functionURLEvent(t, "workflow_run", fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i), body, testWebhookSecret)
	}
	return out
}

func mustAccept(t testing.TB, h *handler, payload []byte) {
	out, err := h.Invoke(context.Background(), payload)
	if err != nil {
		t.Fatal(err)
	}
	var resp events.LambdaFunctionURLResponse
	if err := json.Unmarshal(out, &resp); err != nil || resp.StatusCode != 202 {
		t.Fatalf("delivery answered %s (%v), want 202", out, err)
	}
}

func BenchmarkReceiverInMemory(b *testing.B) {
	h := memoryReceiver(b)
	events := signedDeliveries(b, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		mustAccept(b, h, events[i])
	}
}

func BenchmarkReceiverOnAWSStub(b *testing.B) {
	h := stubbedReceiver(b)
	events := signedDeliveries(b, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		mustAccept(b, h, events[i])
	}
}

func BenchmarkReceiverOnMoto(b *testing.B) {
	gh := newFakeGitHub(b)
	s := newStack(b, gh.APIURL, 3)
	h := s.function(b, roleReceiver, io.Discard)
	events := signedDeliveries(b, b.N)
	b.ResetTimer()
	for i := range b.N {
		mustAccept(b, h, events[i])
	}
}

// TestMeasureReceiverLatency sends signed deliveries at a fixed rate for a
// fixed time (200/s for 10 s: 2,000 deliveries, each its own
// invocation, the way concurrent Lambda sandboxes would take them) and
// prints p50/p99. It reports; it does not assert times.
func TestMeasureReceiverLatency(t *testing.T) {
	if os.Getenv("PLANWARDEN_MEASURE") == "" {
		t.Skip("set PLANWARDEN_MEASURE=1 to run the bounded receiver load (200 deliveries/s for 10 s per backend)")
	}
	const duration = 10 * time.Second
	backends := map[string]struct {
		rate    int
		handler func(t *testing.T) *handler
	}{
		"in-memory store and queue":           {rate: 200, handler: func(t *testing.T) *handler { return memoryReceiver(t) }},
		"aws adapters on a loopback aws stub": {rate: 200, handler: func(t *testing.T) *handler { return stubbedReceiver(t) }},
		// moto_server (Python) takes ~30 ms a delivery here, so 200/s
		// would only measure its backlog.
		"aws adapters on moto": {rate: 20, handler: func(t *testing.T) *handler {
			gh := newFakeGitHub(t)
			return newStack(t, gh.APIURL, 3).function(t, roleReceiver, io.Discard)
		}},
	}
	for name, be := range backends {
		t.Run(name, func(t *testing.T) {
			h := be.handler(t)
			rate := be.rate
			n := rate * int(duration/time.Second)
			payloads := signedDeliveries(t, n)
			lat := make([]time.Duration, n)
			var wg sync.WaitGroup
			tick := time.NewTicker(time.Second / time.Duration(rate))
			defer tick.Stop()
			start := time.Now()
			for i := range n {
				<-tick.C
				wg.Add(1)
				go func() {
					defer wg.Done()
					t0 := time.Now()
					mustAccept(t, h, payloads[i])
					lat[i] = time.Since(t0)
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(p*float64(n-1))].Microseconds()) / 1000 }
			t.Logf("MEASURE receiver, %s: %d deliveries in %.1f s (%.0f/s): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
				name, n, elapsed.Seconds(), float64(n)/elapsed.Seconds(), pct(0.50), pct(0.90), pct(0.99), pct(1))
		})
	}
}

// stubbedReceiver is the receiver with the real AWS adapters and SDK
// clients, talking to a loopback stub that answers DynamoDB PutItem and
// SQS SendMessage at once: the receiver's own cost, AWS's latency aside.
func stubbedReceiver(t testing.TB) *handler {
	t.Helper()
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.Header.Get("X-Amz-Target")
		var in struct{ MessageBody string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		switch target {
		case "DynamoDB_20120810.PutItem":
			w.Header().Set("X-Amz-Crc32", fmt.Sprint(crc32.ChecksumIEEE([]byte("{}"))))
			io.WriteString(w, "{}")
		case "AmazonSQS.SendMessage":
			sum := md5.Sum([]byte(in.MessageBody))
			fmt.Fprintf(w, `{"MessageId":"%d","MD5OfMessageBody":"%s","SequenceNumber":"1"}`, time.Now().UnixNano(), hex.EncodeToString(sum[:]))
		default:
			http.Error(w, "stub: unexpected "+target, http.StatusBadRequest)
		}
	}))
	t.Cleanup(stub.Close)
	aws, err := pwaws.Connect(context.Background(), pwaws.Options{Region: awstest.Region, Endpoint: stub.URL, Credentials: awstest.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := receiver.New(receiver.Config{
		WebhookSecret: []byte(testWebhookSecret),
		Queue:         aws.Queue(stub.URL + "/123456789012/jobs.fifo"),
		Store:         aws.Store("state"),
		Logger:        slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &handler{role: roleReceiver, http: rc, log: slog.New(slog.DiscardHandler)}
}
