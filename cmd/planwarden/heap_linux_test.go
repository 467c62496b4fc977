//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// hugeAdvised is how many bytes of [begin, end) lie in mappings advised for
// transparent huge pages ("hg" among their VmFlags in /proc/self/smaps).
func hugeAdvised(t *testing.T, begin, end uintptr) uint64 {
	t.Helper()
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skipf("this kernel has no transparent huge pages: %v", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var total uint64
	var lo, hi uintptr
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if a, b, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			x, err1 := strconv.ParseUint(a, 16, 64)
			y, err2 := strconv.ParseUint(b, 16, 64)
			if err1 == nil && err2 == nil {
				lo, hi = max(uintptr(x), begin), min(uintptr(y), end)
				continue
			}
		}
		if fields[0] == "VmFlags:" && hi > lo && slices.Contains(fields[1:], "hg") {
			total += uint64(hi - lo)
		}
	}
	return total
}

// TestPrepareHeapAdvisesHugePagesAndFreesTheBlock: a big plan's review
// gets heap advised for huge pages, at least the plan's size, and the
// review's objects are made there (the block that grew the heap does not
// hold it).
// It runs in a fresh process, as the CLI's review does: in this one, heap
// freed by earlier tests would take the objects first.
func TestPrepareHeapAdvisesHugePagesAndFreesTheBlock(t *testing.T) {
	if os.Getenv("PLANWARDEN_TEST_FRESH_HEAP") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrepareHeapAdvisesHugePagesAndFreesTheBlock$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PLANWARDEN_TEST_FRESH_HEAP=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	const plan = 32 << 20
	begin, end := prepareHeap(plan)
	if end-begin < plan {
		t.Fatalf("prepareHeap(%d) advised [%#x, %#x), want at least the plan's size", plan, begin, end)
	}
	if got := hugeAdvised(t, begin, end); got != uint64(end-begin) {
		t.Errorf("of [%#x, %#x) (%d bytes), %d bytes are advised for huge pages", begin, end, end-begin, got)
	}
	objects := make([][]byte, plan/4096)
	in := 0
	for i := range objects {
		objects[i] = make([]byte, 4096)
		if p := uintptr(unsafe.Pointer(&objects[i][0])); p >= begin && p < end {
			in++
		}
	}
	if in < len(objects)/2 {
		t.Errorf("%d of %d objects made after prepareHeap lie in the advised heap, want most", in, len(objects))
	}
}

// TestPrepareHeapLeavesSmallPlansAlone: a small plan's review does not
// grow the heap ahead of it.
func TestPrepareHeapLeavesSmallPlansAlone(t *testing.T) {
	if begin, end := prepareHeap(smallPlan - 1); end != begin {
		t.Errorf("prepareHeap(%d) advised [%#x, %#x), want nothing", smallPlan-1, begin, end)
	}
}

// TestPlanBytesCountsRegularFiles: the heap is prepared for the plan files
// on disk; standard input and files that cannot be read add nothing.
func TestPlanBytesCountsRegularFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(a, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, make([]byte, 234), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := planBytes([]string{a, "-", b, filepath.Join(dir, "missing.json"), dir}); got != 1234 {
		t.Errorf("planBytes = %d, want 1234 (a.json and b.json)", got)
	}
}
