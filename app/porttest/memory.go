package porttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
)

// ErrQueueClosed is returned by Enqueue once the queue is shutting down,
// and ErrQueueFull when MaxPending jobs wait already.
var (
	ErrQueueClosed = errors.New("queue closed")
	ErrQueueFull   = errors.New("queue full")
)

// MemoryQueue is a queue in process memory for tests of the worker (serve
// queues in app/sqlite, Lambda in SQS): a bounded pool of workers that runs jobs of one group (job.Job.GroupKey, one PR) one
// after another, in arrival order, and jobs of different groups in
// parallel. Close drains it: every accepted job runs.
type MemoryQueue struct {
	workers    int
	maxPending int
	attempts   int
	dead       func(context.Context, job.Job, error) error
	log        *slog.Logger

	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string][]job.Job // by group
	ready   []string             // groups with pending jobs and no running job
	running map[string]bool
	queued  int
	busy    int
	closed  bool
	started bool
	process func(context.Context, job.Job) error
	ctx     context.Context
	cancel  context.CancelFunc
	done    sync.WaitGroup
}

// MemoryQueueOptions size a MemoryQueue. Zero values mean the defaults.
type MemoryQueueOptions struct {
	Workers    int // default 4
	MaxPending int // default 1000
	Logger     *slog.Logger
	// MaxAttempts is how often a failing job runs, at once one after
	// another (default 1: not again); Dead, when set, is told about a job
	// that failed on its last attempt (the worker's GiveUp), as the serve and SQS
	// queues do.
	MaxAttempts int
	Dead        func(ctx context.Context, j job.Job, cause error) error
}

// NewMemoryQueue returns a queue that holds jobs until Start gives it the
// function that does them.
func NewMemoryQueue(opt MemoryQueueOptions) *MemoryQueue {
	if opt.Workers <= 0 {
		opt.Workers = 4
	}
	if opt.MaxPending <= 0 {
		opt.MaxPending = 1000
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	q := &MemoryQueue{workers: opt.Workers, maxPending: opt.MaxPending, attempts: max(opt.MaxAttempts, 1), dead: opt.Dead, log: slog.New(worklog.Redacting(opt.Logger.Handler())),
		pending: map[string][]job.Job{}, running: map[string]bool{}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Enqueue accepts a job; it never blocks on the work itself.
func (q *MemoryQueue) Enqueue(_ context.Context, job job.Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrQueueClosed
	}
	if q.queued >= q.maxPending {
		return fmt.Errorf("enqueue %s: %w (%d waiting)", job.DeliveryID, ErrQueueFull, q.queued)
	}
	key := job.GroupKey()
	if len(q.pending[key]) == 0 && !q.running[key] {
		q.ready = append(q.ready, key)
	}
	q.pending[key] = append(q.pending[key], job)
	q.queued++
	q.cond.Signal()
	return nil
}

// Start runs the workers; process does one job (the worker's Process). A job's
// error is logged with the job's references; the job is not retried.
func (q *MemoryQueue) Start(process func(context.Context, job.Job) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started {
		return
	}
	q.started = true
	q.process = process
	q.ctx, q.cancel = context.WithCancel(context.Background())
	for range q.workers {
		q.done.Add(1)
		go q.work()
	}
}

func (q *MemoryQueue) work() {
	defer q.done.Done()
	for {
		q.mu.Lock()
		for len(q.ready) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.ready) == 0 { // closed and drained
			q.mu.Unlock()
			return
		}
		key := q.ready[0]
		q.ready = q.ready[1:]
		job := q.pending[key][0]
		q.pending[key] = q.pending[key][1:]
		q.running[key] = true
		q.queued--
		q.busy++
		q.mu.Unlock()

		q.run(job)

		q.mu.Lock()
		q.busy--
		delete(q.running, key)
		if len(q.pending[key]) > 0 {
			q.ready = append(q.ready, key)
		} else {
			delete(q.pending, key)
		}
		q.cond.Broadcast()
		q.mu.Unlock()
	}
}

func (q *MemoryQueue) run(job job.Job) {
	defer func() {
		if p := recover(); p != nil {
			q.log.Error("job panicked", "delivery", job.DeliveryID, "event", job.Event, "group", job.GroupKey(), "panic", fmt.Sprint(p))
		}
	}()
	var err error
	for attempt := 1; attempt <= q.attempts; attempt++ {
		if err = q.process(q.ctx, job); err == nil {
			return
		}
		q.log.Error("job failed", "delivery", job.DeliveryID, "event", job.Event, "group", job.GroupKey(), "attempt", attempt, "err", err)
	}
	if q.dead != nil {
		if derr := q.dead(q.ctx, job, err); derr != nil {
			q.log.Error("dead job: check not completed", "delivery", job.DeliveryID, "err", derr)
		}
	}
}

// Wait blocks until no job is waiting or running, or ctx ends.
func (q *MemoryQueue) Wait(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.cond.Broadcast()
		q.mu.Unlock()
	})
	defer stop()
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queued+q.busy > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		q.cond.Wait()
	}
	return nil
}

