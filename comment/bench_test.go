package comment

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// BenchmarkRenderLarge renders the comment of a 20,000-change plan. Parse
// and Build run once, outside the timer; each iteration parses the plan
// afresh only when values must be decoded again, so the first b.N
// iterations decode the shown diffs and later ones reuse them, as the bot
// does when it renders a comment and a check run from one report.
func BenchmarkRenderLarge(b *testing.B) {
	r := largeReport(b)
	b.ResetTimer()
	for b.Loop() {
		_ = Render(r, Options{Marker: true, HeadSHA: "abcdef1"})
	}
}

// BenchmarkCheckOutputLarge is the check-run output of the same report.
func BenchmarkCheckOutputLarge(b *testing.B) {
	r := largeReport(b)
	b.ResetTimer()
	for b.Loop() {
		_ = CheckOutput(r, Options{})
	}
}

// BenchmarkRenderLargeCold includes Parse and Build, so that every diff is
// decoded fresh: the cost the bot pays once per plan.
func BenchmarkRenderLargeCold(b *testing.B) {
	data := plantest.Large(20000)
	b.ResetTimer()
	for b.Loop() {
		plan, err := planparse.Parse("large.json", data)
		if err != nil {
			b.Fatal(err)
		}
		r := review.Build([]review.Input{{Name: "fleet", Environment: "prod", Plan: plan}}, review.Options{})
		_ = Render(r, Options{})
	}
}

func largeReport(b *testing.B) *review.Report {
	b.Helper()
	plan, err := planparse.Parse("large.json", plantest.Large(20000))
	if err != nil {
		b.Fatal(err)
	}
	return review.Build([]review.Input{{Name: "fleet", Environment: "prod", Plan: plan}}, review.Options{})
}
