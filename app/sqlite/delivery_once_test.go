package sqlite_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/receiver"
	"github.com/planwarden/planwarden/app/sqlite"
)

const onceSecret = "once-secret"

// post delivers a signed pull_request webhook to the receiver and returns
// the status.
func postDelivery(t *testing.T, rc *receiver.Receiver, delivery, body string) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", delivery)
	m := hmac.New(sha256.New, []byte(onceSecret))
	m.Write([]byte(body))
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	rec := httptest.NewRecorder()
	rc.ServeHTTP(rec, req)
	return rec.Code
}

const openedBody = `{"action":"opened","number":3,"pull_request":{"number":3,"head":{"sha":"abc123","ref":"f"},"base":{"ref":"main"}},` +
	`"repository":{"name":"r","owner":{"login":"o"}},"installation":{"id":77},"sender":{"login":"alice"}}`

// serve's receiver marks a delivery (its id and its body's digest) and
// queues its job in one transaction: a fault between the two leaves
// neither, so GitHub's Redeliver runs; a true duplicate of a queued
// delivery, or its body under a new id, is still a duplicate.
func TestADeliveryIsMarkedOnlyWithItsJob(t *testing.T) {
	tests := map[string]struct {
		fault                 bool // the step between the mark and the job fails, the first time
		second                string
		wantFirst, wantSecond int
		wantDelivery          string // of the one job queued
	}{
		"a fault between the mark and the job, then Redeliver": {fault: true, second: "d-1", wantFirst: 503, wantSecond: 202, wantDelivery: "d-1"},
		"a fault, then the same body under a new id":           {fault: true, second: "d-2", wantFirst: 503, wantSecond: 202, wantDelivery: "d-2"},
		"Redeliver of a queued delivery":                       {second: "d-1", wantFirst: 202, wantSecond: 200, wantDelivery: "d-1"},
		"the body of a queued delivery under a new id":         {second: "d-2", wantFirst: 202, wantSecond: 200, wantDelivery: "d-1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			db := open(t, t.TempDir())
			rc, err := receiver.New(receiver.Config{WebhookSecret: []byte(onceSecret), Queue: db, Store: db})
			if err != nil {
				t.Fatal(err)
			}
			faults := 0
			if tc.fault {
				sqlite.StepHook(t, func(step string) error {
					if step == "delivery-marked" && faults == 0 {
						faults++
						return errors.New("the store stopped answering")
					}
					return nil
				})
			}
			if code := postDelivery(t, rc, "d-1", openedBody); code != tc.wantFirst {
				t.Errorf("first delivery: status %d; want %d", code, tc.wantFirst)
			}
			if tc.fault && faults != 1 {
				t.Fatalf("the fault between the mark and the job happened %d times; want once", faults)
			}
			if code := postDelivery(t, rc, tc.second, openedBody); code != tc.wantSecond {
				t.Errorf("second delivery (%s): status %d; want %d", tc.second, code, tc.wantSecond)
			}
			jobs := pending(t, db)
			if len(jobs) != 1 || jobs[0].DeliveryID != tc.wantDelivery {
				t.Errorf("jobs queued: %+v; want one, of %s", jobs, tc.wantDelivery)
			}
			// A delivery answered 200 left no mark of its own.
			if tc.wantSecond == http.StatusOK && tc.second != "d-1" {
				if fresh, err := db.MarkDelivery(context.Background(), tc.second, time.Hour); err != nil || !fresh {
					t.Errorf("the duplicate's id %s was remembered (fresh %v, err %v); want it left unmarked", tc.second, fresh, err)
				}
			}
		})
	}
}
