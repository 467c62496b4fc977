//go:build linux

package main

import (
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with 4 KiB base pages (x86-64, arm64).
const hugePage = 2 << 20

// prepareHeap readies the Go heap for reviewing plans of planBytes bytes.
//
// A review's heap grows to about one and a half times its plan and stays
// mostly live until the report is written, so nearly all of it is fresh
// memory, which the kernel maps one 4 KiB page per fault. On a
// virtualised machine a fault costs microseconds: a 27 MB plan's review
// took about 10,000 faults, a fifth of its CPU. prepareHeap grows the heap
// by that much at once, asks the kernel for transparent huge pages there
// (MADV_HUGEPAGE: one fault then maps 2 MiB where the system's THP setting
// is "madvise" or "always", and nothing changes where it is "never"), and
// lets the block go again, so the review's objects are made in it. The block
// is never written: what the review does not reach never becomes
// resident. Plans under smallPlan bytes are left alone; a review of them
// has few faults to save. It returns the advised addresses, [begin, end).
func prepareHeap(planBytes int64) (begin, end uintptr) {
	if planBytes < smallPlan {
		return 0, 0
	}
	// With collection off while the block is made, the block does not start
	// a collection that may still see it live, leave the heap's goal at
	// twice its size and the review's objects outside it (under strace,
	// 10,000 faults instead of 1,400); the first collection after it frees
	// it.
	gc := debug.SetGCPercent(-1)
	block := make([]byte, planBytes+planBytes/4)
	begin, end = adviseHugePages(block)
	debug.SetGCPercent(gc)
	return begin, end
}

// smallPlan is the plan size below which prepareHeap does nothing.
const smallPlan = 4 << 20

// adviseHugePages marks the whole huge pages inside b for transparent
// huge pages and returns their addresses, [begin, end); none when the
// kernel has no transparent huge pages.
func adviseHugePages(b []byte) (begin, end uintptr) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	begin = (p + hugePage - 1) &^ (hugePage - 1)
	end = (p + uintptr(len(b))) &^ (hugePage - 1)
	if end <= begin || unix.Madvise(b[begin-p:end-p], unix.MADV_HUGEPAGE) != nil {
		return 0, 0
	}
	return begin, end
}
