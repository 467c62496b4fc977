package receiver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/porttest"
)

// zeros is an endless body that costs the sender no memory.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// heapPeak samples the heap while run runs and returns the highest
// reading: a lower bound of the true peak, reported, not relied on.
func heapPeak(run func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	run()
	close(stop)
	<-done
	return peak.Load()
}

// 120 deliveries of 25 MB at once, none validly signed: half carry no
// signature (refused before the body is read), half a forged one (read and
// hashed as a stream, MaxBodies at a time). The receiver holds at most
// MaxBodies × 25 MB of body bytes at once.
func TestManyUnsignedBodiesAtOnceStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 3 GB over loopback")
	}
	const n, maxBodies = 120, 4
	rc, err := New(Config{WebhookSecret: []byte(testSecret), Queue: &recordQueue{}, Store: porttest.NewMemoryStore(nil), MaxBodies: maxBodies, BodyWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	forged := "sha256=" + strings.Repeat("ab", 32)
	var (
		mu    sync.Mutex
		codes = map[string]int{}
	)
	peak := heapPeak(func() {
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/webhook", io.LimitReader(zeros{}, MaxWebhookBytes))
				req.ContentLength = MaxWebhookBytes
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-GitHub-Event", "pull_request")
				req.Header.Set("X-GitHub-Delivery", "d")
				if i%2 == 1 {
					req.Header.Set("X-Hub-Signature-256", forged)
				}
				resp, err := srv.Client().Do(req)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					codes["connection closed before the upload ended"]++ // refused early
				default:
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					codes[resp.Status]++
				}
			}()
		}
		wg.Wait()
	})
	t.Logf("answers: %v", codes)
	t.Logf("body bytes held at most: %.1f MB (bound %d × 25 MB); sampled heap peak %.1f MB",
		float64(rc.held.peak.Load())/(1<<20), maxBodies, float64(peak)/(1<<20))
	for status := range codes {
		if strings.HasPrefix(status, "2") {
			t.Errorf("an unsigned delivery was answered %s", status)
		}
	}
	if codes["401 Unauthorized"] < n/2 {
		t.Errorf("%d deliveries refused as unauthorized; want at least the %d forged ones", codes["401 Unauthorized"], n/2)
	}
	if got, bound := rc.held.peak.Load(), int64(maxBodies*MaxWebhookBytes); got > bound || got == 0 {
		t.Errorf("the receiver held %d body bytes at once; want at most %d (MaxBodies × 25 MB), and some", got, bound)
	}
	if rc.held.now.Load() != 0 {
		t.Errorf("%d body bytes still counted as held after every request ended", rc.held.now.Load())
	}
	// The bound on the process: MaxBodies bodies, twice over (with GOGC=100
	// the collector lets the heap reach twice what is live before it
	// frees the bodies already answered), plus the runtime, the test's
	// clients and the server's buffers. Unbounded, the 120 bodies would
	// take 3 GB.
	if limit := uint64(2*maxBodies*MaxWebhookBytes + 100<<20); peak > limit {
		t.Errorf("sampled heap peak %.0f MB; want under %.0f MB", float64(peak)/(1<<20), float64(limit)/(1<<20))
	}
}

func TestASignedBodyIsReadWhole(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 3*chunkBytes+17)
	var held bodyBytes
	want, _ := parseSignature(signed(string(body)))
	got, err := readSigned(bytes.NewReader(body), want, []byte(testSecret), int64(len(body)), &held)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("readSigned = %d bytes, %v; want the %d bytes back", len(got), err, len(body))
	}
	if held.now.Load() != 0 || held.peak.Load() != int64(len(body)) {
		t.Errorf("held now %d peak %d; want 0 and %d", held.now.Load(), held.peak.Load(), len(body))
	}
	if _, err := readSigned(bytes.NewReader(body[1:]), want, []byte(testSecret), int64(len(body)-1), &held); err != errBadSignature {
		t.Errorf("readSigned of a changed body = %v; want errBadSignature", err)
	}
	if _, err := readSigned(bytes.NewReader(body), want, []byte(testSecret), MaxWebhookBytes+1, &held); err != errTooLarge {
		t.Errorf("readSigned of a body declared over the limit = %v; want errTooLarge", err)
	}
	if _, err := readSigned(bytes.NewReader(body), want, []byte(testSecret), int64(len(body)+1), &held); err != io.ErrUnexpectedEOF {
		t.Errorf("readSigned of a body shorter than declared = %v; want io.ErrUnexpectedEOF", err)
	}
	if held.now.Load() != 0 {
		t.Errorf("held %d bytes after the failed reads; want 0", held.now.Load())
	}
}
