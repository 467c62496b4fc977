package publish

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/record"
)

// MaxAttempts bounds how often a job re-reads and re-applies its change
// when other jobs keep writing the PR's state in between.
const MaxAttempts = 5

// maxThreads is how many command threads one PR remembers.
const maxThreads = 20

// State is the pull requests' stored state as the worker's jobs share it:
// the store, how long a state is kept, the clock, and a lock per PR inside
// this process (on top of the queue's grouping: a workflow run without
// pull_requests is grouped by SHA until the worker finds its PR).
type State struct {
	store port.Store
	ttl   time.Duration
	now   func() time.Time
	locks keyedMutex
}

// NewState returns the state kept in store for ttl, on the clock now.
func NewState(store port.Store, ttl time.Duration, now func() time.Time) *State {
	return &State{store: store, ttl: ttl, now: now}
}

// Now is the worker's clock.
func (s *State) Now() time.Time { return s.now() }

// KeyOf is the state's key of pull request pr (job.Job.GroupKey).
func KeyOf(repo port.Repo, pr int) string {
	return job.Job{Owner: repo.Owner, Repo: repo.Name, PR: pr}.GroupKey()
}

// Lock serializes this process's work on the PR of key until unlock.
func (s *State) Lock(key string) (unlock func()) { return s.locks.lock(key) }

// PR returns the state of the PR of key, and whether there was one.
func (s *State) PR(ctx context.Context, key string) (port.PRState, bool, error) {
	return s.store.PR(ctx, key)
}

// Put writes st over the version it was read at (port.ErrConflict when
// another job wrote in between).
func (s *State) Put(ctx context.Context, key string, st port.PRState) error {
	return s.store.PutPR(ctx, key, st, s.ttl)
}

// Update reads the PR's state, lets change edit it, and writes it back
// over the version it read. When another job wrote in between (a second
// `serve` process, or a Lambda job of another message group), it reads
// again and re-applies change, so neither write is lost. change returns
// false to write nothing.
func (s *State) Update(ctx context.Context, key string, change func(st *port.PRState) (bool, error)) (port.PRState, error) {
	for attempt := 1; ; attempt++ {
		st, _, err := s.store.PR(ctx, key)
		if err != nil {
			return st, err
		}
		write, err := change(&st)
		if err != nil || !write {
			return st, err
		}
		err = s.store.PutPR(ctx, key, st, s.ttl)
		if err == nil {
			st.Version++
			return st, nil
		}
		if !errors.Is(err, port.ErrConflict) || attempt == MaxAttempts {
			return st, fmt.Errorf("update pr state %s: %w", key, err)
		}
		worklog.From(ctx).Info("pr state changed by another job; reading it again", "attempt", attempt)
	}
}

// Edit applies f to the PR's state and stores it, stamped with the time,
// when f says so. f only edits st: it runs again on a fresh read when
// another job wrote the state in between.
func (s *State) Edit(ctx context.Context, key string, f func(st *port.PRState) bool) (port.PRState, error) {
	return s.Update(ctx, key, func(st *port.PRState) (bool, error) {
		if !f(st) {
			return false, nil
		}
		st.UpdatedAt = s.now()
		return true, nil
	})
}

// FindThread is the thread of st with id, nil when there is none.
func FindThread(st *port.PRState, id string) *record.Thread {
	for i := range st.Threads {
		if st.Threads[i].ID == id {
			return &st.Threads[i]
		}
	}
	return nil
}

// AddThread records a thread, forgetting the oldest beyond maxThreads.
func AddThread(st *port.PRState, t record.Thread) {
	st.Threads = append(st.Threads, t)
	if len(st.Threads) > maxThreads {
		st.Threads = st.Threads[len(st.Threads)-maxThreads:]
	}
}

// keyedMutex is a mutex per key.
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
