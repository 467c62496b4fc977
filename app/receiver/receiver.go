// Package receiver is planwarden's webhook side: it verifies a delivery's
// signature, decodes the event into a typed job (app/github), dedupes by
// X-GitHub-Delivery, enqueues, and answers within milliseconds. It never
// calls GitHub and imports no part of the review pipeline, so the receiver
// binary stays small.
package receiver

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/prose"
)

// MaxWebhookBytes is GitHub's largest webhook payload.
const MaxWebhookBytes = 25 << 20

// DefaultMaxBodies is Config.MaxBodies's default: the receiver holds at
// most DefaultMaxBodies × MaxWebhookBytes of webhook bodies at once.
const DefaultMaxBodies = 4

// Config configures a Receiver. WebhookSecret and Queue are required.
type Config struct {
	WebhookSecret []byte
	Queue         port.Queue
	Store         port.Store   // remembers delivery ids; required
	Logger        *slog.Logger // default: JSON to nowhere
	// Now is the clock (default time.Now).
	Now func() time.Time
	// DeliveryTTL is how long a delivery id is remembered (default 72h).
	DeliveryTTL time.Duration
	// MaxBodies sizes the budget of webhook body bytes read and verified
	// at once: MaxBodies × 25 MB (default 4). A body is read only once its
	// declared size (Content-Length, required) fits; bodies that wait go in
	// smallest first. BodyWait is how long a request waits for its place
	// before a 503 (default 5s).
	MaxBodies int
	BodyWait  time.Duration
	// A body must arrive whole within BodyTimeout of its place (default
	// 10s: GitHub gives up on a delivery then), and after BodyGrace
	// (default 2s) at MinBodyRate bytes a second at least (default 32 KiB);
	// a slower one is answered 408. While a body waits, one that has read
	// for PreemptAfter (default 500ms) and is behind the pace that would
	// finish it within BodyTimeout loses its place (the slowest first).
	BodyTimeout  time.Duration
	BodyGrace    time.Duration
	MinBodyRate  int64
	PreemptAfter time.Duration
	// Observe, when set, learns each delivery's event and outcome (queued,
	// ignored, duplicate, ping, refused, busy, error): serve's /metrics.
	Observe func(event, outcome string)
}

// outcome names what a reply to a delivery means, for Observe.
func outcome(code int, msg string) string {
	switch {
	case code == http.StatusAccepted && msg == "queued":
		return "queued"
	case code == http.StatusAccepted:
		return "ignored"
	case code == http.StatusOK && msg == "pong":
		return "ping"
	case code == http.StatusOK:
		return "duplicate"
	case code == http.StatusServiceUnavailable && strings.HasPrefix(msg, "busy"):
		return "busy"
	case code == http.StatusRequestTimeout:
		return "slow"
	case code >= 500:
		return "error"
	}
	return "refused"
}

// Receiver is the webhook http.Handler.
type Receiver struct {
	cfg  Config
	log  *slog.Logger
	mux  *http.ServeMux
	gate *gate
	held bodyBytes // body bytes buffered
}

