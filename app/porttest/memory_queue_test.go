package porttest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/porttest"
)

func newJob(owner string, pr int, id string) job.Job {
	return job.Job{DeliveryID: id, Event: "test", Owner: owner, Repo: "r", PR: pr}
}

func TestMemoryQueueSerializesOnePRAndParallelizesPRs(t *testing.T) {
	t.Parallel()
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 3})
	var (
		mu      sync.Mutex
		order   []string
		running = map[string]int{}
		overlap bool
	)
	release := make(chan struct{})
	otherStarted := make(chan struct{})
	q.Start(func(_ context.Context, j job.Job) error {
		key := j.GroupKey()
		mu.Lock()
		running[key]++
		if running[key] > 1 {
			overlap = true
		}
		order = append(order, j.DeliveryID)
		mu.Unlock()
		switch j.DeliveryID {
		case "a1":
			<-release // holds PR 1 until PR 2's job has run
		case "b1":
			close(otherStarted)
		}
		mu.Lock()
		running[key]--
		mu.Unlock()
		return nil
	})
	ctx := context.Background()
	for _, j := range []job.Job{newJob("o", 1, "a1"), newJob("o", 1, "a2"), newJob("o", 1, "a3"), newJob("o", 2, "b1")} {
		if err := q.Enqueue(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	<-otherStarted // PR 2 ran while PR 1's first job was still running
	close(release)
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if overlap {
		t.Errorf("two jobs of one PR ran at once")
	}
	var pr1 []string
	for _, id := range order {
		if id[0] == 'a' {
			pr1 = append(pr1, id)
		}
	}
	if fmt.Sprint(pr1) != "[a1 a2 a3]" {
		t.Errorf("PR 1 jobs ran as %v, want [a1 a2 a3]", pr1)
	}
}

func TestMemoryQueueDrainsOnClose(t *testing.T) {
	t.Parallel()
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 2})
	var (
		mu   sync.Mutex
		done int
	)
	ctx := context.Background()
	for i := range 50 {
		if err := q.Enqueue(ctx, newJob("o", i%5, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	q.Start(func(context.Context, job.Job) error {
		mu.Lock()
		done++
		mu.Unlock()
		return errors.New("failures are logged, not lost work")
	})
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if done != 50 {
		t.Errorf("%d of 50 jobs ran before Close returned", done)
	}
	if err := q.Enqueue(ctx, newJob("o", 1, "late")); !errors.Is(err, porttest.ErrQueueClosed) {
		t.Errorf("Enqueue after Close: %v, want ErrQueueClosed", err)
	}
}

func TestMemoryQueueIsBounded(t *testing.T) {
	t.Parallel()
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{MaxPending: 2})
	ctx := context.Background()
	for i := range 2 {
		if err := q.Enqueue(ctx, newJob("o", i, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Enqueue(ctx, newJob("o", 9, "x")); !errors.Is(err, porttest.ErrQueueFull) {
		t.Errorf("third Enqueue: %v, want ErrQueueFull", err)
	}
	q.Start(func(context.Context, job.Job) error { return nil })
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryQueueCloseGivesUpAtTheDeadline(t *testing.T) {
	t.Parallel()
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 1})
	started := make(chan struct{})
	q.Start(func(ctx context.Context, _ job.Job) error {
		close(started)
		<-ctx.Done() // a job that only ends when cancelled
		return ctx.Err()
	})
	q.Enqueue(context.Background(), newJob("o", 1, "stuck"))
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if err := q.Close(ctx); err == nil {
		t.Errorf("Close returned nil with a job cut short")
	}
}

// A GitHub token shape (generated, not real).
const logToken = "ghp_Zk29vLmQ0pW8rT5yN3xC6bA7sD1fG4hJ2kL9"

func TestMemoryQueueLogsNoSecret(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	q := porttest.NewMemoryQueue(porttest.MemoryQueueOptions{Workers: 1, Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	q.Start(func(context.Context, job.Job) error {
		return errors.New("plan.json: resource_changes[0]: token " + logToken)
	})
	if err := q.Enqueue(context.Background(), newJob("o", 1, "d1")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "job failed") || strings.Contains(out, logToken) {
		t.Errorf("log: %s", out)
	}
}
