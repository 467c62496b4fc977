package main

import (
	"context"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/receiver"
)

func init() {
	commands["serve"] = command{summary: "run the GitHub App: webhooks on POST /webhook, GET /healthz (configured by PLANWARDEN_* variables)", run: runServe}
}

const serveUsage = `usage: planwarden serve

Runs the GitHub App with an in-process queue and workers. Configuration
comes from the environment:

  PLANWARDEN_APP_ID            the GitHub App's id (required)
  PLANWARDEN_PRIVATE_KEY       the App's private key, PEM (or:)
  PLANWARDEN_PRIVATE_KEY_FILE  a file holding it
  PLANWARDEN_WEBHOOK_SECRET    the webhook secret (required: unsigned webhooks are refused)
  PLANWARDEN_GITHUB_API_URL    REST API base (default https://api.github.com/;
                               GitHub Enterprise Server: https://HOST/api/v3/)
  PLANWARDEN_ADDR              listen address (default :8080)

SIGINT or SIGTERM stops accepting webhooks and drains the queue.
`

// serveConfig is what the environment says.
type serveConfig struct {
	secrets app.Secrets
	apiURL  string
	addr    string
}

// serveEnv reads the env contract of docs/architecture.md. Errors name the
// variable, never its value.
func serveEnv(getenv func(string) string, readFile func(string) ([]byte, error)) (serveConfig, error) {
	var c serveConfig
	id := strings.TrimSpace(getenv("PLANWARDEN_APP_ID"))
	if id == "" {
		return c, errors.New("PLANWARDEN_APP_ID is not set: give the GitHub App's id")
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return c, errors.New("PLANWARDEN_APP_ID is not a positive number")
	}
	c.secrets.AppID = n
	key, file := getenv("PLANWARDEN_PRIVATE_KEY"), getenv("PLANWARDEN_PRIVATE_KEY_FILE")
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
	if secret == "" {
		return c, errors.New("PLANWARDEN_WEBHOOK_SECRET is not set: planwarden refuses to accept unsigned webhooks")
	}
	c.secrets.WebhookSecret = []byte(secret)
	c.apiURL = getenv("PLANWARDEN_GITHUB_API_URL")
	if c.apiURL == "" {
		c.apiURL = app.DefaultGitHubAPIURL
	}
	c.addr = getenv("PLANWARDEN_ADDR")
	if c.addr == "" {
		c.addr = ":8080"
	}
	return c, nil
}

func runServe(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, cfg, stderr, nil); err != nil {
		fmt.Fprintf(stderr, "planwarden serve: %v\n", err)
		return exitFail
	}
	return exitOK
}

// serve runs until ctx ends, then stops taking webhooks and drains the
// queue. ready, when set, learns the listening address.
func serve(ctx context.Context, cfg serveConfig, logw io.Writer, ready func(addr string)) error {
	log := slog.New(slog.NewJSONHandler(logw, nil))
	q := app.NewMemoryQueue(app.MemoryQueueOptions{Logger: log})
	store := app.NewMemoryStore(nil)
	a, err := app.New(app.Config{Secrets: cfg.secrets, GitHubAPIURL: cfg.apiURL, Store: store, Logger: log})
	if err != nil {
		return err
	}
	rc, err := receiver.New(receiver.Config{WebhookSecret: cfg.secrets.WebhookSecret, Queue: q, Store: store, Logger: log})
	if err != nil {
		return err
	}
	q.Start(a.Process)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	srv := &http.Server{
		Handler:           rc,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "github_api", cfg.apiURL, "app_id", cfg.secrets.AppID)
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-served:
		q.Close(context.Background())
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: no new webhooks, draining the queue")
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	drain, cancelDrain := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelDrain()
	if err := q.Close(drain); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}
