package receiver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/porttest"
)

// drip opens a stranger's connection: well-formed headers with a forged
// signature, then the body one byte per tick. The answer's status, when
// one comes, goes to statuses.
func drip(t *testing.T, addr string, i int, declared int64, tick <-chan time.Time, stop <-chan struct{}, statuses chan<- int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	fmt.Fprintf(conn, "POST /webhook HTTP/1.1\r\nHost: planwarden\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"X-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow-%d\r\nX-Hub-Signature-256: sha256=%s\r\n\r\n{",
		declared, i, strings.Repeat("ab", 32))
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-tick:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			resp.Body.Close()
			statuses <- resp.StatusCode
		}
	}()
	return conn
}

// GitHub's delivery, signed and sent at network speed, is queued while
// 100 strangers hold connections dripping bytes: when they declare large
// bodies (and so hold the whole body budget) the slowest loses its place
// to GitHub's; when they declare small ones, all fit. Without strangers
// the delivery is queued all the same.
func TestSignedDeliveryIsQueuedWhileSlowClientsHoldConnections(t *testing.T) {
	tests := map[string]struct {
		drippers     int
		declared     int64
		wantHolding  int // drippers holding a place before GitHub's delivery
		wantPreempts bool
	}{
		"100 slow clients declaring 25 MB each": {drippers: 100, declared: MaxWebhookBytes, wantHolding: 4, wantPreempts: true},
		"100 slow clients declaring 1 KB each":  {drippers: 100, declared: 1 << 10, wantHolding: 100},
		"no slow clients":                       {},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			q := &recordQueue{}
			logs := &lockedWriter{b: &bytes.Buffer{}}
			rc, err := New(Config{WebhookSecret: []byte(testSecret), Queue: q, Store: porttest.NewMemoryStore(nil), Logger: slog.New(slog.NewJSONHandler(logs, nil)),
				MaxBodies: 4, BodyWait: time.Minute,
				// The strangers are not cut off by their rate here: only
				// losing their place lets GitHub's delivery in.
				BodyGrace: time.Hour, BodyTimeout: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			changed := make(chan struct{}, 1)
			rc.gate.changed = func() {
				select {
				case changed <- struct{}{}:
				default:
				}
			}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			stop := make(chan struct{})
			ticker := time.NewTicker(100 * time.Millisecond)
			defer ticker.Stop()
			var conns []net.Conn
			defer func() {
				close(stop)
				for _, c := range conns {
					c.Close()
				}
			}()
			statuses := make(chan int, tc.drippers)
			for i := range tc.drippers {
				conns = append(conns, drip(t, srv.Listener.Addr().String(), i, tc.declared, ticker.C, stop, statuses))
			}
			// Every stranger is in: holding a place or waiting for one.
			deadline := time.After(time.Minute)
			for {
				holding, waiting := rc.gate.counts()
				if holding+waiting == tc.drippers && holding == tc.wantHolding {
					break
				}
				select {
				case <-changed:
				case <-deadline:
					t.Fatalf("after a minute %d strangers hold a place and %d wait; want %d in all, %d holding", holding, waiting, tc.drippers, tc.wantHolding)
				}
			}

			body := openedPayload
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/webhook", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-GitHub-Event", "pull_request")
			req.Header.Set("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
			req.Header.Set("X-Hub-Signature-256", signed(body))
			client := &http.Client{Timeout: time.Minute} // a failure guard only
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("GitHub's delivery: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Fatalf("GitHub's delivery answered %s; want 202 Accepted\n%s", resp.Status, logs.String())
			}
			q.mu.Lock()
			jobs := append([]jobRef(nil), refs(q)...)
			q.mu.Unlock()
			if len(jobs) != 1 || jobs[0].delivery != "72d3162e-cc78-11e3-81ab-4c9367dc0958" || jobs[0].group != "o/r#3" {
				t.Errorf("queued %v; want GitHub's delivery's job for o/r#3", jobs)
			}
			if !tc.wantPreempts {
				return
			}
			// A stranger lost its place, and was told so.
			select {
			case code := <-statuses:
				if code != http.StatusRequestTimeout {
					t.Errorf("the stranger that lost its place was answered %d; want 408", code)
				}
			case <-time.After(time.Minute):
				t.Errorf("no stranger was answered after GitHub's delivery was queued; want one 408 for the place it lost")
			}
		})
	}
}

// A genuine delivery that arrives too slowly is answered 408 with the
// reason, and nothing is queued; the same delivery at network speed (the
// last case of the test above) is queued.
func TestASlowSignedDeliveryFailsWithRequestTimeout(t *testing.T) {
	q := &recordQueue{}
	observed := make(chan string, 1)
	rc, err := New(Config{WebhookSecret: []byte(testSecret), Queue: q, Store: porttest.NewMemoryStore(nil),
		BodyGrace: 100 * time.Millisecond, MinBodyRate: 1 << 10, BodyTimeout: time.Hour,
		Observe: func(event, outcome string) { observed <- event + " " + outcome }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	body := strings.Replace(openedPayload, `"action"`, ` "action"`, 1) + strings.Repeat(" ", 8<<10)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /webhook HTTP/1.1\r\nHost: planwarden\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"X-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow-genuine\r\nX-Hub-Signature-256: %s\r\n\r\n", len(body), signed(body))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < len(body); i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					return
				}
			}
		}
	}()
	conn.SetReadDeadline(time.Now().Add(time.Minute)) // a failure guard only
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to the slow delivery: %v", err)
	}
	var msg bytes.Buffer
	msg.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(msg.String(), "body arrived too slowly") {
		t.Errorf("slow delivery answered %s %q; want 408 body arrived too slowly", resp.Status, msg.String())
	}
	if got := <-observed; got != "- slow" {
		t.Errorf("/metrics counts the delivery as %q; want %q (slow, its event unverified)", got, "- slow")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) != 0 {
		t.Errorf("%d jobs queued from a delivery that never arrived whole", len(q.jobs))
	}
}

type jobRef struct{ delivery, group string }

func refs(q *recordQueue) []jobRef {
	var out []jobRef
	for _, j := range q.jobs {
		out = append(out, jobRef{j.DeliveryID, j.GroupKey()})
	}
	return out
}

// lockedWriter lets the server's goroutines log into one buffer.
type lockedWriter struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitingQueue holds each Enqueue until its context ends or hold passes,
// as a busy store would, and fails it when the context ended first.
type waitingQueue struct {
	hold time.Duration
	recordQueue
}

func (q *waitingQueue) Enqueue(ctx context.Context, j job.Job) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(q.hold):
	}
	return q.recordQueue.Enqueue(ctx, j)
}

// The read deadline that paced a body is cleared once the body is whole:
// the server's read after the body must not cancel the request while its
// job is being queued (a store that takes longer than the body's pace).
func TestAJobBeingQueuedOutlivesItsBodysReadDeadline(t *testing.T) {
	q := &waitingQueue{hold: 500 * time.Millisecond}
	rc, err := New(Config{WebhookSecret: []byte(testSecret), Queue: q, Store: porttest.NewMemoryStore(nil),
		BodyGrace: 20 * time.Millisecond, MinBodyRate: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/webhook", strings.NewReader(openedPayload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", "d-store-busy")
	req.Header.Set("X-Hub-Signature-256", signed(openedPayload))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	q.mu.Lock()
	defer q.mu.Unlock()
	if resp.StatusCode != http.StatusAccepted || len(q.jobs) != 1 {
		t.Errorf("status %s with %d jobs; want 202 and the job queued after the store's wait", resp.Status, len(q.jobs))
	}
}
