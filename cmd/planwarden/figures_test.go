package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// The figures of `make bench`: whole `planwarden review` runs as separate
// processes (so peak memory is the process's own), side by side with
// terraform-json's bare decode of the same file, on two generated plan
// mixes at 20,000 and 100,000 changes.

// benchMixes are the generated plans: Large's fleet of GPU pools, VMs,
// endpoint configurations, buckets and plain resources, and Clusters'
// brownfield mix (parents only in prior_state, sensitive values, IAM,
// unchanged resources, replacements).
var benchMixes = []struct {
	name string
	gen  func(int) []byte
}{
	{"fleet", plantest.Large},
	{"clusters", plantest.Clusters},
}

// childRun is one measured child process.
type childRun struct {
	wall, cpu time.Duration
	peakMB    float64
}

// BenchmarkReviewFigures runs, for each plan, the bare terraform-json
// decode, `review --format json` and `review --format markdown` one after
// the other in every iteration (paired runs on the same loaded machine)
// and reports medians: the JSON review's wall and CPU time as a multiple
// of the bare decode's (x-wall, x-cpu), the markdown review's wall time as
// a multiple of the JSON review's, and each one's peak RSS.
//
//	go test -run '^$' -bench ReviewFigures -benchtime 5x ./cmd/planwarden
func BenchmarkReviewFigures(b *testing.B) {
	dir := b.TempDir()
	for _, mix := range benchMixes {
		for _, n := range []int{20000, 100000} {
			b.Run(fmt.Sprintf("%s/%d", mix.name, n), func(b *testing.B) {
				path := filepath.Join(dir, fmt.Sprintf("%s-%d.json", mix.name, n))
				data := mix.gen(n)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(data)))
				data = nil
				kinds := []string{"tfjson", "json", "markdown"}
				runs := map[string][]childRun{}
				for b.Loop() {
					for _, k := range kinds {
						runs[k] = append(runs[k], runChild(b, k, path))
					}
				}
				ratio := func(num, den string, of func(childRun) time.Duration) float64 {
					var rs []float64
					for i := range runs[num] {
						rs = append(rs, float64(of(runs[num][i]))/float64(of(runs[den][i])))
					}
					return median(rs)
				}
				wall := func(r childRun) time.Duration { return r.wall }
				cpu := func(r childRun) time.Duration { return r.cpu }
				peak := func(k string) float64 {
					var ps []float64
					for _, r := range runs[k] {
						ps = append(ps, r.peakMB)
					}
					return median(ps)
				}
				ms := func(k string) float64 {
					var ws []float64
					for _, r := range runs[k] {
						ws = append(ws, float64(r.wall)/float64(time.Millisecond))
					}
					return median(ws)
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(ms("tfjson"), "tfjson-ms")
				b.ReportMetric(ms("json"), "json-ms")
				b.ReportMetric(ratio("json", "tfjson", wall), "json-x-wall")
				b.ReportMetric(ratio("json", "tfjson", cpu), "json-x-cpu")
				b.ReportMetric(ratio("markdown", "json", wall), "md/json-wall")
				b.ReportMetric(peak("tfjson"), "tfjson-MB")
				b.ReportMetric(peak("json"), "json-MB")
				b.ReportMetric(peak("markdown"), "md-MB")
			})
		}
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// runChild runs this test binary as TestFiguresChild doing kind on path.
func runChild(b *testing.B, kind, path string) childRun {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFiguresChild$")
	cmd.Env = append(os.Environ(), "PLANWARDEN_FIGURES_CHILD="+kind, "PLANWARDEN_FIGURES_PLAN="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s on %s: %v\n%s", kind, path, err, stderr.String())
	}
	r := childRun{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	// The child reports its own peak: rusage's maxrss would also count
	// this (large) process, whose memory the child shares until it execs.
	if _, after, ok := strings.Cut(stderr.String(), peakLine); ok {
		kb, _ := strconv.ParseFloat(strings.Fields(after)[0], 64)
		r.peakMB = kb / 1024
	} else {
		b.Fatalf("%s on %s: the child reported no peak memory:\n%s", kind, path, stderr.String())
	}
	return r
}

const peakLine = "figures-peak-kb: "

// reportPeak writes this process's peak resident memory (VmHWM) for
// runChild; it is Linux only, where the figures are taken.
func reportPeak(t *testing.T) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status, cannot measure peak memory: %v", err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Fprintf(os.Stderr, "%s%s\n", peakLine, strings.Fields(v)[0])
			return
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
}

// TestFiguresChild is the child process of BenchmarkReviewFigures; it
// does nothing in a normal test run.
func TestFiguresChild(t *testing.T) {
	kind, path := os.Getenv("PLANWARDEN_FIGURES_CHILD"), os.Getenv("PLANWARDEN_FIGURES_PLAN")
	if kind == "" {
		t.Skip("only run as BenchmarkReviewFigures' child process")
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if kind == "tfjson" {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var p tfjson.Plan
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		reportPeak(t)
		runtime.KeepAlive(&p)
		return
	}
	if code := run([]string{"review", "--format", kind, path}, strings.NewReader(""), devnull, os.Stderr); code == exitUsage {
		t.Fatalf("review exited %d", code)
	}
	reportPeak(t)
}
