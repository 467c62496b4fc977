package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/sqlite"
	"github.com/planwarden/planwarden/record"
)

func open(t *testing.T, dir string) *sqlite.DB {
	t.Helper()
	d, err := sqlite.Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestStorePortSuite(t *testing.T) {
	porttest.RunStore(t, func(t *testing.T) port.Store { return open(t, t.TempDir()) })
}

// clock is a settable time, safe across goroutines.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func TestStateSurvivesReopening(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := port.PRState{HeadSHA: "abc", Conclusion: "success", UpdatedAt: t0,
		Grants: []record.Grant{{Rule: "gpu-sku-loss", Environment: "prod", By: "alice", At: t0, HeadSHA: "abc"}}}
	if err := d.PutPR(ctx, "octo/infra#1", st, time.Hour); err != nil {
		t.Fatal(err)
	}
	if ok, err := d.MarkDelivery(ctx, "d-1", time.Hour); err != nil || !ok {
		t.Fatalf("MarkDelivery = %v, %v", ok, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = open(t, dir)
	got, ok, err := d.PR(ctx, "octo/infra#1")
	if err != nil || !ok {
		t.Fatalf("PR after reopening = found %v, %v", ok, err)
	}
	if len(got.Grants) != 1 || got.Grants[0].Rule != "gpu-sku-loss" || got.Version != 1 {
		t.Errorf("PR after reopening = overrides %+v version %d; want the recorded override at version 1", got.Grants, got.Version)
	}
	if ok, err := d.MarkDelivery(ctx, "d-1", time.Hour); err != nil || ok {
		t.Errorf("MarkDelivery after reopening = %v, %v; want a duplicate", ok, err)
	}
}

func TestExpiredStateIsGone(t *testing.T) {
	ctx := context.Background()
	d := open(t, t.TempDir())
	c := &clock{t: t0}
	sqlite.SetClock(d, c.now)
	if ok, _ := d.MarkDelivery(ctx, "d-old", time.Hour); !ok {
		t.Fatal("first MarkDelivery not new")
	}
	if err := d.PutPR(ctx, "octo/infra#2", port.PRState{HeadSHA: "abc"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	c.add(59 * time.Minute)
	if ok, _ := d.MarkDelivery(ctx, "d-old", time.Hour); ok {
		t.Errorf("MarkDelivery within the ttl reported new")
	}
	c.add(2 * time.Minute)
	if ok, err := d.MarkDelivery(ctx, "d-old", time.Hour); err != nil || !ok {
		t.Errorf("MarkDelivery after the ttl = %v, %v; want new", ok, err)
	}
	if _, ok, err := d.PR(ctx, "octo/infra#2"); err != nil || ok {
		t.Errorf("PR after the ttl = found %v, %v; want absent", ok, err)
	}
	// Expired state reads as absent, so a write at version 0 may replace it.
	if err := d.PutPR(ctx, "octo/infra#2", port.PRState{HeadSHA: "def"}, time.Hour); err != nil {
		t.Errorf("PutPR at version 0 over expired state: %v", err)
	}
	if err := d.Sweep(ctx); err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	if got, ok, _ := d.PR(ctx, "octo/infra#2"); !ok || got.HeadSHA != "def" {
		t.Errorf("PR after Sweep = %+v found %v; want the live state kept", got, ok)
	}
}

func TestSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := open(t, dir)
	v, err := d.SchemaVersion(ctx)
	if err != nil || v != 1 {
		t.Errorf("SchemaVersion = %d, %v; want 1 after the first Open", v, err)
	}
	raw, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var mode string
	if err := raw.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	d.Close()

	// Reopening migrates nothing twice.
	d2 := open(t, dir)
	if v, err := d2.SchemaVersion(ctx); err != nil || v != 1 {
		t.Errorf("SchemaVersion after reopening = %d, %v; want 1", v, err)
	}
	d2.Close()

	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err = sqlite.Open(dir)
	if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") || !strings.Contains(err.Error(), filepath.Join(dir, sqlite.FileName)) {
		t.Errorf("Open of a newer schema = %v; want an error naming the file and the version", err)
	}
}

func TestOpenRefusesAFileAsDirectory(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir) // creates planwarden.db
	d.Close()
	_, err := sqlite.Open(filepath.Join(dir, sqlite.FileName, "x"))
	if err == nil || !strings.Contains(err.Error(), "open data directory") {
		t.Errorf("Open under a file = %v; want an error naming the data directory", err)
	}
}
