package port

import "time"

// The retry defaults of every job queue (serve's SQLite queue, the Lambda
// worker's SQS messages), defined once: a failing job runs again after
// DefaultRetryBase, doubling, and one failing DefaultMaxAttempts times is
// given up (serve keeps it as dead; on Lambda it is the queue's
// maxReceiveCount in template.yaml).
const (
	DefaultMaxAttempts = 5
	DefaultRetryBase   = 15 * time.Second
)

// Exponential is base, 2 base, 4 base ... up to limit: the wait before
// attempt n+1 after attempt n failed.
func Exponential(base, limit time.Duration) func(attempt int) time.Duration {
	return func(attempt int) time.Duration {
		d := base
		for i := 1; i < attempt && d < limit; i++ {
			d *= 2
		}
		return min(d, limit)
	}
}
