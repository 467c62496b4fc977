package rules

import (
	"syscall"
	"testing"
	"time"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkBuiltinRule is each built-in rule alone over the generated
// 20,000-change brownfield plan, and the completion and ordering of the
// findings (conclude), as EvaluateWith runs them.
func BenchmarkBuiltinRule(b *testing.B) {
	p, err := planparse.Parse("clusters.json", plantest.Clusters(20000))
	if err != nil {
		b.Fatal(err)
	}
	project := Project{Name: "clusters", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}
	cfg := DefaultConfig()
	for _, id := range builtinIDs() {
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				s := newScope(cfg, project)
				s.changedResources()
				builtins[id].check(s)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
	findings := cfg.Evaluate([]Project{project}, nil).Findings
	b.Run("conclude", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			cfg.Conclude(findings, nil)
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the CPU time the process has used (user and system): a
// figure that the other processes of a shared machine disturb less than
// the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