// Close stops accepting jobs and waits until every accepted job has run.
// When ctx ends first, running jobs are cancelled and Close reports how
// many jobs were not done.
func (q *MemoryQueue) Close(ctx context.Context) error {
	q.mu.Lock()
	q.closed = true
	started := q.started
	q.cond.Broadcast()
	q.mu.Unlock()
	if !started {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.queued > 0 {
			return fmt.Errorf("close queue: %d jobs never started", q.queued)
		}
		return nil
	}
	finished := make(chan struct{})
	go func() { q.done.Wait(); close(finished) }()
	select {
	case <-finished:
		q.cancel()
		return nil
	case <-ctx.Done():
		q.cancel()
		<-finished
		q.mu.Lock()
		defer q.mu.Unlock()
		return fmt.Errorf("close queue: %w; %d jobs were cut short or not run", ctx.Err(), q.queued)
	}
}

// MemoryStore is a port.Store in process memory, with expiry, for tests
// (`planwarden serve` keeps its state in app/sqlite, Lambda in DynamoDB).
// It hands out copies, as a store that serializes does. It is safe for
// concurrent use.
type MemoryStore struct {
	now        func() time.Time
	mu         sync.Mutex
	deliveries map[string]time.Time // id -> expiry
	prs        map[string]memPR
	writes     int
}

type memPR struct {
	st      port.PRState
	expires time.Time
}

// NewMemoryStore returns an empty store; now is its clock (nil: time.Now).
func NewMemoryStore(now func() time.Time) *MemoryStore {
	if now == nil {
		now = time.Now
	}
	return &MemoryStore{now: now, deliveries: map[string]time.Time{}, prs: map[string]memPR{}}
}

// MarkDelivery records id and reports whether it was new.
func (s *MemoryStore) MarkDelivery(_ context.Context, id string, ttl time.Duration) (bool, error) {
	if id == "" {
		return false, errors.New("mark delivery: empty delivery id")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.sweep(now)
	if exp, ok := s.deliveries[id]; ok && now.Before(exp) {
		return false, nil
	}
	s.deliveries[id] = now.Add(ttl)
	return true, nil
}

// ForgetDelivery drops a delivery id (see DeliveryForgetter).
func (s *MemoryStore) ForgetDelivery(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.deliveries, id)
	return nil
}

// PR returns the state stored under key.
func (s *MemoryStore) PR(_ context.Context, key string) (port.PRState, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prs[key]
	if !ok || !s.now().Before(p.expires) {
		return port.PRState{}, false, nil
	}
	st, err := stateCopy(p.st)
	return st, err == nil, err
}

// PutPR stores st under key for ttl if the stored version is st.Version.
func (s *MemoryStore) PutPR(_ context.Context, key string, st port.PRState, ttl time.Duration) error {
	if key == "" {
		return errors.New("put pr: empty key")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.sweep(now)
	var stored int64
	if p, ok := s.prs[key]; ok && now.Before(p.expires) {
		stored = p.st.Version
	}
	if stored != st.Version {
		return fmt.Errorf("put pr %s at version %d (stored: %d): %w", key, st.Version, stored, port.ErrConflict)
	}
	st.Version++
	kept, err := stateCopy(st)
	if err != nil {
		return fmt.Errorf("put pr %s: %w", key, err)
	}
	s.prs[key] = memPR{st: kept, expires: now.Add(ttl)}
	return nil
}

// stateCopy is st as a store that serializes it gives it back: nothing of
// it is shared with the caller's copy.
func stateCopy(st port.PRState) (port.PRState, error) {
	data, err := json.Marshal(st)
	if err != nil {
		return port.PRState{}, err
	}
	var out port.PRState
	err = json.Unmarshal(data, &out)
	return out, err
}

// sweep drops expired entries every 1024 writes, so memory stays bounded
// by what is live.
func (s *MemoryStore) sweep(now time.Time) {
	s.writes++
	if s.writes%1024 != 0 {
		return
	}
	for id, exp := range s.deliveries {
		if !now.Before(exp) {
			delete(s.deliveries, id)
		}
	}
	for k, p := range s.prs {
		if !now.Before(p.expires) {
			delete(s.prs, k)
		}
	}
}
