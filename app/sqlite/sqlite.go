// Package sqlite is the durable state of `planwarden serve`: one SQLite
// database (pure Go, modernc.org/sqlite, no cgo) in a data directory,
// holding the job queue, PR state (with its overrides) and delivery ids.
// It is the App's Store and Queue, and runs the queue's workers.
//
// The database is in WAL mode and every write transaction takes the write
// lock at BEGIN (BEGIN IMMEDIATE), so several `serve` processes may share
// one data directory: a job is leased by one process at a time and each
// lease is renewed while the job runs.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/planwarden/planwarden/app/port"
)

// FileName is the database file inside the data directory.
const FileName = "planwarden.db"

// migrations build the schema; migration i takes the database from
// PRAGMA user_version i to i+1. Append only: a released migration never
// changes.
var migrations = []string{
	`CREATE TABLE deliveries (
		id         TEXT PRIMARY KEY,
		expires_at INTEGER NOT NULL -- unix nanoseconds
	);
	CREATE TABLE prs (
		key        TEXT PRIMARY KEY, -- job.Job.GroupKey
		version    INTEGER NOT NULL,
		state      TEXT NOT NULL,    -- port.PRState as JSON
		expires_at INTEGER NOT NULL
	);
	CREATE TABLE jobs (
		id          INTEGER PRIMARY KEY AUTOINCREMENT,
		grp         TEXT NOT NULL,    -- job.Job.GroupKey: one order per PR
		delivery_id TEXT NOT NULL,
		event       TEXT NOT NULL,
		body        TEXT NOT NULL,    -- job.Job as JSON
		state       TEXT NOT NULL CHECK (state IN ('queued', 'leased', 'dead')),
		attempts    INTEGER NOT NULL DEFAULT 0,
		run_after   INTEGER NOT NULL, -- unix nanoseconds: not before
		lease_owner TEXT NOT NULL DEFAULT '',
		lease_until INTEGER NOT NULL DEFAULT 0,
		last_error  TEXT NOT NULL DEFAULT '',
		created_at  INTEGER NOT NULL,
		updated_at  INTEGER NOT NULL
	);
	CREATE INDEX jobs_by_group ON jobs (grp, id) WHERE state != 'dead';`,
}

// DB is the data directory's database. It is an port.Store, an port.Queue
// and an port.DeliveryForgetter, and safe for concurrent use.
type DB struct {
	db   *sql.DB
	path string
	now  func() time.Time
	// wake tells this process's idle workers that a job may be ready.
	wake chan struct{}
}

var (
	_ port.Store             = (*DB)(nil)
	_ port.Queue             = (*DB)(nil)
	_ port.DeliveryForgetter = (*DB)(nil)
	_ port.DeliveryQueue     = (*DB)(nil)
)

// testHook, when set (tests, and binaries built with -tags testhooks), is
// called at named steps; an error fails the step.
var testHook func(step string) error

func step(name string) error {
	if testHook == nil {
		return nil
	}
	return testHook(name)
}

// Open opens (creating it and the directory when missing) the database in
// dir and brings its schema up to date.
func Open(dir string) (*DB, error) {
	if dir == "" {
		return nil, errors.New("open data directory: no directory given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open data directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection: this process's writers queue in database/sql instead
	// of in SQLite's busy handler, which sleeps; other processes still
	// wait for the write lock there (busy_timeout).
	db.SetMaxOpenConns(1)
	d := &DB{db: db, path: path, now: time.Now, wake: make(chan struct{}, 1)}
	if err := d.migrate(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		db.Close()
		return nil, fmt.Errorf("open %s: journal mode is %q, not wal (%v): put the data directory on a local file system", path, mode, err)
	}
	return d, nil
}

// Path is the database file.
func (d *DB) Path() string { return d.path }

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// SchemaVersion is the number of migrations the database has had.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := d.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

func (d *DB) migrate(ctx context.Context) error {
	for {
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", d.path, err)
		}
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: read schema version: %w", d.path, err)
		}
		if v > len(migrations) {
			tx.Rollback()
			return fmt.Errorf("open %s: schema version %d is newer than this planwarden knows (%d): run the newer planwarden, or give PLANWARDEN_DATA_DIR a new directory", d.path, v, len(migrations))
		}
		if v == len(migrations) {
			return tx.Rollback()
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s to schema version %d: %w", d.path, v+1, err)
		}
		// PRAGMA takes no parameters; v+1 is our own integer.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s to schema version %d: %w", d.path, v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate %s to schema version %d: %w", d.path, v+1, err)
		}
	}
}

