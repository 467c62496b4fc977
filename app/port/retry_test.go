package port

import (
	"testing"
	"time"
)

func TestExponentialBackoff(t *testing.T) {
	b := Exponential(15*time.Second, 15*time.Minute)
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute}
	for i, w := range want {
		if got := b(i + 1); got != w {
			t.Errorf("attempt %d: backoff %s, want %s", i+1, got, w)
		}
	}
	if got := Exponential(0, time.Minute)(4); got != 0 {
		t.Errorf("a zero base backs off %s, want 0", got)
	}
}
