package receiver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// watchedBody is a request body that records whether it was read.
type watchedBody struct {
	r    *strings.Reader
	read bool
}

func (b *watchedBody) Read(p []byte) (int, error) { b.read = true; return b.r.Read(p) }

// What the headers alone show wrong is refused before a byte of the body
// is read (and before the body takes a place in the budget); the same
// delivery with good headers is read and queued.
func TestHeadersAreCheckedBeforeTheBodyIsRead(t *testing.T) {
	tests := map[string]struct {
		sig, event, delivery string
		length               int64 // -1: not declared
		wantCode             int
		wantRead             bool
	}{
		"good headers":               {sig: signed(openedPayload), event: "pull_request", delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958", wantCode: 202, wantRead: true},
		"an event name with a digit": {sig: signed(openedPayload), event: "projects_v2_item", delivery: "d-1", wantCode: 202, wantRead: true},
		"no signature":               {event: "pull_request", delivery: "d-1", wantCode: 401},
		"signature not sha256=hex":   {sig: "sha1=" + strings.Repeat("a", 40), event: "pull_request", delivery: "d-1", wantCode: 401},
		"no event":                   {sig: signed(openedPayload), delivery: "d-1", wantCode: 400},
		"no delivery id":             {sig: signed(openedPayload), event: "pull_request", wantCode: 400},
		"event not an event name":    {sig: signed(openedPayload), event: "pull_request\x00<script>", delivery: "d-1", wantCode: 400},
		"delivery id with spaces":    {sig: signed(openedPayload), event: "pull_request", delivery: "d 1 ; drop", wantCode: 400},
		"delivery id too long":       {sig: signed(openedPayload), event: "pull_request", delivery: strings.Repeat("d", 129), wantCode: 400},
		"no Content-Length":          {sig: signed(openedPayload), event: "pull_request", delivery: "d-1", length: -1, wantCode: 411},
		"Content-Length over 25 MB":  {sig: signed(openedPayload), event: "pull_request", delivery: "d-1", length: MaxWebhookBytes + 1, wantCode: 413},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			q := &recordQueue{}
			rc := testApp(t, q, &bytes.Buffer{})
			body := &watchedBody{r: strings.NewReader(openedPayload)}
			req := httptest.NewRequest(http.MethodPost, "/webhook", body)
			req.ContentLength = int64(len(openedPayload))
			if tc.length != 0 {
				req.ContentLength = tc.length
			}
			req.Header.Set("Content-Type", "application/json")
			for k, v := range map[string]string{"X-Hub-Signature-256": tc.sig, "X-GitHub-Event": tc.event, "X-GitHub-Delivery": tc.delivery} {
				if v != "" {
					req.Header.Set(k, v)
				}
			}
			rec := httptest.NewRecorder()
			rc.ServeHTTP(rec, req)
			if rec.Code != tc.wantCode || body.read != tc.wantRead {
				t.Errorf("status %d %q, body read %v; want %d, read %v", rec.Code, strings.TrimSpace(rec.Body.String()), body.read, tc.wantCode, tc.wantRead)
			}
			// An event planwarden does not handle is answered 202 and queues nothing.
			if wantJobs := map[bool]int{true: 1}[tc.wantCode == 202 && tc.event == "pull_request"]; len(q.jobs) != wantJobs {
				t.Errorf("%d jobs queued; want %d", len(q.jobs), wantJobs)
			}
			if holding, waiting := rc.gate.counts(); holding+waiting != 0 {
				t.Errorf("after the answer %d bodies hold a place and %d wait; want none", holding, waiting)
			}
		})
	}
}