func nanos(t time.Time) int64 { return t.UnixNano() }

// MarkDelivery records the delivery id and reports whether it was new (or
// its earlier record had expired).
func (d *DB) MarkDelivery(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if id == "" {
		return false, errors.New("mark delivery: empty delivery id")
	}
	fresh, err := markTx(ctx, d.db, id, ttl, d.now())
	if err != nil {
		return false, fmt.Errorf("mark delivery %s in %s: %w", id, d.path, err)
	}
	return fresh, nil
}

// markTx records a delivery key through db (the database or a
// transaction) and reports whether it was new or its record had expired.
func markTx(ctx context.Context, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, id string, ttl time.Duration, now time.Time) (bool, error) {
	if id == "" {
		return false, errors.New("empty delivery id")
	}
	res, err := db.ExecContext(ctx, `INSERT INTO deliveries (id, expires_at) VALUES (?, ?)
		ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at WHERE deliveries.expires_at <= ?`,
		id, nanos(now.Add(ttl)), nanos(now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

// ForgetDelivery drops a delivery id, so GitHub's Redeliver is new again.
func (d *DB) ForgetDelivery(ctx context.Context, id string) error {
	if _, err := d.db.ExecContext(ctx, `DELETE FROM deliveries WHERE id = ?`, id); err != nil {
		return fmt.Errorf("forget delivery %s in %s: %w", id, d.path, err)
	}
	return nil
}

// PR returns the unexpired state stored under key, with its version.
func (d *DB) PR(ctx context.Context, key string) (port.PRState, bool, error) {
	var (
		version int64
		body    string
	)
	err := d.db.QueryRowContext(ctx, `SELECT version, state FROM prs WHERE key = ? AND expires_at > ?`, key, nanos(d.now())).Scan(&version, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return port.PRState{}, false, nil
	}
	if err != nil {
		return port.PRState{}, false, fmt.Errorf("read pr state %s from %s: %w", key, d.path, err)
	}
	var st port.PRState
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		return port.PRState{}, false, fmt.Errorf("decode pr state %s from %s: %w", key, d.path, err)
	}
	st.Version = version
	return st, true, nil
}

// PutPR writes st under key if the stored version is still st.Version.
func (d *DB) PutPR(ctx context.Context, key string, st port.PRState, ttl time.Duration) error {
	if key == "" {
		return errors.New("put pr state: empty key")
	}
	read := st.Version
	st.Version = 0 // the column holds it
	body, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode pr state %s: %w", key, err)
	}
	now := d.now()
	var res sql.Result
	if read == 0 {
		// No state was read: there is none, or it has expired.
		res, err = d.db.ExecContext(ctx, `INSERT INTO prs (key, version, state, expires_at) VALUES (?, 1, ?, ?)
			ON CONFLICT (key) DO UPDATE SET version = 1, state = excluded.state, expires_at = excluded.expires_at
			WHERE prs.expires_at <= ?`, key, string(body), nanos(now.Add(ttl)), nanos(now))
	} else {
		res, err = d.db.ExecContext(ctx, `UPDATE prs SET version = version + 1, state = ?, expires_at = ?
			WHERE key = ? AND version = ? AND expires_at > ?`, string(body), nanos(now.Add(ttl)), key, read, nanos(now))
	}
	if err != nil {
		return fmt.Errorf("put pr state %s to %s: %w", key, d.path, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("put pr state %s to %s: %w", key, d.path, err)
	}
	if n == 0 {
		return fmt.Errorf("put pr state %s at version %d: %w", key, read, port.ErrConflict)
	}
	return nil
}

// Sweep deletes expired delivery ids and PR state. Open state and queued
// jobs are never swept.
func (d *DB) Sweep(ctx context.Context) error {
	now := nanos(d.now())
	if _, err := d.db.ExecContext(ctx, `DELETE FROM deliveries WHERE expires_at <= ?`, now); err != nil {
		return fmt.Errorf("sweep %s: %w", d.path, err)
	}
	if _, err := d.db.ExecContext(ctx, `DELETE FROM prs WHERE expires_at <= ?`, now); err != nil {
		return fmt.Errorf("sweep %s: %w", d.path, err)
	}
	return nil
}
