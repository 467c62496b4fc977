package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/planwarden/planwarden/app/job"
)

// Job states in the jobs table. A job that is done is deleted.
const (
	StateQueued = "queued"
	StateLeased = "leased"
	StateDead   = "dead"
)

// ErrNotDead is returned by Retry for a job that is not dead.
var ErrNotDead = errors.New("job is not dead")

// Enqueue stores the job; a worker of this or another process on the same
// data directory runs it. Jobs of one group (job.Job.GroupKey: one PR, for
// reviews and commands alike) run one at a time, in the order queued.
func (d *DB) Enqueue(ctx context.Context, j job.Job) error {
	body, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", j.DeliveryID, err)
	}
	now := nanos(d.now())
	_, err = d.db.ExecContext(ctx, `INSERT INTO jobs (grp, delivery_id, event, body, state, run_after, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)`, j.GroupKey(), j.DeliveryID, j.Event, string(body), now, now, now)
	if err != nil {
		return fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
	}
	d.poke()
	return nil
}

// EnqueueDelivery records the delivery's keys (its id and its body's
// digest) and stores its job in one transaction: a delivery is never
// marked seen without its job queued, whatever stops the process between
// the two. seen is the first key recorded before (and unexpired): then
// nothing is written.
func (d *DB) EnqueueDelivery(ctx context.Context, j job.Job, keys []string, ttl time.Duration) (seen string, err error) {
	body, err := json.Marshal(j)
	if err != nil {
		return "", fmt.Errorf("encode job %s: %w", j.DeliveryID, err)
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
	}
	defer tx.Rollback()
	now := d.now()
	for _, k := range keys {
		fresh, err := markTx(ctx, tx, k, ttl, now)
		if err != nil {
			return "", fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
		}
		if !fresh {
			return k, nil
		}
	}
	if err := step("delivery-marked"); err != nil {
		return "", fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
	}
	n := nanos(now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO jobs (grp, delivery_id, event, body, state, run_after, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)`, j.GroupKey(), j.DeliveryID, j.Event, string(body), n, n, n); err != nil {
		return "", fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("enqueue job %s in %s: %w", j.DeliveryID, d.path, err)
	}
	d.poke()
	return "", nil
}

func (d *DB) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Lease is a job a worker holds: until LeaseUntil no other worker takes it.
type Lease struct {
	ID       int64
	Job      job.Job
	Attempt  int // 1 for the first run
	Owner    string
	Deadline time.Time
}

// lease takes the oldest runnable job: the first job of its group that is
// not dead, queued (or leased by an owner whose lease ran out) and past
// its backoff. ok is false when no job is runnable. A job that already had
// maxAttempts (its runs were cut short by the process dying) is kept as
// dead instead and returned with dead true.
func (d *DB) lease(ctx context.Context, owner string, leaseFor time.Duration, maxAttempts int) (l Lease, ok, dead bool, err error) {
	tx, err := d.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one leaser at a time
	if err != nil {
		return l, false, false, fmt.Errorf("lease a job in %s: %w", d.path, err)
	}
	defer tx.Rollback()
	now := d.now()
	var body string
	err = tx.QueryRowContext(ctx, `SELECT j.id, j.body, j.attempts FROM jobs j
		WHERE j.state != 'dead'
		  AND j.id = (SELECT MIN(k.id) FROM jobs k WHERE k.grp = j.grp AND k.state != 'dead')
		  AND j.run_after <= ?1
		  AND (j.state = 'queued' OR j.lease_until <= ?1)
		ORDER BY j.id LIMIT 1`, nanos(now)).Scan(&l.ID, &body, &l.Attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return l, false, false, nil
	}
	if err != nil {
		return l, false, false, fmt.Errorf("lease a job in %s: %w", d.path, err)
	}
	if err := json.Unmarshal([]byte(body), &l.Job); err != nil {
		// Not runnable by anyone: keep it for the operator to see.
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'dead', last_error = ?, updated_at = ? WHERE id = ?`,
			"unreadable job: "+err.Error(), nanos(now), l.ID); err != nil {
			return l, false, false, fmt.Errorf("lease job %d in %s: %w", l.ID, d.path, err)
		}
		return l, false, false, tx.Commit()
	}
	if maxAttempts > 0 && l.Attempt >= maxAttempts {
		cause := fmt.Sprintf("the worker running it stopped (killed or crashed) during each of its last attempts; %d attempts in all", l.Attempt)
		if err := buryTx(ctx, tx, l.ID, cause, now); err != nil {
			return l, false, false, fmt.Errorf("bury job %d in %s: %w", l.ID, d.path, err)
		}
		return l, false, true, tx.Commit()
	}
	l.Attempt++
	l.Owner, l.Deadline = owner, now.Add(leaseFor)
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'leased', attempts = ?, lease_owner = ?, lease_until = ?, updated_at = ? WHERE id = ?`,
		l.Attempt, owner, nanos(l.Deadline), nanos(now), l.ID); err != nil {
		return l, false, false, fmt.Errorf("lease job %d in %s: %w", l.ID, d.path, err)
	}
	if err := tx.Commit(); err != nil {
		return l, false, false, fmt.Errorf("lease job %d in %s: %w", l.ID, d.path, err)
	}
	return l, true, false, nil
}

// errLeaseLost means another worker holds the job now: this one's lease
// ran out before it was renewed.
var errLeaseLost = errors.New("lease lost")

// renew extends a lease that this owner still holds.
func (d *DB) renew(ctx context.Context, l Lease, leaseFor time.Duration) error {
	return d.own(ctx, l, `UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND state = 'leased' AND lease_owner = ?`,
		nanos(d.now().Add(leaseFor)), nanos(d.now()), l.ID, l.Owner)
}

// done deletes a finished job.
func (d *DB) done(ctx context.Context, l Lease) error {
	return d.own(ctx, l, `DELETE FROM jobs WHERE id = ? AND state = 'leased' AND lease_owner = ?`, l.ID, l.Owner)
}

// retryLater puts a failed job back, to run again after backoff.
func (d *DB) retryLater(ctx context.Context, l Lease, cause error, after time.Duration) error {
	now := d.now()
	return d.own(ctx, l, `UPDATE jobs SET state = 'queued', lease_owner = '', lease_until = 0, run_after = ?, last_error = ?, updated_at = ?
		WHERE id = ? AND state = 'leased' AND lease_owner = ?`, nanos(now.Add(after)), errText(cause), nanos(now), l.ID, l.Owner)
}

// release puts a job that was cut short (shutdown) back as it was, to
// run at once; the attempt does not count.
func (d *DB) release(ctx context.Context, l Lease) error {
	return d.own(ctx, l, `UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_owner = '', lease_until = 0, updated_at = ?
		WHERE id = ? AND state = 'leased' AND lease_owner = ?`, nanos(d.now()), l.ID, l.Owner)
}

// bury keeps a job that exhausted its attempts as dead, with its error,
// and forgets its delivery id and body digest, so that GitHub's Redeliver
// of it is queued again instead of answered as a duplicate.
func (d *DB) bury(ctx context.Context, l Lease, cause error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("bury job %d in %s: %w", l.ID, d.path, err)
	}
	defer tx.Rollback()
	var owner string
	err = tx.QueryRowContext(ctx, `SELECT lease_owner FROM jobs WHERE id = ? AND state = 'leased'`, l.ID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != l.Owner) {
		return fmt.Errorf("bury job %d in %s: %w", l.ID, d.path, errLeaseLost)
	}
	if err != nil {
		return fmt.Errorf("bury job %d in %s: %w", l.ID, d.path, err)
	}
	if err := buryTx(ctx, tx, l.ID, errText(cause), d.now()); err != nil {
		return fmt.Errorf("bury job %d in %s: %w", l.ID, d.path, err)
	}
	return tx.Commit()
}

func buryTx(ctx context.Context, tx *sql.Tx, id int64, cause string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'dead', lease_owner = '', lease_until = 0, last_error = ?, updated_at = ? WHERE id = ?`,
		cause, nanos(now), id); err != nil {
		return err
	}
	// The delivery id, and the body's digest the receiver also dedupes on.
	_, err := tx.ExecContext(ctx, `DELETE FROM deliveries WHERE id IN
		(SELECT delivery_id FROM jobs WHERE id = ?1 UNION SELECT json_extract(body, '$.body_digest') FROM jobs WHERE id = ?1)`, id)
	return err
}

