//go:build unix

package infra

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkAnalyzeParts prices the brownfield and fleet mixes in one pass
// and in two parts side by side (analyzeParts), reporting the process's
// CPU time per analysis (cpu-ns/op) beside the wall time: the parts
// trade CPU (their caches and indexes are made twice) for wall time.
func BenchmarkAnalyzeParts(b *testing.B) {
	for _, mix := range []struct {
		name string
		data func(int) []byte
	}{{"clusters", plantest.Clusters}, {"fleet", plantest.Large}} {
		for _, n := range []int{20000, 100000} {
			if n > 20000 && testing.Short() {
				continue
			}
			data := mix.data(n)
			for _, parts := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s-%d/parts=%d", mix.name, n, parts), func(b *testing.B) {
					cat := DefaultCatalog()
					var cpu time.Duration
					for b.Loop() {
						b.StopTimer()
						p, err := planparse.Parse(mix.name, data)
						if err != nil {
							b.Fatal(err)
						}
						runtime.GC()
						start := processCPU()
						b.StartTimer()
						rs := analyzeParts(p, cat, Options{}, parts)
						b.StopTimer()
						cpu += processCPU() - start
						if len(rs) == 0 {
							b.Fatal("nothing analysed")
						}
						b.StartTimer()
					}
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// processCPU is the CPU time the process has used (user and system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
