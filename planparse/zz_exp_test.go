package planparse

import (
	"testing"

	"github.com/planwarden/planwarden/planparse/plantest"
)

func BenchmarkZZSkipAll(b *testing.B) {
	data := plantest.Clusters(20000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := skipValue(data, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZZReadPlan(b *testing.B) {
	data := plantest.Clusters(20000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := readPlan(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZZParseClusters(b *testing.B) {
	data := plantest.Clusters(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("x", data); err != nil {
			b.Fatal(err)
		}
	}
}