// New checks cfg and returns the Receiver. It refuses to build one that
// would accept unsigned webhooks.
func New(cfg Config) (*Receiver, error) {
	if len(cfg.WebhookSecret) == 0 {
		return nil, errors.New("webhook secret is not configured: refusing to accept unsigned webhooks")
	}
	if cfg.Queue == nil {
		return nil, errors.New("receiver config: no queue")
	}
	if cfg.Store == nil {
		return nil, errors.New("receiver config: no store to remember delivery ids")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.DeliveryTTL <= 0 {
		cfg.DeliveryTTL = 72 * time.Hour
	}
	if cfg.MaxBodies <= 0 {
		cfg.MaxBodies = DefaultMaxBodies
	}
	if cfg.BodyWait <= 0 {
		cfg.BodyWait = 5 * time.Second
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = 10 * time.Second
	}
	if cfg.BodyGrace <= 0 {
		cfg.BodyGrace = 2 * time.Second
	}
	if cfg.MinBodyRate <= 0 {
		cfg.MinBodyRate = 32 << 10
	}
	if cfg.PreemptAfter <= 0 {
		cfg.PreemptAfter = 500 * time.Millisecond
	}
	r := &Receiver{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(),
		gate: newGate(int64(cfg.MaxBodies)*MaxWebhookBytes, cfg.PreemptAfter, cfg.BodyTimeout, cfg.Now)}
	r.mux.HandleFunc("POST /webhook", r.serveWebhook)
	r.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	return r, nil
}

// ServeHTTP serves POST /webhook and GET /healthz.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) { rc.mux.ServeHTTP(w, r) }

func (rc *Receiver) serveWebhook(w http.ResponseWriter, r *http.Request) {
	// Unverified until the signature is checked: keep them short.
	event, delivery := prose.Clamp(r.Header.Get("X-GitHub-Event"), 64), prose.Clamp(r.Header.Get("X-GitHub-Delivery"), 128)
	log := rc.log.With("delivery", delivery, "event", event)
	ctl := http.NewResponseController(w)
	bodyRead := false
	reply := func(code int, msg string) {
		if !bodyRead && r.ContentLength != 0 {
			// Refused before its body was read whole: the connection is
			// closed after the answer, instead of the server reading on.
			w.Header().Set("Connection", "close")
			ctl.SetReadDeadline(time.Unix(1, 0))
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintln(w, msg)
		if rc.cfg.Observe != nil {
			o := outcome(code, msg)
			if o == "refused" || o == "busy" || o == "slow" {
				event = "-" // an unverified name must not grow the metric's labels
			}
			rc.cfg.Observe(event, o)
		}
	}

	// What can be checked before a byte of the body is read is, and no
	// place in the body budget is held for a request that fails it.
	sig := r.Header.Get(github.SignatureHeader)
	want, err := parseSignature(sig)
	if err != nil {
		log.Warn("webhook refused: " + err.Error())
		reply(http.StatusUnauthorized, err.Error())
		return
	}
	if msg := checkHeaders(r.Header.Get("X-GitHub-Event"), r.Header.Get("X-GitHub-Delivery")); msg != "" {
		log.Warn("webhook refused: " + msg)
		reply(http.StatusBadRequest, msg)
		return
	}
	if r.ContentLength < 0 {
		log.Warn("webhook refused: no Content-Length")
		reply(http.StatusLengthRequired, "Content-Length required")
		return
	}
	if r.ContentLength > MaxWebhookBytes {
		log.Warn("webhook refused: body too large")
		reply(http.StatusRequestEntityTooLarge, errTooLarge.Error())
		return
	}
	body, payload, code, err := rc.readBody(ctl, r, sig, want)
	if err != nil {
		if code == http.StatusServiceUnavailable {
			log.Warn("webhook refused: too many bodies in flight", "max_bodies", rc.cfg.MaxBodies)
			w.Header().Set("Retry-After", "1")
		} else {
			log.Warn("webhook refused: " + err.Error())
		}
		if code != 0 {
			reply(code, err.Error())
		}
		return
	}
	bodyRead = true
	if event == "ping" {
		log.Info("ping")
		reply(http.StatusOK, "pong")
		return
	}
	if !github.Handles(event) {
		log.Debug("event not handled")
		reply(http.StatusAccepted, "event not handled")
		return
	}
	j, ok, err := github.Decode(log, event, payload)
	if err != nil {
		log.Warn("webhook refused: malformed payload", "err", err)
		reply(http.StatusBadRequest, "malformed payload")
		return
	}
	if !ok {
		reply(http.StatusAccepted, "nothing to do")
		return
	}
	j.DeliveryID, j.Event, j.ReceivedAt = delivery, event, rc.cfg.Now()
	log = rc.log.With(j.LogAttrs()...)
	ctx := r.Context()

	j.BodyDigest = bodyDigest(body)
	if code, msg := rc.queueOnce(ctx, log, j); code != 0 {
		reply(code, msg)
		return
	}
	log.Info("queued", "group", j.GroupKey())
	reply(http.StatusAccepted, "queued")
}

// readBody waits for the body's place in the budget, reads it as a
// stream at its pace, checks its signature, and returns it with its JSON
// payload (of a JSON or form-encoded delivery), or the status to answer
// (0: none, the client has gone).
func (rc *Receiver) readBody(ctl *http.ResponseController, r *http.Request, sig string, want []byte) (body, payload []byte, code int, err error) {
	// The connection's read deadline paces the body (serve); an adapter
	// without one (Lambda: the body is in memory) reads it at once.
	var wake func(time.Time)
	if ctl.SetReadDeadline(time.Time{}) == nil {
		wake = func(t time.Time) { ctl.SetReadDeadline(t) }
	}
	h, err := rc.gate.acquire(r.ContentLength, rc.cfg.BodyWait, r.Context().Done(), wake)
	if err != nil {
		if r.Context().Err() != nil {
			return nil, nil, 0, err
		}
		return nil, nil, http.StatusServiceUnavailable, err
	}
	paced := &pacedBody{r: r.Body, h: h, grace: rc.cfg.BodyGrace, timeout: rc.cfg.BodyTimeout, minRate: rc.cfg.MinBodyRate, now: rc.cfg.Now}
	body, err = readSigned(paced, want, rc.cfg.WebhookSecret, r.ContentLength, &rc.held)
	// Released at once: net/http clears the read deadline itself when the
	// body is whole (its read after the body), so a job that takes long to
	// queue is not cut off by the body's pace.
	rc.gate.release(h)
	switch {
	case errors.Is(err, errTooSlow), errors.Is(err, errPreempted):
		return nil, nil, http.StatusRequestTimeout, err
	case errors.Is(err, errTooLarge):
		return nil, nil, http.StatusRequestEntityTooLarge, err
	case errors.Is(err, errBadSignature):
		return nil, nil, http.StatusUnauthorized, err
	case err != nil:
		return nil, nil, http.StatusBadRequest, errors.New("cannot read body")
	}
	payload, err = github.Payload(r.Header.Get("Content-Type"), sig, body, rc.cfg.WebhookSecret)
	if err != nil {
		return nil, nil, http.StatusBadRequest, err
	}
	return body, payload, 0, nil
}

// checkHeaders says what is wrong with a delivery's event and id headers,
// or "". GitHub's are short: an event name in lower case (projects_v2_item has a digit), an id of
// letters, digits and dashes (a GUID).
func checkHeaders(event, delivery string) string {
	if event == "" || delivery == "" {
		return "missing X-GitHub-Event or X-GitHub-Delivery"
	}
	if len(event) > 64 || strings.Trim(event, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return "malformed X-GitHub-Event"
	}
	if len(delivery) > 128 || strings.Trim(delivery, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
		return "malformed X-GitHub-Delivery"
	}
	return ""
}

// bodyDigest is the delivery key of a body: its SHA-256.
func bodyDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return "body:" + hex.EncodeToString(sum[:])
}
