package main

import (
	"context"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/metrics"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/receiver"
	"github.com/planwarden/planwarden/app/sqlite"
)

func init() {
	commands["serve"] = command{summary: "run the GitHub App: webhooks on POST /webhook, GET /healthz (configured by PLANWARDEN_* variables)", run: runServe}
}

const serveUsage = `usage: planwarden serve

Runs the GitHub App with an in-process queue and workers. The App's id,
private key and webhook secret come from the data directory, where
planwarden setup stores them (github-app.json, github-app.pem,
webhook-secret); each variable below, when set, wins over its file.
Configuration comes from the environment:

  PLANWARDEN_APP_ID            the GitHub App's id (required without setup's files)
  PLANWARDEN_PRIVATE_KEY       the App's private key, PEM (or:)
  PLANWARDEN_PRIVATE_KEY_FILE  a file holding it
  PLANWARDEN_WEBHOOK_SECRET    the webhook secret (required without setup's
                               files: unsigned webhooks are refused)
  PLANWARDEN_GITHUB_API_URL    REST API base (default https://api.github.com/;
                               GitHub Enterprise Server: https://HOST/api/v3/)
  PLANWARDEN_ADDR              listen address (default :8080)
  PLANWARDEN_DATA_DIR          where the job queue, PR state, overrides and
                               delivery ids are kept (default ./planwarden-data;
                               SQLite). Several serve processes may share one.
  PLANWARDEN_MAX_ATTEMPTS      runs of a failing job before it is kept as dead (default 5)
  PLANWARDEN_RETRY_BASE_SECONDS  backoff after a job's first failure, doubling
                               up to 10 minutes (default 15)
  PLANWARDEN_MEMORY_BUDGET_MB  memory the reviews running at once may take
                               (default 1024); a plan that alone needs more
                               fails its check, saying so. Unless GOMEMLIMIT
                               is set, the Go runtime's soft memory limit is
                               this plus 16 MB
  PLANWARDEN_LOG_LEVEL         debug, info (default), warn or error

Routes: POST /webhook, GET /healthz (the process is up), GET /readyz (the
data directory and GitHub answer), GET /metrics (Prometheus).

SIGINT or SIGTERM stops accepting webhooks and lets running jobs finish;
queued jobs stay in the data directory and run at the next start. A job
that fails is retried with backoff; after 5 attempts it is kept as dead
(planwarden jobs lists them, planwarden jobs retry ID queues one again).
`

// runtimeOverhead is serve's heap besides the reviews: the runtime, the
// HTTP server's connections, SQLite's cache, the GitHub clients (a few MiB
// at rest), and room for the garbage of a full budget. The process's
// resident memory passes the soft limit by about 40 MiB more (the binary,
// memory the runtime has not yet returned): on a 256 MiB budget, 16 MiB
// keeps the largest plan of small changes it admits within the budget
// + 25 % (about 295 MiB measured).
const runtimeOverhead = 16 << 20

// memoryLimit is the soft memory limit serve gives the Go runtime: the
// reviews' budget (PLANWARDEN_MEMORY_BUDGET_MB) plus runtimeOverhead, so
// that serve's peak resident memory stays within the budget + 25 %
// (docs/github-app.md, "Memory on hostile inputs"). The webhook bodies the
// receiver may hold at once (receiver.DefaultMaxBodies of at most
// receiver.MaxWebhookBytes) are not in it: while they are held beside a
// full budget the collector works harder, and the heap passes the limit
// by at most what they hold.
func memoryLimit(cfg serveConfig) int64 {
	return cfg.memoryBudget + runtimeOverhead
}

// maxHeaderBytes bounds a request's headers: GitHub's deliveries send
// about 2 KB of them.
const maxHeaderBytes = 64 << 10

// serveConfig is what the environment says.
type serveConfig struct {
	secrets port.Secrets
	apiURL  string
	addr    string
	dataDir string
	// maxAttempts and retryBase shape the worker's retries (0: defaults).
	maxAttempts int
	retryBase   time.Duration
	// memoryBudget bounds the memory of the reviews running at once.
	memoryBudget int64
	logLevel     slog.Level
}

// defaultDataDir is PLANWARDEN_DATA_DIR's default.
const defaultDataDir = "./planwarden-data"

// dataDirEnv is PLANWARDEN_DATA_DIR, or its default.
func dataDirEnv(getenv func(string) string) string {
	if d := getenv("PLANWARDEN_DATA_DIR"); d != "" {
		return d
	}
	return defaultDataDir
}

