package run

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/publish"
)

// paddedZip is an artifact zip of a small plan.json beside pad bytes of a
// stored (uncompressed) file the review never reads: its zip is large,
// its plans small.
func paddedZip(t *testing.T, pad int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`{"format_version":"1.2","resource_changes":[]}`))
	w, err = zw.CreateHeader(&zip.FileHeader{Name: "cache.bin", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, pad))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// What a download holds is charged as it is read, not only by the size
// GitHub lists: artifacts listed at 1 KiB that download 20 MiB each stop
// being downloaded once they would take the job past the worker's budget,
// and the check concludes that the plans are too large for the worker;
// when they would fit but other jobs hold the memory, the job lets its
// zips go and waits. The honest twin: the same zips, fewer of them, are
// read.
func TestDownloadsAreChargedByWhatTheyHoldWhileRead(t *testing.T) {
	t.Parallel()
	const memBudget = jobOverhead + 64<<20
	data := paddedZip(t, 20<<20)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	tests := map[string]struct {
		zips       int
		othersHold int64
		ctx        context.Context
		downloads  int    // at most
		want       string // the check's title; "" for read, "retried" for a wait cut short
	}{
		"six zips listed small, each 20 MiB: too large for the worker":          {zips: 6, ctx: context.Background(), downloads: 4, want: "Plan too large for the worker"},
		"two such zips beside another job's 40 MiB: the job waits without them": {zips: 2, othersHold: 40 << 20, ctx: gone, downloads: 2, want: "retried"},
		"two such zips: read": {zips: 2, ctx: context.Background(), downloads: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			x := New(Config{State: publish.NewState(nil, time.Hour, time.Now), MemoryBudget: memBudget})
			if tc.othersHold > 0 {
				release, err := admit(context.Background(), x.memory, tc.othersHold)
				if err != nil {
					t.Fatal(err)
				}
				defer release()
			}
			var arts []port.Artifact
			for i := range tc.zips {
				arts = append(arts, port.Artifact{ID: int64(i + 1), Name: fmt.Sprintf("planwarden-p%d", i), SizeInBytes: 1 << 10})
			}
			gh := &porttest.Reader{DownloadArtifactFunc: func(port.Repo, int64, int64) ([]byte, error) { return data, nil }}
			adm := &admission{gate: x.memory}
			files, err := x.downloadWithin(tc.ctx, gh, port.Repo{Owner: "o", Name: "r"}, arts, &budget{left: 512 << 20}, adm)
			if n := gh.N("DownloadArtifact"); n > tc.downloads {
				t.Errorf("%d downloads; want at most %d", n, tc.downloads)
			}
			switch tc.want {
			case "":
				if err != nil || len(files) != tc.zips {
					t.Fatalf("downloadWithin: %d files, %v; want %d", len(files), err, tc.zips)
				}
			case "retried":
				if err == nil || publish.FinalOf(err) != nil || !errors.Is(err, context.Canceled) {
					t.Fatalf("err %v; want the wait's cancellation, retried", err)
				}
				if adm.held != 0 {
					t.Errorf("the job holds %d bytes of the budget while it waits; want none", adm.held)
				}
			default:
				fin := publish.FinalOf(err)
				if fin == nil || fin.Check().Title != tc.want {
					t.Fatalf("err %v; want the check to conclude %q", err, tc.want)
				}
			}
			if adm.held > memBudget {
				t.Errorf("the job held %d MiB; the budget is %d MiB", adm.held>>20, memBudget>>20)
			}
			adm.release()
		})
	}
}

// manyEntries is a zip of n empty entries (a directory of about 60 bytes
// each): its end record says so.
func manyEntries(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("d/%06d.txt", i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A zip's directory is counted from its end record before it is parsed:
// one of 200,000 entries is refused for its entry count at the cost of
// reading its end, not of parsing 200,000 headers (twice). The honest
// twin: a zip of 400 entries is opened.
func TestAZipsDirectoryIsCountedBeforeItIsParsed(t *testing.T) {
	t.Parallel()
	huge, fine := manyEntries(t, 200_000), manyEntries(t, 400)
	x := New(Config{State: publish.NewState(nil, time.Hour, time.Now), MemoryBudget: jobOverhead + 256<<20})
	arts := []port.Artifact{{ID: 1, Name: "planwarden-many", SizeInBytes: int64(len(huge))}}
	gh := &porttest.Reader{DownloadArtifactFunc: func(port.Repo, int64, int64) ([]byte, error) { return huge, nil }}
	adm := &admission{gate: x.memory}
	var err error
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = x.downloadWithin(context.Background(), gh, port.Repo{Owner: "o", Name: "r"}, arts, &budget{left: 512 << 20}, adm)
	runtime.ReadMemStats(&after)
	adm.release()
	fin := publish.FinalOf(err)
	if fin == nil || fin.Check().Title != "Plan artifact refused" {
		t.Fatalf("err %v; want the artifact refused", err)
	}
	if s := fin.Check().Summary; s != "artifact planwarden-many refused: 200000 entries, more than the limit of 500" {
		t.Errorf("summary %q; want the entries counted", s)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing it allocated %d KiB; want at most 1 MiB (the end record, not the directory)", got>>10)
	}
	files, err := extractPlans("planwarden-fine", fine, Limits{}.withDefaults(), &budget{left: 512 << 20})
	if fin := publish.FinalOf(err); fin == nil || fin.Check().Summary != "artifact planwarden-fine holds no *.json plan file" {
		t.Errorf("a zip of 400 empty entries: %d files, %v; want it opened (its entries no plan)", len(files), err)
	}
}
