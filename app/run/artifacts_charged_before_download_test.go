package run

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/planparse"
)

// planZip is an artifact zip of one plan.json of n bytes that compresses
// to almost nothing (far better than compressionBound).
func planZip(t *testing.T, n int) []byte {
	t.Helper()
	return zipPlan(t, append([]byte(`{"format_version":"1.2","resource_changes":[]}`), bytes.Repeat([]byte(" "), n)...))
}

// zipPlan is an artifact zip holding plan as plan.json.
func zipPlan(t *testing.T, plan []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(plan)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Admission by memory counts a run's artifacts before it downloads them
// (from the sizes GitHub lists), corrects the charge from the zips'
// headers, and never waits with zips in hand.
func TestArtifactsAreChargedBeforeTheyAreDownloaded(t *testing.T) {
	t.Parallel()
	// 100 MiB beside what every job's plans may decode.
	const memBudget = 100<<20 + planparse.DecodeBound
	data := planZip(t, 8<<20) // 8 MiB of plan in a few KiB of zip
	arts := []port.Artifact{{ID: 1, Name: "planwarden-big", SizeInBytes: int64(len(data))}}
	zr, err := openZip("planwarden-big", data, Limits{}.withDefaults(), nil)
	if err != nil {
		t.Fatal(err)
	}
	exact := planCost([]openedZip{{data: data, zr: zr}})
	if up := upfrontCost(arts, 512<<20); up >= exact {
		t.Fatalf("the test wants an artifact whose up-front charge (%d) is under its exact cost (%d)", up, exact)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	tests := map[string]struct {
		othersHold int64 // what other jobs hold of the budget
		ctx        context.Context
		downloads  int
		retried    bool
	}{
		// Not even the up-front charge fits: the job waits (until its
		// context ends) before it downloads anything.
		"the charge does not fit: nothing is downloaded while waiting": {othersHold: 90 << 20, ctx: gone, downloads: 0, retried: true},
		// The charge fits, the zip's headers ask for more than is free:
		// the zip is let go and the job waits for the whole, holding
		// nothing.
		"the headers ask for more than is free: the job waits without its zip": {othersHold: 80 << 20, ctx: gone, downloads: 1, retried: true},
		"everything fits": {ctx: context.Background(), downloads: 1},
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
			gh := &porttest.Reader{DownloadArtifactFunc: func(port.Repo, int64, int64) ([]byte, error) { return data, nil }}
			adm := &admission{gate: x.memory}
			files, err := x.downloadWithin(tc.ctx, gh, port.Repo{Owner: "o", Name: "r"}, arts, &budget{left: 512 << 20}, adm)
			if n := gh.N("DownloadArtifact"); n != tc.downloads {
				t.Errorf("%d downloads, want %d", n, tc.downloads)
			}
			if tc.retried {
				if err == nil || publish.FinalOf(err) != nil || !errors.Is(err, context.Canceled) {
					t.Fatalf("err %v; want the wait's cancellation, retried", err)
				}
				if adm.held != 0 {
					t.Errorf("the job holds %d bytes of the budget while it waits; want none", adm.held)
				}
				return
			}
			if err != nil || len(files) != 1 {
				t.Fatalf("downloadWithin: %d files, %v", len(files), err)
			}
			// Charged exactly what the headers declare, the zip given
			// back once its plan is read.
			if want := exact - int64(cap(data)); adm.held != want {
				t.Errorf("the job holds %d bytes; want %d (3 × the declared plan + the fixed part)", adm.held, want)
			}
			adm.release()
		})
	}
}
