package sqlite

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

// MaxBackoff is the longest wait between two attempts of a job.
const MaxBackoff = 10 * time.Minute

// WorkerOptions configure Run. Zero values mean the defaults.
type WorkerOptions struct {
	Workers int // jobs run at once by this process; default 4
	// Lease is how long a job stays leased without a renewal (default 1
	// minute; renewed every Lease/3 while the job runs). A process that
	// dies holds its jobs at most this long; then another process, or
	// this one restarted, runs them again.
	Lease time.Duration
	// Poll is how often an idle worker looks for jobs queued by another
	// process or out of their backoff (default 1s; jobs this process
	// queues wake it at once).
	Poll time.Duration
	// MaxAttempts is how often a job runs before it is kept as dead
	// (default 5).
	MaxAttempts int
	// Backoff is the wait before attempt n+1 after attempt n failed
	// (default 15s, doubling, at most 10 minutes).
	Backoff func(attempt int) time.Duration
	// Drain is how long running jobs may finish after ctx ends (default
	// 5 minutes); a job still running then is cut short and queued again
	// as it was.
	Drain  time.Duration
	Logger *slog.Logger
	// Dead, when set, is told about a job that exhausted its attempts
	// (App.GiveUp completes its check, saying to press Re-run).
	Dead func(ctx context.Context, j job.Job, cause error)
	// Owner names this process in leases (default host-pid-random).
	Owner string
}

func (o WorkerOptions) withDefaults() WorkerOptions {
	if o.Workers <= 0 {
		o.Workers = 4
	}
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = port.DefaultMaxAttempts
	}
	if o.Backoff == nil {
		o.Backoff = port.Exponential(port.DefaultRetryBase, MaxBackoff)
	}
	if o.Drain <= 0 {
		o.Drain = 5 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Owner == "" {
		host, _ := os.Hostname()
		var b [4]byte
		rand.Read(b[:])
		o.Owner = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
	}
	return o
}

// ownerLockPath is the lock file of a lease owner, in the data directory.
func (d *DB) ownerLockPath(owner string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return r
		}
		return '_'
	}, owner)
	return filepath.Join(filepath.Dir(d.path), "owners", safe+".lock")
}

// Run runs queued jobs with process until ctx ends, then lets running jobs
// finish (within Drain) and returns. A job that fails is retried after
// backoff; one that fails MaxAttempts times is kept as dead with its error
// (`planwarden jobs`, `planwarden jobs retry ID`).
func (d *DB) Run(ctx context.Context, opt WorkerOptions, process func(context.Context, job.Job) error) error {
	opt = opt.withDefaults()
	// The owner lock says this process is alive: Recover in another
	// process leaves its leases alone while it is held.
	if err := os.MkdirAll(filepath.Dir(d.ownerLockPath(opt.Owner)), 0o700); err != nil {
		return fmt.Errorf("run workers: %w", err)
	}
	release, err := holdOwnerLock(d.ownerLockPath(opt.Owner))
	if err != nil {
		return fmt.Errorf("run workers: lock %s: %w", d.ownerLockPath(opt.Owner), err)
	}
	defer release()
	// Jobs get their own context: ctx ending stops the leasing, and the
	// running jobs get Drain more.
	jobCtx, cancelJobs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelJobs()
	stopDrain := context.AfterFunc(ctx, func() { time.AfterFunc(opt.Drain, cancelJobs) })
	defer stopDrain()

	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.work(ctx, jobCtx, opt, process)
		}()
	}
	wg.Wait()
	return nil
}

func (d *DB) work(ctx, jobCtx context.Context, opt WorkerOptions, process func(context.Context, job.Job) error) {
	poll := time.NewTimer(0)
	defer poll.Stop()
	for {
		if ctx.Err() != nil {
			return
		}
		l, ok, dead, err := d.lease(ctx, opt.Owner, opt.Lease, opt.MaxAttempts)
		if err != nil && ctx.Err() == nil {
			opt.Logger.Error("lease a job", "err", err)
		}
		if dead {
			cause := fmt.Errorf("the worker running it stopped during each of its %d attempts", l.Attempt)
			opt.Logger.Error("job kept as dead", "job", l.ID, "delivery", l.Job.DeliveryID, "event", l.Job.Event, "err", cause)
			if opt.Dead != nil {
				opt.Dead(context.WithoutCancel(ctx), l.Job, cause)
			}
			continue
		}
		if ok {
			d.runOne(jobCtx, opt, l, process)
			continue
		}
		poll.Reset(opt.Poll)
		select {
		case <-ctx.Done():
			return
		case <-d.wake:
			d.poke() // wake the next idle worker too: there may be more
		case <-poll.C:
		}
	}
}

func (d *DB) runOne(ctx context.Context, opt WorkerOptions, l Lease, process func(context.Context, job.Job) error) {
	log := opt.Logger.With("job", l.ID, "delivery", l.Job.DeliveryID, "event", l.Job.Event, "group", l.Job.GroupKey(), "attempt", l.Attempt)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(opt.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
				if err := d.renew(context.WithoutCancel(runCtx), l, opt.Lease); err != nil {
					log.Error("lease not renewed: stopping the job", "err", err)
					cancel(errLeaseLost)
					return
				}
			}
		}
	}()
	err := runJob(runCtx, process, l.Job)
	cancel(nil)
	<-renewed
	bg := context.WithoutCancel(ctx)
	switch {
	case errors.Is(context.Cause(runCtx), errLeaseLost):
		log.Warn("job given up: another worker holds it now")
	case err == nil:
		if derr := d.done(bg, l); derr != nil {
			log.Error("job done, but not marked done", "err", derr)
			break
		}
		log.Info("job done")
	case ctx.Err() != nil:
		if rerr := d.release(bg, l); rerr != nil {
			log.Error("job cut short and not released", "err", rerr)
			break
		}
		log.Warn("job cut short by shutdown; queued again", "err", err)
	case l.Attempt >= opt.MaxAttempts:
		log.Error("job failed for the last time; kept as dead", "err", err, "max_attempts", opt.MaxAttempts)
		if berr := d.bury(bg, l, err); berr != nil {
			log.Error("dead job not recorded", "err", berr)
			break
		}
		if opt.Dead != nil {
			opt.Dead(bg, l.Job, err)
		}
	default:
		after := opt.Backoff(l.Attempt)
		log.Error("job failed; retrying later", "err", err, "retry_in", after.String())
		if rerr := d.retryLater(bg, l, err, after); rerr != nil {
			log.Error("failed job not requeued", "err", rerr)
		}
	}
	d.poke() // the group's next job may run now
}

// runJob turns a panic into the job's failure.
func runJob(ctx context.Context, process func(context.Context, job.Job) error, j job.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return process(ctx, j)
}
