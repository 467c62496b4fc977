package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// BenchmarkReviewJSON is the whole `planwarden review --format json` of a
// generated 20,000-change plan (about 28 MB): read, decode, infra, rules,
// encode. Compare with planparse's BenchmarkTFJSONUnmarshal (the bare
// terraform-json decode of the same plan).
func BenchmarkReviewJSON(b *testing.B) {
	benchmarkReview(b, plantest.Large, "json")
}

// BenchmarkReviewJSONDigests is BenchmarkReviewJSON with --digests (the
// keyed digests verify compares, which the App's check run always carries).
func BenchmarkReviewJSONDigests(b *testing.B) {
	benchmarkReview(b, plantest.Large, "json", "--digests")
}

// BenchmarkReviewMarkdown is the same plan rendered as the PR comment.
func BenchmarkReviewMarkdown(b *testing.B) {
	benchmarkReview(b, plantest.Large, "markdown")
}

// BenchmarkReviewJSONClusters is the JSON review of the brownfield mix
// (plantest.Clusters: parents only in prior_state, sensitive values, IAM,
// unchanged resources, replacements) at 20,000 changes.
func BenchmarkReviewJSONClusters(b *testing.B) {
	benchmarkReview(b, plantest.Clusters, "json")
}

// BenchmarkReviewMarkdownClusters is the same plan rendered as the PR comment.
func BenchmarkReviewMarkdownClusters(b *testing.B) {
	benchmarkReview(b, plantest.Clusters, "markdown")
}

func benchmarkReview(b *testing.B, gen func(int) []byte, format string, flags ...string) {
	data := gen(20000)
	path := filepath.Join(b.TempDir(), "large.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		args := append(append([]string{"review", "--format", format}, flags...), path)
		if code := run(args, strings.NewReader(""), io.Discard, io.Discard); code == exitUsage {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestWriteLargePlan writes the benchmark plan to $PLANWARDEN_LARGE_PLAN
// so the binary's peak memory can be measured on it
// (`/usr/bin/time -v bin/planwarden review --format json FILE`).
func TestWriteLargePlan(t *testing.T) {
	path := os.Getenv("PLANWARDEN_LARGE_PLAN")
	if path == "" {
		t.Skip("set PLANWARDEN_LARGE_PLAN=/path/to/file.json to write the 20,000-change benchmark plan")
	}
	if err := os.WriteFile(path, plantest.Large(20000), 0o644); err != nil {
		t.Fatal(err)
	}
}
