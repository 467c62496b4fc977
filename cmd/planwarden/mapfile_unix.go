//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/planwarden/planwarden/planparse"
)

// mapFile maps a regular file read-only into memory. The plan's bytes then
// live outside the Go heap: the collector's heap goal (twice the live heap)
// no longer doubles them, which on a 140 MB plan is 140 MB of peak memory.
// The mapping stays until the process exits; ok is false when the file
// cannot be mapped and must be read.
func mapFile(f *os.File, size int64) (data []byte, ok bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	return data, true
}

// releasePages gives the system back the pages of a mapping of mapFile
// that lie wholly inside the spans (planparse.Plan.SparseRanges): they
// leave the process's resident memory, and a later read of their bytes
// reads them back from the file (the mapping is private and read-only, so
// no byte changes). Pages a span shares with other bytes stay. data must
// come from mapFile: released heap memory would read back as zeros.
func releasePages(data []byte, spans []planparse.Range) {
	page := os.Getpagesize()
	for _, r := range spans {
		start := (r.Start + page - 1) / page * page
		end := min(r.End, len(data)) / page * page
		if end > start {
			_ = unix.Madvise(data[start:end], unix.MADV_DONTNEED)
		}
	}
}
