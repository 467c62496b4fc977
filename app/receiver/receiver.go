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
	"io"
	"log/slog"
	"net/http"
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
}

// Receiver is the webhook http.Handler.
type Receiver struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux
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
	r := &Receiver{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux()}
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
	}

	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxWebhookBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			log.Warn("webhook refused: body too large")
			reply(http.StatusRequestEntityTooLarge, "payload larger than 25 MB")
			return
		}
		reply(http.StatusBadRequest, "cannot read body")
		return
	}
	sig := r.Header.Get(github.SignatureHeader)
	if sig == "" {
		log.Warn("webhook refused: no X-Hub-Signature-256")
		reply(http.StatusUnauthorized, "missing X-Hub-Signature-256")
		return
	}
	if !github.ValidSignature(sig, body, rc.cfg.WebhookSecret) {
		log.Warn("webhook refused: signature does not match")
		reply(http.StatusUnauthorized, "bad signature")
		return
	}
	payload, err := github.Payload(r.Header.Get("Content-Type"), sig, body, rc.cfg.WebhookSecret)
	if err != nil {
		reply(http.StatusBadRequest, err.Error())
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

// bodyDigest is the delivery key of a body: its SHA-256.
func bodyDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return "body:" + hex.EncodeToString(sum[:])
}
