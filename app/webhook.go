package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/google/go-github/v66/github"
)

// MaxWebhookBytes is GitHub's largest webhook payload.
const MaxWebhookBytes = 25 << 20

// eventHandler is one webhook event: decode maps the go-github event onto
// a Job (ok false: nothing to do), process is the worker step.
type eventHandler struct {
	decode  func(ctx context.Context, ev any) (job Job, ok bool)
	process func(a *App, ctx context.Context, gh GitHub, job Job) error
}

func eventHandlers() map[string]eventHandler {
	return map[string]eventHandler{
		"pull_request":              {decodePullRequest, (*App).processPullRequest},
		"workflow_run":              {decodeWorkflowRun, (*App).processWorkflowRun},
		"check_run":                 {decodeCheckRun, (*App).processCheckRun},
		"check_suite":               {decodeCheckSuite, (*App).processCheckSuite},
		"merge_group":               {decodeMergeGroup, (*App).processMergeGroup},
		"issue_comment":             {decodeIssueComment, (*App).processIssueComment},
		"installation":              {decodeInstallation, nil},
		"installation_repositories": {decodeInstallationRepositories, nil},
	}
}

func (a *App) serveWebhook(w http.ResponseWriter, r *http.Request) {
	// Unverified until the signature is checked: keep them short.
	event, delivery := clamp(r.Header.Get("X-GitHub-Event"), 64), clamp(r.Header.Get("X-GitHub-Delivery"), 128)
	log := a.log.With("delivery", delivery, "event", event)
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
	sig := r.Header.Get(github.SHA256SignatureHeader)
	if sig == "" {
		log.Warn("webhook refused: no X-Hub-Signature-256")
		reply(http.StatusUnauthorized, "missing X-Hub-Signature-256")
		return
	}
	if err := github.ValidateSignature(sig, body, a.cfg.Secrets.WebhookSecret); err != nil {
		log.Warn("webhook refused: signature does not match")
		reply(http.StatusUnauthorized, "bad signature")
		return
	}
	payload, err := webhookJSON(r.Header.Get("Content-Type"), sig, body, a.cfg.Secrets.WebhookSecret)
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
	h, ok := a.handlers[event]
	if !ok {
		log.Debug("event not handled")
		reply(http.StatusAccepted, "event not handled")
		return
	}
	ev, err := parseWebHook(event, payload)
	if err != nil {
		log.Warn("webhook refused: malformed payload", "err", err)
		reply(http.StatusBadRequest, "malformed payload")
		return
	}
	ctx := withLogger(r.Context(), log)
	job, ok := h.decode(ctx, ev)
	if !ok {
		reply(http.StatusAccepted, "nothing to do")
		return
	}
	job.DeliveryID, job.Event, job.ReceivedAt = delivery, event, a.now()
	log = a.log.With(jobAttrs(job)...)
	ctx = withLogger(r.Context(), log)

	fresh, err := a.store.MarkDelivery(ctx, delivery, a.cfg.DeliveryTTL)
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
	if err := a.queue.Enqueue(ctx, job); err != nil {
		// Forget the id when the store can, so GitHub's "Redeliver" works.
		if f, ok := a.store.(DeliveryForgetter); ok {
			if ferr := f.ForgetDelivery(ctx, delivery); ferr != nil {
				log.Warn("forget delivery", "err", ferr)
			}
		}
		log.Error("enqueue", "err", err)
		reply(http.StatusServiceUnavailable, "queue unavailable")
		return
	}
	log.Info("queued", "group", job.GroupKey())
	reply(http.StatusAccepted, "queued")
}

// DeliveryForgetter is an optional Store method: undo MarkDelivery when the
// job could not be queued, so that a redelivery of it is new again.
type DeliveryForgetter interface {
	ForgetDelivery(ctx context.Context, deliveryID string) error
}

// webhookJSON returns the JSON payload of a JSON or form-encoded delivery,
// through go-github's payload validation (which checks the signature again).
func webhookJSON(contentType, sig string, body, secret []byte) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, errors.New("missing or bad Content-Type")
	}
	payload, err := github.ValidatePayloadFromBody(mt, bytes.NewReader(body), sig, secret)
	if err != nil {
		return nil, fmt.Errorf("unsupported Content-Type %q", mt)
	}
	return payload, nil
}

// parseWebHook decodes with go-github. Some payloads (GitHub's own 2018
// examples of check_run, old GitHub Enterprise Server) write times as
// "2006-01-02 15:04:05", which go-github's Timestamp refuses; those are
// rewritten to RFC 3339 and decoded once more.
func parseWebHook(event string, payload []byte) (any, error) {
	ev, err := github.ParseWebHook(event, payload)
	var te *time.ParseError
	if err == nil || !errors.As(err, &te) {
		return ev, err
	}
	var v any
	if json.Unmarshal(payload, &v) != nil {
		return nil, err
	}
	fixed, jerr := json.Marshal(rfc3339Times(v, 0))
	if jerr != nil {
		return nil, err
	}
	return github.ParseWebHook(event, fixed)
}

func rfc3339Times(v any, depth int) any {
	if depth > 64 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = rfc3339Times(e, depth+1)
		}
	case []any:
		for i, e := range x {
			x[i] = rfc3339Times(e, depth+1)
		}
	case string:
		if t, err := time.Parse(time.DateTime, x); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return v
}
