//go:build race

package app_test

// raceDetector: the race detector's own allocations change what a heap
// measurement sees, so memory targets are asserted only without it.
const raceDetector = true
