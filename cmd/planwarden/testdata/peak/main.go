// Command peak runs a command and reports, on standard error, its CPU
// time, wall time and peak resident memory, for BenchmarkReviewFigures.
// It is a process of its own, and a small one, because Linux counts into
// an exec'd child's peak the memory of the process it was started from
// until the exec: measured straight from the (large) benchmark process,
// every child would peak at least as high as the benchmark.
//
//	peak PROGRAM ARGS...
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peak PROGRAM ARGS...")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintf(os.Stderr, "peak: %v\n", err)
		os.Exit(2)
	}
	ps := cmd.ProcessState
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "peak: no resource usage on this system")
		os.Exit(2)
	}
	// ru_maxrss is in KiB on Linux.
	fmt.Fprintf(os.Stderr, "peak: wall-ns %d cpu-ns %d maxrss-kb %d\n", wall.Nanoseconds(), (ps.UserTime() + ps.SystemTime()).Nanoseconds(), ru.Maxrss)
	os.Exit(ps.ExitCode())
}
