package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/sqlite"
)

func newJob(pr int, delivery string) job.Job {
	return job.Job{DeliveryID: delivery, Event: "issue_comment", Owner: "octo", Repo: "infra", PR: pr, InstallationID: 7}
}

// runUntil runs d's workers until done reports true (checked after every
// job) or the test's deadline, then stops them and waits for Run.
func runUntil(t *testing.T, d *sqlite.DB, opt sqlite.WorkerOptions, process func(context.Context, job.Job) error, done func() bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan struct{})
	check := make(chan struct{}, 1)
	go func() {
		defer close(finished)
		d.Run(ctx, opt, func(ctx context.Context, j job.Job) error {
			defer func() {
				select {
				case check <- struct{}{}:
				default:
				}
			}()
			return process(ctx, j)
		})
	}()
	deadline := time.After(30 * time.Second)
	for !done() {
		select {
		case <-check:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			cancel()
			<-finished
			t.Fatal("the jobs did not finish within 30s")
		}
	}
	cancel()
	<-finished
}

func pending(t *testing.T, d *sqlite.DB) []sqlite.JobInfo {
	t.Helper()
	jobs, err := d.Jobs(context.Background())
	if err != nil {
		t.Fatalf("Jobs: %v", err)
	}
	return jobs
}

func TestJobsOfOnePRRunInOrderOneAtATime(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	const prs, each = 3, 6
	for i := range each {
		for pr := 1; pr <= prs; pr++ {
			if err := d.Enqueue(ctx, newJob(pr, fmt.Sprintf("pr%d-%d", pr, i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	var (
		mu      sync.Mutex
		order   = map[int][]string{}
		running = map[int]bool{}
		overlap []string
		total   int
	)
	runUntil(t, d, sqlite.WorkerOptions{Workers: 4, Poll: 10 * time.Millisecond}, func(_ context.Context, j job.Job) error {
		mu.Lock()
		if running[j.PR] {
			overlap = append(overlap, j.DeliveryID)
		}
		running[j.PR] = true
		mu.Unlock()
		time.Sleep(time.Millisecond) // give another worker the chance to overlap
		mu.Lock()
		defer mu.Unlock()
		running[j.PR] = false
		order[j.PR] = append(order[j.PR], j.DeliveryID)
		total++
		return nil
	}, func() bool { mu.Lock(); defer mu.Unlock(); return total == prs*each })

	if len(overlap) > 0 {
		t.Errorf("jobs ran while another job of their PR ran: %v", overlap)
	}
	for pr := 1; pr <= prs; pr++ {
		for i, id := range order[pr] {
			if want := fmt.Sprintf("pr%d-%d", pr, i); id != want {
				t.Errorf("PR %d: job %d was %s, want %s (queue order)", pr, i+1, id, want)
			}
		}
	}
	if left := pending(t, d); len(left) != 0 {
		t.Errorf("jobs left after all ran: %+v", left)
	}
}

func TestAFailingJobIsRetriedThenKeptDeadAndRetriedByHand(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	if ok, err := d.MarkDelivery(ctx, "d-fails", time.Hour); err != nil || !ok {
		t.Fatalf("MarkDelivery = %v, %v", ok, err)
	}
	if err := d.Enqueue(ctx, newJob(4, "d-fails")); err != nil {
		t.Fatal(err)
	}
	if err := d.Enqueue(ctx, newJob(4, "d-after")); err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		ran      []string
		backoffs []int
		dead     []string
	)
	opt := sqlite.WorkerOptions{Workers: 2, Poll: 10 * time.Millisecond, MaxAttempts: 3,
		Backoff: func(attempt int) time.Duration {
			mu.Lock()
			defer mu.Unlock()
			backoffs = append(backoffs, attempt)
			return 0
		},
		Dead: func(_ context.Context, j job.Job, cause error) {
			mu.Lock()
			defer mu.Unlock()
			dead = append(dead, j.DeliveryID+": "+cause.Error())
		}}
	runUntil(t, d, opt, func(_ context.Context, j job.Job) error {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, j.DeliveryID)
		if j.DeliveryID == "d-fails" {
			return errors.New("update check run: 502 Bad Gateway")
		}
		return nil
	}, func() bool { mu.Lock(); defer mu.Unlock(); return len(dead) == 1 && len(ran) == 4 })

	if want := "d-fails d-fails d-fails d-after"; strings.Join(ran, " ") != want {
		t.Errorf("runs = %v; want %s: the failing job three times, and the PR's next job only after it is dead", ran, want)
	}
	if fmt.Sprint(backoffs) != "[1 2]" {
		t.Errorf("backoff asked for attempts %v; want [1 2] (none after the last)", backoffs)
	}
	if len(dead) != 1 || !strings.Contains(dead[0], "d-fails: update check run: 502 Bad Gateway") {
		t.Errorf("Dead told %v; want the job and its error once", dead)
	}
	jobs := pending(t, d)
	if len(jobs) != 1 || jobs[0].State != sqlite.StateDead || jobs[0].Attempts != 3 || jobs[0].DeliveryID != "d-fails" ||
		!strings.Contains(jobs[0].LastError, "502 Bad Gateway") {
		t.Fatalf("jobs after the last attempt = %+v; want d-fails kept dead after 3 attempts with its error", jobs)
	}

	// GitHub's Redeliver of the dead job's delivery is new again.
	if ok, err := d.MarkDelivery(ctx, "d-fails", time.Hour); err != nil || !ok {
		t.Errorf("MarkDelivery of a dead job's delivery = %v, %v; want new (Redeliver works)", ok, err)
	}
	if err := d.Retry(ctx, jobs[0].ID); err != nil {
		t.Fatalf("Retry: %v", err)
	}
	if got := pending(t, d); got[0].State != sqlite.StateQueued || got[0].Attempts != 0 {
		t.Errorf("after Retry: %+v; want queued with no attempts", got[0])
	}
	if err := d.Retry(ctx, jobs[0].ID); !errors.Is(err, sqlite.ErrNotDead) {
		t.Errorf("Retry of a queued job = %v; want ErrNotDead", err)
	}
	if err := d.Retry(ctx, 424242); err == nil || !strings.Contains(err.Error(), "no such job") {
		t.Errorf("Retry of an unknown id = %v; want \"no such job\"", err)
	}
	runUntil(t, d, opt, func(context.Context, job.Job) error { return nil }, func() bool { return len(pending(t, d)) == 0 })
}

func TestBackoffHoldsTheJobUntilItsTime(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	c := &clock{t: t0}
	sqlite.SetClock(d, c.now)
	if err := d.Enqueue(ctx, newJob(5, "d-flaky")); err != nil {
		t.Fatal(err)
	}
	runs := 0
	var mu sync.Mutex
	runUntil(t, d, sqlite.WorkerOptions{Workers: 1, Poll: 5 * time.Millisecond, Backoff: func(int) time.Duration { return time.Hour }},
		func(context.Context, job.Job) error {
			mu.Lock()
			defer mu.Unlock()
			runs++
			return errors.New("list artifacts: 500")
		},
		func() bool {
			j := pending(t, d)
			return len(j) == 1 && j[0].State == sqlite.StateQueued && j[0].Attempts == 1
		})
	jobs := pending(t, d)
	if !jobs[0].RunAfter.Equal(t0.Add(time.Hour)) {
		t.Errorf("RunAfter = %s; want %s (an hour of backoff)", jobs[0].RunAfter, t0.Add(time.Hour))
	}
	if _, ok, err := sqlite.LeaseForTest(ctx, d, "other", time.Minute); err != nil || ok {
		t.Errorf("lease during the backoff = %v, %v; want nothing runnable", ok, err)
	}
	c.add(time.Hour)
	l, ok, err := sqlite.LeaseForTest(ctx, d, "other", time.Minute)
	if err != nil || !ok || l.Attempt != 2 {
		t.Errorf("lease after the backoff = %+v, %v, %v; want attempt 2", l, ok, err)
	}
	if runs != 1 {
		t.Errorf("ran %d times during the backoff; want 1", runs)
	}
}

func TestALeaseOfADeadProcessRunsOutAndTheJobRunsAgain(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	c := &clock{t: t0}
	sqlite.SetClock(d, c.now)
	if err := d.Enqueue(ctx, newJob(6, "d-orphan")); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := sqlite.LeaseForTest(ctx, d, "killed-process", time.Minute); err != nil || !ok {
		t.Fatalf("lease = %v, %v", ok, err)
	}
	if _, ok, _ := sqlite.LeaseForTest(ctx, d, "live-process", time.Minute); ok {
		t.Fatalf("a leased job was leased again before its lease ran out")
	}
	c.add(time.Minute)
	var got []job.Job
	var mu sync.Mutex
	runUntil(t, d, sqlite.WorkerOptions{Workers: 1, Poll: 5 * time.Millisecond},
		func(_ context.Context, j job.Job) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, j)
			return nil
		},
		func() bool { return len(pending(t, d)) == 0 })
	if len(got) != 1 || got[0].DeliveryID != "d-orphan" || got[0].PR != 6 {
		t.Errorf("jobs run after the lease ran out = %+v; want d-orphan once", got)
	}
}

func TestTwoProcessesOnOneDataDirectoryRunEachJobOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	const n = 60
	for i := range n {
		q := a
		if i%2 == 1 {
			q = b
		}
		if err := q.Enqueue(ctx, newJob(1+i%6, fmt.Sprintf("d-%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu      sync.Mutex
		runs    = map[string]int{}
		by      = map[string]int{}
		running = map[int]bool{}
		overlap int
		total   int
	)
	process := func(name string) func(context.Context, job.Job) error {
		return func(_ context.Context, j job.Job) error {
			mu.Lock()
			if running[j.PR] {
				overlap++
			}
			running[j.PR] = true
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			running[j.PR] = false
			runs[j.DeliveryID]++
			by[name]++
			total++
			return nil
		}
	}
	ctxB, cancelB := context.WithCancel(ctx)
	doneB := make(chan struct{})
	go func() {
		defer close(doneB)
		b.Run(ctxB, sqlite.WorkerOptions{Workers: 3, Poll: 2 * time.Millisecond, Owner: "process-b"}, process("b"))
	}()
	runUntil(t, a, sqlite.WorkerOptions{Workers: 3, Poll: 2 * time.Millisecond, Owner: "process-a"}, process("a"),
		func() bool { mu.Lock(); defer mu.Unlock(); return total >= n })
	cancelB()
	<-doneB

	for i := range n {
		id := fmt.Sprintf("d-%02d", i)
		if runs[id] != 1 {
			t.Errorf("job %s ran %d times; want once", id, runs[id])
		}
	}
	if overlap > 0 {
		t.Errorf("%d jobs ran while another job of their PR ran in either process", overlap)
	}
	t.Logf("process a ran %d jobs, process b %d", by["a"], by["b"])
}

func TestShutdownQueuesAJobCutShortAgainAsItWas(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := open(t, dir)
	if err := d.Enqueue(ctx, newJob(8, "d-long")); err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	runCtx, cancel := context.WithCancel(ctx)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		d.Run(runCtx, sqlite.WorkerOptions{Workers: 1, Poll: 5 * time.Millisecond, Drain: time.Millisecond}, func(ctx context.Context, _ job.Job) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
	}()
	<-started
	cancel()
	<-finished
	jobs := pending(t, d)
	if len(jobs) != 1 || jobs[0].State != sqlite.StateQueued || jobs[0].Attempts != 0 {
		t.Fatalf("after a shutdown mid-job: %+v; want the job queued again with no attempt counted", jobs)
	}
	d.Close()

	d = open(t, dir)
	var ran []string
	runUntil(t, d, sqlite.WorkerOptions{Workers: 1, Poll: 5 * time.Millisecond},
		func(_ context.Context, j job.Job) error { ran = append(ran, j.DeliveryID); return nil },
		func() bool { return len(pending(t, d)) == 0 })
	if len(ran) != 1 || ran[0] != "d-long" {
		t.Errorf("after restart ran %v; want d-long", ran)
	}
}

func TestRecoverRequeuesTheJobsOfEndedProcessesOnly(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	for i, owner := range []string{"killed", "alive"} {
		if err := d.Enqueue(ctx, newJob(10+i, "d-"+owner)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := sqlite.LeaseForTest(ctx, d, owner, time.Hour); err != nil || !ok {
			t.Fatalf("lease for %s = %v, %v", owner, ok, err)
		}
		path := sqlite.OwnerLockPath(d, owner)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if owner == "alive" {
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, err := d.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want the killed process's one job", n, err)
	}
	states := map[string]string{}
	for _, j := range pending(t, d) {
		states[j.DeliveryID] = j.State + fmt.Sprintf("/%d", j.Attempts)
	}
	if states["d-killed"] != "queued/1" || states["d-alive"] != "leased/1" {
		t.Errorf("after Recover: %v; want d-killed queued (its attempt counted), d-alive still leased", states)
	}
}

func TestAJobThatKeepsKillingItsWorkerEndsDead(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	if ok, _ := d.MarkDelivery(ctx, "d-oom", time.Hour); !ok {
		t.Fatal("MarkDelivery not new")
	}
	if err := d.Enqueue(ctx, newJob(12, "d-oom")); err != nil {
		t.Fatal(err)
	}
	const max = 3
	for i := range max {
		owner := fmt.Sprintf("worker-%d", i)
		if _, ok, err := sqlite.LeaseForTest(ctx, d, owner, time.Hour); err != nil || !ok {
			t.Fatalf("lease %d = %v, %v", i+1, ok, err)
		}
		// The worker is killed: no lock held, Recover puts the job back.
		path := sqlite.OwnerLockPath(d, owner)
		os.MkdirAll(filepath.Dir(path), 0o700)
		os.WriteFile(path, nil, 0o600)
		if n, err := d.Recover(ctx); err != nil || n != 1 {
			t.Fatalf("Recover after kill %d = %d, %v", i+1, n, err)
		}
	}
	var dead []string
	var mu sync.Mutex
	ran := 0
	runUntil(t, d, sqlite.WorkerOptions{Workers: 1, Poll: 5 * time.Millisecond, MaxAttempts: max,
		Dead: func(_ context.Context, j job.Job, cause error) {
			mu.Lock()
			defer mu.Unlock()
			dead = append(dead, j.DeliveryID+": "+cause.Error())
		}},
		func(context.Context, job.Job) error { mu.Lock(); defer mu.Unlock(); ran++; return nil },
		func() bool { mu.Lock(); defer mu.Unlock(); return len(dead) == 1 })
	if ran != 0 {
		t.Errorf("the job ran a %dth time; want it kept dead after %d attempts", max+1, max)
	}
	jobs := pending(t, d)
	if len(jobs) != 1 || jobs[0].State != sqlite.StateDead || !strings.Contains(jobs[0].LastError, "killed or crashed") {
		t.Errorf("jobs = %+v; want d-oom dead, saying its worker stopped", jobs)
	}
	if ok, _ := d.MarkDelivery(ctx, "d-oom", time.Hour); !ok {
		t.Errorf("the dead job's delivery is still remembered; Redeliver would be ignored")
	}
}
