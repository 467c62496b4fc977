//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// mappingRss is the resident size in kB of the mapping that starts at the
// first byte of data, from /proc/self/smaps.
func mappingRss(t *testing.T, data []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "-") && !strings.Contains(line, ":") || strings.Count(line, " ") > 4 && strings.Contains(strings.Fields(line)[0], "-") {
			in = strings.HasPrefix(line, start)
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return kb
		}
	}
	t.Fatalf("no mapping at %s in /proc/self/smaps", start)
	return 0
}

// TestReleasePagesLeavesResidentMemory: after a plan is mapped and read
// whole, releasePages takes the sparse sections' pages out of the
// mapping's resident memory, and the plan's lookups still read their
// resources (the pages come back from the file).
func TestReleasePagesLeavesResidentMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clusters.json")
	if err := os.WriteFile(path, plantest.Clusters(2000), 0o644); err != nil {
		t.Fatal(err)
	}
	data, mapped, err := readPlanMapped(path, nil)
	if err != nil || !mapped {
		t.Skipf("the plan was not mapped (%v)", err)
	}
	p, err := planparse.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, r := range p.PriorResourcesOfType("azurerm_kubernetes_cluster") {
		want[r.Address] = r.Values.Get("name").Display()
	}
	before := mappingRss(t, data)
	sparse := 0
	for _, r := range p.SparseRanges() {
		sparse += r.End - r.Start
	}
	releasePages(data, p.SparseRanges())
	after := mappingRss(t, data)
	if freed := (before - after) * 1024; freed < sparse*9/10 {
		t.Errorf("resident %d kB -> %d kB: %d bytes released of %d sparse bytes", before, after, freed, sparse)
	}
	q, err := planparse.Parse(path, append([]byte(nil), data...))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range q.PriorResourcesOfType("azurerm_kubernetes_cluster") {
		if got := p.PriorResource(r.Address); got == nil || got.Values.Get("name").Display() != r.Values.Get("name").Display() {
			t.Errorf("after the release, prior_state %s reads %v", r.Address, got)
		}
		delete(want, r.Address)
	}
	if len(want) > 0 {
		t.Errorf("clusters not found again: %v", want)
	}
}

// TestReleaseWhileReviewingReleasesOnStop: the pages of prior_state and
// planned_values a review read (infra's lookups) leave the mapping's
// resident memory when the review stops, and a plan that was read, not
// mapped, is left alone.
func TestReleaseWhileReviewingReleasesOnStop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clusters.json")
	if err := os.WriteFile(path, plantest.Clusters(2000), 0o644); err != nil {
		t.Fatal(err)
	}
	data, mapped, err := readPlanMapped(path, nil)
	if err != nil || !mapped {
		t.Skipf("the plan was not mapped (%v)", err)
	}
	p, err := planparse.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	read, err := planparse.Parse(path, append([]byte(nil), data...))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []review.Input{{Name: "mapped", Plan: p}, {Name: "read", Plan: read}}
	stop := releaseWhileReviewing([][]byte{data, nil}, inputs, time.Hour) // no tick: only stop releases
	sparse, sum := 0, 0
	for _, r := range p.SparseRanges() {
		sparse += r.End - r.Start
		for _, b := range data[r.Start:r.End] { // as infra's lookups read them
			sum += int(b)
		}
	}
	before := mappingRss(t, data)
	stop()
	after := mappingRss(t, data)
	if freed := (before - after) * 1024; freed < sparse*9/10 {
		t.Errorf("resident %d kB -> %d kB: %d bytes released of %d sparse bytes read (sum %d)", before, after, freed, sparse, sum)
	}
	if got := read.PriorResourcesOfType("azurerm_kubernetes_cluster"); len(got) == 0 {
		t.Error("the plan that was read lost its prior_state")
	}
}
