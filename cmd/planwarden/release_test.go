package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestReviewReleasesOnlyMappedPages: a review of a mapped plan file, whose
// prior_state and planned_values pages are released after Parse, and a
// review of the same plan read from standard input (heap bytes, never
// released: released heap pages read back as zeros) print the same report,
// on the mix whose parent clusters and launch templates are looked up in
// prior_state after the release.
func TestReviewReleasesOnlyMappedPages(t *testing.T) {
	t.Parallel()
	data := plantest.Clusters(400)
	path := filepath.Join(t.TempDir(), "clusters.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	review := func(arg string, stdin []byte) string {
		var out, errb bytes.Buffer
		if code := run([]string{"review", "--format", "json", "--project", "p", arg}, bytes.NewReader(stdin), &out, &errb); code == exitUsage {
			t.Fatalf("review %s: exit %d: %s", arg, code, errb.String())
		}
		return out.String()
	}
	fromFile, fromStdin := review(path, nil), review("-", data)
	// The report names its file: standard input is <stdin>.
	fromStdin = strings.Replace(fromStdin, `"plan_file": "\u003cstdin\u003e"`, `"plan_file": "`+path+`"`, 1)
	if fromFile != fromStdin {
		t.Fatalf("the review of the mapped file (%d bytes) differs from the review of standard input (%d bytes)", len(fromFile), len(fromStdin))
	}
	// A node pool's price region is its parent cluster's location, found
	// in prior_state after the release.
	if !strings.Contains(fromFile, `"price_region": "westeurope"`) {
		t.Errorf("no node pool priced in its cluster's region: the lookups after the release found nothing to compare")
	}
	if _, mapped, err := readPlanMapped("-", strings.NewReader("{}")); mapped || err != nil {
		t.Errorf("standard input read as mapped (%v, %v): its heap pages would be released", mapped, err)
	}
	p, err := planparse.Parse(path, data)
	if err != nil || len(p.SparseRanges()) != 2 {
		t.Fatalf("sparse ranges of the clusters mix: %v, %v", p.SparseRanges(), err)
	}
}