// serveEnv reads the env contract of docs/architecture.md. Errors name the
// variable, never its value.
func serveEnv(getenv func(string) string, readFile func(string) ([]byte, error)) (serveConfig, error) {
	var c serveConfig
	c.dataDir = dataDirEnv(getenv)
	// What planwarden setup stored in the data directory stands in for
	// each variable that is not set.
	stored, haveStored, err := readStoredApp(c.dataDir, readFile)
	if err != nil {
		return c, err
	}
	id := strings.TrimSpace(getenv("PLANWARDEN_APP_ID"))
	if id == "" && haveStored {
		id = strconv.FormatInt(stored.ID, 10)
	}
	if id == "" {
		return c, fmt.Errorf("PLANWARDEN_APP_ID is not set and %s has no %s: run planwarden setup, or give the GitHub App's id", c.dataDir, appInfoFile)
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return c, errors.New("PLANWARDEN_APP_ID is not a positive number")
	}
	c.secrets.AppID = n
	key, file := getenv("PLANWARDEN_PRIVATE_KEY"), getenv("PLANWARDEN_PRIVATE_KEY_FILE")
	if key == "" && file == "" && haveStored {
		file = filepath.Join(c.dataDir, appKeyFile)
	}
	switch {
	case key != "" && file != "":
		return c, errors.New("both PLANWARDEN_PRIVATE_KEY and PLANWARDEN_PRIVATE_KEY_FILE are set: set one")
	case key != "":
		c.secrets.PrivateKeyPEM = []byte(key)
	case file != "":
		data, err := readFile(file)
		if err != nil {
			return c, fmt.Errorf("PLANWARDEN_PRIVATE_KEY_FILE: cannot read %s: %v", file, errors.Unwrap(err))
		}
		c.secrets.PrivateKeyPEM = data
	default:
		return c, errors.New("PLANWARDEN_PRIVATE_KEY (PEM) or PLANWARDEN_PRIVATE_KEY_FILE is not set: give the GitHub App's private key")
	}
	if block, _ := pem.Decode(c.secrets.PrivateKeyPEM); block == nil || !strings.Contains(block.Type, "PRIVATE KEY") {
		from := "PLANWARDEN_PRIVATE_KEY"
		if file != "" {
			from = "PLANWARDEN_PRIVATE_KEY_FILE (" + file + ")"
		}
		return c, fmt.Errorf("%s does not hold a PEM private key: use the .pem file GitHub generated for the App (it starts with -----BEGIN RSA PRIVATE KEY-----)", from)
	}
	secret := getenv("PLANWARDEN_WEBHOOK_SECRET")
	if secret == "" && haveStored {
		p := filepath.Join(c.dataDir, appSecretFile)
		data, err := readFile(p)
		if err != nil {
			return c, fmt.Errorf("PLANWARDEN_WEBHOOK_SECRET is not set and %s cannot be read (%v): run planwarden setup --force again", p, errors.Unwrap(err))
		}
		secret = strings.TrimRight(string(data), "\r\n")
	}
	if secret == "" {
		return c, errors.New("PLANWARDEN_WEBHOOK_SECRET is not set: planwarden refuses to accept unsigned webhooks")
	}
	c.secrets.WebhookSecret = []byte(secret)
	c.apiURL = getenv("PLANWARDEN_GITHUB_API_URL")
	if c.apiURL == "" && haveStored {
		c.apiURL = stored.APIURL
	}
	if c.apiURL == "" {
		c.apiURL = app.DefaultGitHubAPIURL
	}
	c.addr = getenv("PLANWARDEN_ADDR")
	if c.addr == "" {
		c.addr = ":8080"
	}
	if v := getenv("PLANWARDEN_MAX_ATTEMPTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("PLANWARDEN_MAX_ATTEMPTS=%q: want a positive number of runs", v)
		}
		c.maxAttempts = n
	}
	c.memoryBudget = app.DefaultMemoryBudget
	if v := getenv("PLANWARDEN_MEMORY_BUDGET_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 64 {
			return c, fmt.Errorf("PLANWARDEN_MEMORY_BUDGET_MB=%q: want a number of megabytes, at least 64", v)
		}
		c.memoryBudget = n << 20
	}
	if v := getenv("PLANWARDEN_LOG_LEVEL"); v != "" {
		if err := c.logLevel.UnmarshalText([]byte(v)); err != nil {
			return c, fmt.Errorf("PLANWARDEN_LOG_LEVEL=%q: want debug, info, warn or error", v)
		}
	}
	c.retryBase = port.DefaultRetryBase
	if v := getenv("PLANWARDEN_RETRY_BASE_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("PLANWARDEN_RETRY_BASE_SECONDS=%q: want a number of seconds", v)
		}
		c.retryBase = time.Duration(n) * time.Second
	}
	return c, nil
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage) // asked for: standard output, exit 0
			return exitOK
		}
		fmt.Fprintf(stderr, "planwarden serve: %v\n%s", err, serveUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "planwarden serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := serveEnv(os.Getenv, os.ReadFile)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden serve: %v\n", err)
		return exitUsage
	}
	// The Go runtime collects before the heap passes what serve's budgets
	// allow, instead of letting it grow to twice what is live (GOGC); a
	// GOMEMLIMIT the operator set wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit(cfg))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, cfg, stderr, nil); err != nil {
		fmt.Fprintf(stderr, "planwarden serve: %v\n", err)
		return exitFail
	}
	return exitOK
}

