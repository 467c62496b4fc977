package secret

import (
	"math/rand"
	"testing"
)

// BenchmarkFindOnHostileValues searches 20 MB values that, without the
// budget, cost the detector a minute and more of CPU:
//
//	go test ./planparse/internal/secret -run '^$' -bench FindOnHostileValues -benchtime 1x
func BenchmarkFindOnHostileValues(b *testing.B) {
	const size = 20 << 20
	for what, v := range map[string]string{
		"WEIGHTS_KEY=": lines(size, func(r *rand.Rand, _ int) string { return "WEIGHTS_KEY=" + randomOf(r, alnum, 40) }),
		"keywords":     keywordSoup(size),
	} {
		b.Run(what, func(b *testing.B) {
			for b.Loop() {
				w := newWork(nil)
				findWork(v, "", w, func(string) {})
				b.ReportMetric(float64(w.scanned), "bytes-read")
				b.ReportMetric(float64(w.matched), "matches")
			}
		})
	}
}
