package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/planwarden/planwarden/app/command"
	"github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/app/worklog"
)

// DefaultGitHubAPIURL is github.com's REST API.
const DefaultGitHubAPIURL = "https://api.github.com/"

// Config configures an App, the worker. Secrets.AppID and
// Secrets.PrivateKeyPEM are required unless GitHubFor is set, and so is
// Store; the rest has defaults.
type Config struct {
	Secrets port.Secrets
	// GitHubAPIURL is the REST API base: https://api.github.com/ (default)
	// or https://HOST/api/v3/ for GitHub Enterprise Server.
	GitHubAPIURL string
	Store        port.Store   // SQLite (serve), DynamoDB (Lambda)
	Logger       *slog.Logger // default: JSON to nowhere
	// Transport carries every outgoing request under the retry policy and
	// App auth (default: a pooled transport with timeouts). Tests point it
	// at loopback.
	Transport http.RoundTripper
	Retry     github.RetryPolicy
	Limits    run.Limits
	// Now is the clock (default time.Now).
	Now func() time.Time
	// GitHubFor replaces the go-github adapter (unit tests); with it set,
	// AppID and PrivateKeyPEM are not needed.
	GitHubFor func(installationID int64) (port.GitHub, error)
	// Installations lists the App's installations, for Reconcile
	// (default: GitHub's, with the App's key; none with GitHubFor set).
	Installations func(ctx context.Context) ([]int64, error)
	// StateTTL is how long a PR's state is kept (default 90 days).
	StateTTL time.Duration
	// JobTimeout bounds one Process call (default 10 minutes).
	JobTimeout time.Duration
	// MemoryBudget is the memory the worker's reviews may take together
	// (default DefaultMemoryBudget): a job is admitted while its plans'
	// estimate fits beside the others', and a run whose plans alone
	// exceed it fails its check with a message saying so.
	MemoryBudget int64
	// ObserveReview, when set, learns how long each review took and the
	// size of each plan in it (serve's /metrics).
	ObserveReview func(took time.Duration, planBytes ...int64)
}

// DefaultMemoryBudget is the worker's memory budget when Config sets none.
const DefaultMemoryBudget = 1 << 30

// App is planwarden's worker: it runs the jobs the receiver queued.
type App struct {
	cfg      Config
	log      *slog.Logger
	store    port.Store
	state    *publish.State
	run      *run.Runner
	commands *command.Commands
	github   func(int64) (port.GitHub, error)
	// installations lists the App's installations (Reconcile).
	installations func(ctx context.Context) ([]int64, error)
	now           func() time.Time
}

// New checks cfg and returns the App.
func New(cfg Config) (*App, error) {
	if cfg.GitHubAPIURL == "" {
		cfg.GitHubAPIURL = DefaultGitHubAPIURL
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Transport == nil {
		cfg.Transport = cleanhttp.DefaultPooledTransport()
	}
	if cfg.StateTTL <= 0 {
		cfg.StateTTL = 90 * 24 * time.Hour
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = 10 * time.Minute
	}
	cfg.Logger = slog.New(worklog.Redacting(cfg.Logger.Handler()))
	if cfg.MemoryBudget <= 0 {
		cfg.MemoryBudget = DefaultMemoryBudget
	}
	state := publish.NewState(cfg.Store, cfg.StateTTL, cfg.Now)
	a := &App{cfg: cfg, log: cfg.Logger, store: cfg.Store, state: state, now: cfg.Now}
	// The worker wires its rooms: a review tells the commands it happened
	// (their finished replies are hidden), a command asks for a review.
	a.commands = command.New(command.Config{State: state, ReviewAgain: func(ctx context.Context, gh port.GitHub, repo port.Repo, pr int, runID int64) error {
		return a.run.Again(ctx, gh, repo, pr, runID)
	}})
	a.run = run.New(run.Config{State: state, Limits: cfg.Limits, MemoryBudget: cfg.MemoryBudget, Observe: cfg.ObserveReview,
		DigestSecret: cfg.Secrets.WebhookSecret,
		Reviewed: func(ctx context.Context, gh run.GitHub, repo port.Repo, pr int) {
			a.commands.AfterReview(ctx, gh, repo, pr)
		}})
	a.github, a.installations = cfg.GitHubFor, cfg.Installations
	if a.github == nil {
		if cfg.Secrets.AppID <= 0 {
			return nil, errors.New("github app id is not configured")
		}
		if len(cfg.Secrets.PrivateKeyPEM) == 0 {
			return nil, errors.New("github app private key is not configured")
		}
		clients, err := github.Clients(cfg.Secrets, cfg.GitHubAPIURL, cfg.Transport, cfg.Retry)
		if err != nil {
			return nil, err
		}
		a.github = clients
		if a.installations == nil {
			if a.installations, err = github.Installations(cfg.Secrets, cfg.GitHubAPIURL, cfg.Transport, cfg.Retry); err != nil {
				return nil, err
			}
		}
	}
	if cfg.Store == nil {
		return nil, errors.New("the worker has no store for the pull requests' state")
	}
	return a, nil
}

// Process does one job: the worker step. An error means the job is to be
// tried again (app/publish: the error model); what ends a job for good is
// said on the check run it concerns, and Process returns nil.
func (a *App) Process(ctx context.Context, j job.Job) error {
	if err := j.Check(); err != nil {
		return fmt.Errorf("process: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.JobTimeout)
	defer cancel()
	ctx = worklog.With(ctx, a.log.With(j.LogAttrs()...))
	gh, err := a.github(j.InstallationID)
	if err != nil {
		return fmt.Errorf("process %s %s: github client: %w", j.Event, j.DeliveryID, err)
	}
	switch {
	case j.PullRequest != nil:
		err = a.processPullRequest(ctx, gh, j)
	case j.WorkflowRun != nil:
		err = a.processWorkflowRun(ctx, gh, j)
	case j.CheckRun != nil:
		err = a.processCheckRun(ctx, gh, j)
	case j.CheckSuite != nil:
		err = a.processCheckSuite(ctx, gh, j)
	case j.MergeGroup != nil:
		err = a.processMergeGroup(ctx, gh, j)
	case j.IssueComment != nil:
		err = a.processIssueComment(ctx, gh, j)
	}
	return a.settle(ctx, gh, j, err)
}

// writer writes what a job says on repo.
func (a *App) writer(gh port.Publisher, repo port.Repo) publish.Writer {
	return publish.Writer{GitHub: gh, Repo: repo, Now: a.now}
}
