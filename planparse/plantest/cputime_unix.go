//go:build unix

package plantest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used (user and system), for
// benchmarks to report per operation: a figure that the other processes of
// a shared machine disturb less than the wall time. It is 0 when the
// system does not say.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
