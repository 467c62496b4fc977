package sqlite

import (
	"context"
	"time"
)

// SetClock replaces the database's clock (tests of expiry and backoff).
func SetClock(d *DB, now func() time.Time) { d.now = now }

// LeaseForTest leases one job as owner would.
func LeaseForTest(ctx context.Context, d *DB, owner string, leaseFor time.Duration) (Lease, bool, error) {
	l, ok, _, err := d.lease(ctx, owner, leaseFor, 0)
	return l, ok, err
}

// OwnerLockPath is where a lease owner's liveness lock lives.
func OwnerLockPath(d *DB, owner string) string { return d.ownerLockPath(owner) }

// StepHook sets the function called at named steps for the test; an error
// fails the step.
func StepHook(t interface{ Cleanup(func()) }, f func(step string) error) {
	testHook = f
	t.Cleanup(func() { testHook = nil })
}