// Recover puts the jobs leased by processes that have ended (killed, or
// crashed: their owner lock in the data directory is free) back in the
// queue at once, instead of after their lease runs out; the attempt they
// were on counts. It returns how many jobs it put back.
func (d *DB) Recover(ctx context.Context) (int, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT DISTINCT lease_owner FROM jobs WHERE state = 'leased'`)
	if err != nil {
		return 0, fmt.Errorf("recover jobs in %s: %w", d.path, err)
	}
	var owners []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return 0, fmt.Errorf("recover jobs in %s: %w", d.path, err)
		}
		owners = append(owners, o)
	}
	rows.Close()
	n := 0
	for _, o := range owners {
		if !ownerGone(d.ownerLockPath(o)) {
			continue
		}
		res, err := d.db.ExecContext(ctx, `UPDATE jobs SET state = 'queued', lease_owner = '', lease_until = 0, run_after = ?, updated_at = ?
			WHERE state = 'leased' AND lease_owner = ?`, nanos(d.now()), nanos(d.now()), o)
		if err != nil {
			return n, fmt.Errorf("recover jobs of %s in %s: %w", o, d.path, err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	if n > 0 {
		d.poke()
	}
	return n, nil
}

func (d *DB) own(ctx context.Context, l Lease, query string, args ...any) error {
	res, err := d.db.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("job %d in %s: %w", l.ID, d.path, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("job %d in %s: %w", l.ID, d.path, errLeaseLost)
	}
	return nil
}

// errText keeps a stored error short; errors never carry secrets (the
// App's errors name what was being done, not credentials).
func errText(err error) string {
	s := err.Error()
	if len(s) > 4000 {
		s = s[:4000] + "…"
	}
	return s
}

// JobInfo is one stored job, for `planwarden jobs`.
type JobInfo struct {
	ID         int64
	Group      string
	DeliveryID string
	Event      string
	State      string
	Attempts   int
	RunAfter   time.Time
	LastError  string
	CreatedAt  time.Time
}

// Jobs lists the jobs not yet done, oldest first.
func (d *DB) Jobs(ctx context.Context) ([]JobInfo, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT id, grp, delivery_id, event, state, attempts, run_after, last_error, created_at FROM jobs ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list jobs in %s: %w", d.path, err)
	}
	defer rows.Close()
	var out []JobInfo
	for rows.Next() {
		var (
			j                   JobInfo
			runAfter, createdAt int64
		)
		if err := rows.Scan(&j.ID, &j.Group, &j.DeliveryID, &j.Event, &j.State, &j.Attempts, &runAfter, &j.LastError, &createdAt); err != nil {
			return nil, fmt.Errorf("list jobs in %s: %w", d.path, err)
		}
		j.RunAfter, j.CreatedAt = time.Unix(0, runAfter).UTC(), time.Unix(0, createdAt).UTC()
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list jobs in %s: %w", d.path, err)
	}
	return out, nil
}

// Retry queues a dead job again, with its attempts reset. It keeps its
// place: it runs before the later jobs of its PR.
func (d *DB) Retry(ctx context.Context, id int64) error {
	res, err := d.db.ExecContext(ctx, `UPDATE jobs SET state = 'queued', attempts = 0, run_after = ?, updated_at = ? WHERE id = ? AND state = 'dead'`,
		nanos(d.now()), nanos(d.now()), id)
	if err != nil {
		return fmt.Errorf("retry job %d in %s: %w", id, d.path, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		var state string
		if err := d.db.QueryRowContext(ctx, `SELECT state FROM jobs WHERE id = ?`, id).Scan(&state); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("retry job %d: no such job in %s (done jobs are deleted; `planwarden jobs` lists the others)", id, d.path)
		}
		return fmt.Errorf("retry job %d: it is %s: %w", id, state, ErrNotDead)
	}
	d.poke()
	return nil
}

// Waiting counts the jobs queued and not leased: the queue's depth.
func (d *DB) Waiting(ctx context.Context) (int, error) {
	var n int
	if err := d.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE state = 'queued'`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count jobs in %s: %w", d.path, err)
	}
	return n, nil
}

// Ping reports whether the database answers (serve's /readyz).
func (d *DB) Ping(ctx context.Context) error {
	if err := d.db.PingContext(ctx); err != nil {
		return fmt.Errorf("database %s: %w", d.path, err)
	}
	var one int
	if err := d.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("database %s: %w", d.path, err)
	}
	return nil
}