// serve runs until ctx ends, then stops taking webhooks and lets running
// jobs finish. Its state is in cfg.dataDir. ready, when set, learns the
// listening address.
func serve(ctx context.Context, cfg serveConfig, logw io.Writer, ready func(addr string)) error {
	log := slog.New(slog.NewJSONHandler(logw, &slog.HandlerOptions{Level: cfg.logLevel}))
	db, err := sqlite.Open(cfg.dataDir)
	if err != nil {
		return fmt.Errorf("PLANWARDEN_DATA_DIR: %w", err)
	}
	defer db.Close()
	m := metrics.New(func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := db.Waiting(ctx)
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	})
	a, err := app.New(app.Config{Secrets: cfg.secrets, GitHubAPIURL: cfg.apiURL, Store: db, Logger: log, MemoryBudget: cfg.memoryBudget,
		Transport: m.Transport(cleanhttp.DefaultPooledTransport()), ObserveReview: m.Review})
	if err != nil {
		return err
	}
	rc, err := receiver.New(receiver.Config{WebhookSecret: cfg.secrets.WebhookSecret, Queue: db, Store: db, Logger: log, Observe: m.Delivery})
	if err != nil {
		return err
	}
	routes := http.NewServeMux()
	routes.Handle("/", rc)
	routes.Handle("GET /metrics", m.Handler())
	routes.Handle("GET /readyz", readiness(db, cfg.apiURL))
	// Recovery: jobs a killed or crashed process was running go back in
	// the queue (their check is completed when they run), and jobs left
	// queued run now.
	if n, err := db.Recover(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Info("recovered the jobs of a process that stopped", "jobs", n)
	}
	if err := db.Sweep(ctx); err != nil {
		log.Warn("sweep expired state", "err", err)
	}
	jobs, err := db.Jobs(ctx)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	// The receiver paces each webhook body with its own read deadline
	// (app/receiver); these bound the rest. A stranger's headers are small
	// and quick, or the connection is dropped: the default 1 MB of headers
	// per connection would let 100 slow connections hold 100 MB.
	srv := &http.Server{
		Handler:           routes,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      time.Minute,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	worked := make(chan error, 1)
	go func() {
		worked <- db.Run(workCtx, sqlite.WorkerOptions{Logger: log, MaxAttempts: cfg.maxAttempts,
			Backoff: port.Exponential(cfg.retryBase, sqlite.MaxBackoff), Dead: func(ctx context.Context, j job.Job, cause error) {
				m.Job(j.Event, "dead", 0)
				if err := a.GiveUp(ctx, j, cause); err != nil {
					log.Error("dead job: check not completed", "delivery", j.DeliveryID, "err", err)
				}
			}}, func(ctx context.Context, j job.Job) error {
			start := time.Now()
			err := a.Process(ctx, j)
			outcome := "done"
			if err != nil {
				outcome = "failed"
			}
			m.Job(j.Event, outcome, time.Since(start))
			return err
		})
	}()
	// The reconciler: at start and every app.ReconcileEvery, open pull
	// requests whose check was decided under another base, or is left in
	// progress, are decided again (a lost delivery costs minutes).
	reconciled := make(chan struct{})
	go func() {
		defer close(reconciled)
		tick := time.NewTicker(app.ReconcileEvery)
		defer tick.Stop()
		for {
			if err := a.Reconcile(workCtx); err != nil && workCtx.Err() == nil {
				log.Warn("reconcile", "err", err)
			}
			select {
			case <-workCtx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	defer func() { stopWork(); <-reconciled }()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "github_api", cfg.apiURL, "app_id", cfg.secrets.AppID,
		"data_dir", cfg.dataDir, "jobs_waiting", len(jobs))
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-served:
		stopWork()
		<-worked
		return fmt.Errorf("serve: %w", err)
	case err := <-worked:
		srv.Close()
		return fmt.Errorf("workers: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: no new webhooks; running jobs finish, queued jobs stay for the next start")
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	stopWork()
	if err := <-worked; err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// readiness answers /readyz: 200 when the data directory's database answers
// and GitHub's API answers at all (any HTTP status below 500), else 503
// with what is not ready. It sends no credentials.
func readiness(db *sqlite.DB, apiURL string) http.Handler {
	client := &http.Client{Timeout: 5 * time.Second, Transport: cleanhttp.DefaultTransport()}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		var problems []string
		if err := db.Ping(ctx); err != nil {
			problems = append(problems, "store: "+err.Error())
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, apiURL, nil)
		if err == nil {
			var resp *http.Response
			if resp, err = client.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode >= 500 {
					err = fmt.Errorf("answered %s", resp.Status)
				}
			}
		}
		if err != nil {
			problems = append(problems, "github: "+apiURL+": "+err.Error())
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if len(problems) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, strings.Join(problems, "\n"))
			return
		}
		fmt.Fprintln(w, "ready")
	})
}
