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
	// MaxBodies bounds the webhook bodies read and verified at once
	// (default 4): the receiver holds at most MaxBodies × 25 MB of
	// unverified bytes however many requests arrive. BodyWait is how long
	// a request waits for its turn before a 503 (default 5s).
	MaxBodies int
	BodyWait  time.Duration
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
	case code >= 500:
		return "error"
	}
	return "refused"
}

// Receiver is the webhook http.Handler.
type Receiver struct {
	cfg   Config
	log   *slog.Logger
	mux   *http.ServeMux
	slots chan struct{}
	held  bodyBytes // body bytes buffered
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
		cfg.MaxBodies = 4
	}
	if cfg.BodyWait <= 0 {
		cfg.BodyWait = 5 * time.Second
	}
	r := &Receiver{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(), slots: make(chan struct{}, cfg.MaxBodies)}
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
	reply := func(code int, msg string) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintln(w, msg)
		if rc.cfg.Observe != nil {
			o := outcome(code, msg)
			if o == "refused" || o == "busy" {
				event = "-" // an unverified name must not grow the metric's labels
			}
			rc.cfg.Observe(event, o)
		}
	}

	// Unsigned requests are refused before a byte of the body is read.
	sig := r.Header.Get(github.SignatureHeader)
	want, err := parseSignature(sig)
	if err != nil {
		log.Warn("webhook refused: " + err.Error())
		reply(http.StatusUnauthorized, err.Error())
		return
	}
	if r.ContentLength > MaxWebhookBytes {
		log.Warn("webhook refused: body too large")
		reply(http.StatusRequestEntityTooLarge, errTooLarge.Error())
		return
	}
	// At most MaxBodies bodies are read at once; the rest wait their turn
	// (up to BodyWait), so the bytes held stay under MaxBodies × 25 MB.
	wait := time.NewTimer(rc.cfg.BodyWait)
	select {
	case rc.slots <- struct{}{}:
		wait.Stop()
	case <-wait.C:
		log.Warn("webhook refused: too many bodies in flight", "max_bodies", rc.cfg.MaxBodies)
		w.Header().Set("Retry-After", "1")
		reply(http.StatusServiceUnavailable, "busy: too many webhook deliveries at once")
		return
	case <-r.Context().Done():
		wait.Stop()
		return
	}
	body, payload, code, err := rc.verify(r, sig, want)
	<-rc.slots
	if err != nil {
		log.Warn("webhook refused: " + err.Error())
		reply(code, err.Error())
		return
	}
	if event == "" || delivery == "" {
		reply(http.StatusBadRequest, "missing X-GitHub-Event or X-GitHub-Delivery")
		return
	}
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

	fresh, err := rc.cfg.Store.MarkDelivery(ctx, delivery, rc.cfg.DeliveryTTL)
	if err != nil {
		log.Error("mark delivery", "err", err)
		reply(http.StatusServiceUnavailable, "store unavailable")
		return
	}
	if !fresh {
		log.Info("duplicate delivery ignored")
		reply(http.StatusOK, "duplicate delivery")
		return
	}
	// A signed body replayed under a new delivery id is the same
	// delivery: the body's digest is remembered too.
	digest := bodyDigest(body)
	fresh, err = rc.cfg.Store.MarkDelivery(ctx, digest, rc.cfg.DeliveryTTL)
	if err != nil {
		log.Error("mark delivery body", "err", err)
		reply(http.StatusServiceUnavailable, "store unavailable")
		return
	}
	if !fresh {
		log.Warn("replayed body under a new delivery id ignored")
		reply(http.StatusOK, "duplicate delivery")
		return
	}
	j.BodyDigest = digest
	if err := rc.cfg.Queue.Enqueue(ctx, j); err != nil {
		// Forget the id when the store can, so GitHub's "Redeliver" works.
		if f, ok := rc.cfg.Store.(port.DeliveryForgetter); ok {
			for _, k := range []string{delivery, digest} {
				if ferr := f.ForgetDelivery(ctx, k); ferr != nil {
					log.Warn("forget delivery", "err", ferr)
				}
			}
		}
		log.Error("enqueue", "err", err)
		reply(http.StatusServiceUnavailable, "queue unavailable")
		return
	}
	log.Info("queued", "group", j.GroupKey())
	reply(http.StatusAccepted, "queued")
}

// verify reads the body as a stream, checks its signature, and returns it
// with its JSON payload (of a JSON or form-encoded delivery), or the
// status to answer.
func (rc *Receiver) verify(r *http.Request, sig string, want []byte) (body, payload []byte, code int, err error) {
	body, err = readSigned(r.Body, want, rc.cfg.WebhookSecret, MaxWebhookBytes, &rc.held)
	switch {
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

// bodyDigest is the delivery key of a body: its SHA-256.
func bodyDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return "body:" + hex.EncodeToString(sum[:])
}
