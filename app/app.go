package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-cleanhttp"
)

// CheckName is the check run planwarden owns; branch protection requires it.
const CheckName = "planwarden"

// DefaultGitHubAPIURL is github.com's REST API.
const DefaultGitHubAPIURL = "https://api.github.com/"

// Config configures an App. Secrets.WebhookSecret and Queue are required;
// the rest has defaults.
type Config struct {
	Secrets Secrets
	// GitHubAPIURL is the REST API base: https://api.github.com/ (default)
	// or https://HOST/api/v3/ for GitHub Enterprise Server.
	GitHubAPIURL string
	Queue        Queue
	Store        Store        // default: a MemoryStore
	Logger       *slog.Logger // default: JSON to nowhere
	// Transport carries every outgoing request under the retry policy and
	// App auth (default: a pooled transport with timeouts). Tests point it
	// at loopback.
	Transport http.RoundTripper
	Retry     RetryPolicy
	Limits    Limits
	Commands  Commands
	// Now is the clock (default time.Now).
	Now func() time.Time
	// GitHubFor replaces the go-github adapter (unit tests); with it set,
	// AppID and PrivateKeyPEM are not needed.
	GitHubFor func(installationID int64) (GitHub, error)
	// DeliveryTTL is how long a delivery id is remembered (default 72h);
	// StateTTL how long a PR's state is (default 90 days).
	DeliveryTTL, StateTTL time.Duration
	// JobTimeout bounds one Process call (default 10 minutes).
	JobTimeout time.Duration
}

// App is planwarden's GitHub App: the webhook handler and the worker.
type App struct {
	cfg      Config
	log      *slog.Logger
	store    Store
	queue    Queue
	github   func(int64) (GitHub, error)
	now      func() time.Time
	locks    keyedMutex
	handlers map[string]eventHandler
}

// New checks cfg and returns the App. It refuses to build an App that
// would accept unsigned webhooks.
func New(cfg Config) (*App, error) {
	if len(cfg.Secrets.WebhookSecret) == 0 {
		return nil, errors.New("webhook secret is not configured: refusing to accept unsigned webhooks")
	}
	if cfg.Queue == nil {
		return nil, errors.New("app config: no queue")
	}
	if cfg.GitHubAPIURL == "" {
		cfg.GitHubAPIURL = DefaultGitHubAPIURL
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore(cfg.Now)
	}
	if cfg.Transport == nil {
		cfg.Transport = cleanhttp.DefaultPooledTransport()
	}
	if cfg.DeliveryTTL <= 0 {
		cfg.DeliveryTTL = 72 * time.Hour
	}
	if cfg.StateTTL <= 0 {
		cfg.StateTTL = 90 * 24 * time.Hour
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = 10 * time.Minute
	}
	cfg.Limits = cfg.Limits.withDefaults()
	cfg.Commands = cfg.Commands.withDefaults()
	a := &App{cfg: cfg, log: cfg.Logger, store: cfg.Store, queue: cfg.Queue, now: cfg.Now, handlers: eventHandlers()}
	a.github = cfg.GitHubFor
	if a.github == nil {
		if cfg.Secrets.AppID <= 0 {
			return nil, errors.New("github app id is not configured")
		}
		if len(cfg.Secrets.PrivateKeyPEM) == 0 {
			return nil, errors.New("github app private key is not configured")
		}
		in, err := newInstallations(cfg.Secrets, cfg.GitHubAPIURL, retryTransport(cfg.Transport, cfg.Retry))
		if err != nil {
			return nil, err
		}
		a.github = in.client
	}
	return a, nil
}

// Handler serves POST /webhook and GET /healthz.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhook", a.serveWebhook)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	return mux
}

// Process does one job: the worker step. An error means the job may be
// retried; what the PR author needs to know is reported on the check run.
func (a *App) Process(ctx context.Context, job Job) error {
	h, ok := a.handlers[job.Event]
	if !ok || h.process == nil {
		return fmt.Errorf("process %s: no worker for event %q", job.DeliveryID, job.Event)
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.JobTimeout)
	defer cancel()
	ctx = withLogger(ctx, a.log.With(jobAttrs(job)...))
	gh, err := a.github(job.InstallationID)
	if err != nil {
		return fmt.Errorf("process %s %s: github client: %w", job.Event, job.DeliveryID, err)
	}
	if err := h.process(a, ctx, gh, job); err != nil {
		return fmt.Errorf("process %s %s: %w", job.Event, job.DeliveryID, err)
	}
	return nil
}

// keyedMutex serializes work on one PR inside this process, on top of the
// queue's grouping (a workflow run without pull_requests is grouped by SHA
// until the worker finds its PR).
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

func (k *keyedMutex) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyLock{}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
