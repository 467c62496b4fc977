package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// The figures of `make bench`: whole `planwarden review` runs of the
// real binary, each a process of its own (so peak memory is the
// process's own), side by side with terraform-json's bare decode of the
// same file (a small program of its own, testdata/tfjsondecode), on two
// generated plan mixes at 20,000 and 100,000 changes. testdata/peak runs
// each one and reports its CPU, wall time and peak RSS.

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
	bins := buildFigureBinaries(b, dir)
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
						runs[k] = append(runs[k], runChild(b, bins, k, path))
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

// figureBinaries are the programs BenchmarkReviewFigures runs.
type figureBinaries struct{ planwarden, tfjson, peak string }

// buildFigureBinaries builds planwarden (as `make build` does), the
// terraform-json yardstick and the peak wrapper into dir.
func buildFigureBinaries(b *testing.B, dir string) figureBinaries {
	b.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Fatalf("the figures build the planwarden binary with the go command, which is not on PATH: %v", err)
	}
	bins := figureBinaries{planwarden: filepath.Join(dir, "planwarden"), tfjson: filepath.Join(dir, "tfjsondecode"), peak: filepath.Join(dir, "peak")}
	for out, pkg := range map[string]string{bins.planwarden: ".", bins.tfjson: "./testdata/tfjsondecode", bins.peak: "./testdata/peak"} {
		if msg, err := exec.Command(goTool, "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	return bins
}

// runChild runs kind (tfjson, or the review format) on path under the
// peak wrapper and reads the figures it reports.
func runChild(b *testing.B, bins figureBinaries, kind, path string) childRun {
	b.Helper()
	args := []string{bins.planwarden, "review", "--format", kind, path}
	if kind == "tfjson" {
		args = []string{bins.tfjson, path}
	}
	cmd := exec.Command(bins.peak, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	// review exits 1 when its verdict is fail; anything else is an error.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == exitFail && kind != "tfjson") {
		b.Fatalf("%s on %s: %v\n%s", kind, path, err, stderr.String())
	}
	_, after, ok := strings.Cut(stderr.String(), peakLine)
	var wallNS, cpuNS, kb int64
	if ok {
		_, err = fmt.Sscanf(after, "wall-ns %d cpu-ns %d maxrss-kb %d", &wallNS, &cpuNS, &kb)
	}
	if !ok || err != nil {
		b.Fatalf("%s on %s: the peak wrapper reported no figures (%v):\n%s", kind, path, err, stderr.String())
	}
	return childRun{wall: time.Duration(wallNS), cpu: time.Duration(cpuNS), peakMB: float64(kb) / 1024}
}

const peakLine = "peak: "
